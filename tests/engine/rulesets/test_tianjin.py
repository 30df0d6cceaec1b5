"""天津麻将 scoring and helpers (RULES §5), tested from the rule book.

Value = 1 doubled by clean / joker_wait / catch_five / kong_bloom and × 4 for
dragon (§5.5); each other player pays value × m × base, m = 1 between
non-dealers and (2 if 坐庄 else 1) × 2^(拉 count) against the dealer (§5.2).
Seats: winner 1, dealer 0 unless said; jokers 6z 5z (indicator 6z) unless said.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.__main__ import score_case
from games.engine.tiles import parse, tile
from tests.vectors import assert_matches, vector_cases


def case(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": "tianjin",
        "seat": 1,
        "dealer": 0,
        "concealed": concealed,
        "win_tile": win,
        "by": "self_draw",
        "jokers": "6z5z",
    }
    data.update(kw)
    return data


def score(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_case(case(concealed, win, **kw))


@pytest.mark.parametrize("data", vector_cases("tianjin"), ids=lambda c: c["id"])
def test_vectors(data: dict[str, Any]) -> None:
    assert_matches(score_case(data), data["expect"])


# ---------------------------------------------------------------------------
# Who may win (§5.4).


def test_self_draw_only() -> None:
    out = score("123m456m789p234s5s", "5s", by="discard", **{"from": 0})
    assert out["win"] is False and out["reason"] == "self_draw_only"


def test_robbing_a_kong_is_no_self_draw() -> None:
    out = score("123m456m789p234s5s", "5s", by="robbing_kong", **{"from": 2})
    assert out["win"] is False and out["reason"] == "self_draw_only"


def test_discarded_joker_cannot_win() -> None:
    # 小相公
    out = score("123m456m789p234s5s", "5s", discarded_joker=True)
    assert out["win"] is False and out["reason"] == "discarded_joker"


def test_not_a_winning_hand() -> None:
    out = score("123m456m789p234s6s", "9s")
    assert out["win"] is False and out["reason"] == "not_a_winning_hand"


def test_normal_shape_only() -> None:
    # seven pairs (no jokers among them) do not win
    out = score("1133557799m11z2z", "2z", jokers="3p4p")
    assert out["win"] is False and out["reason"] == "not_a_winning_hand"


def test_a_joker_makes_the_shape() -> None:
    # 123m 456m 789p 55s + 2s 6z, 4s drawn: the joker 6z stands for 3s (2s-3s-4s)
    out = score("123m456m789p2s6z55s", "4s")
    # not clean (a joker), no other pattern: value 1, 1 from each
    assert out["win"] and out["patterns"] == [] and out["value"] == 1
    assert out["payments"] == [-1, 3, -1, -1]


# ---------------------------------------------------------------------------
# Patterns (§5.5).


def test_clean() -> None:
    # no joker at all: clean ×2 → 2 from each (vector tj-clean-selfdraw too)
    out = score("123m456m789p234s5s", "5s", jokers="3z4z")
    assert out["patterns"] == ["clean"] and out["value"] == 2


def test_a_joker_standing_for_itself_is_not_clean() -> None:
    # jokers 3p 4p; the hand holds 3p 4p in 234p as plain tiles: still not clean → 1
    out = score("123m456m234p789s5s", "5s", jokers="3p4p")
    assert "clean" not in out["patterns"] and out["value"] == 1


def test_gold_kong_outside_the_hand_keeps_it_clean() -> None:
    # Decision: "in the hand" is the concealed part + winning tile; a declared
    # 金杠 of 6z is not in it → clean ×2 → 2
    out = score("123m456m789p1s", "1s", melds=[{"kind": "concealed_kong", "tiles": "6666z"}])
    assert out["patterns"] == ["clean"] and out["value"] == 2


def test_single_joker_wait() -> None:
    # 单混吊: 123m 456m 789s 111p + 6z, any tile wins (here 9m): ×2 → 2
    out = score("123m456m789s111p6z", "9m")
    assert out["patterns"] == ["joker_wait"] and out["value"] == 2


def test_double_joker_wait() -> None:
    # 双混吊: 123m 456m 789s + 11p + 6z 5z, any tile wins (here 9p): ×2 → 2
    out = score("123m456m789s11p6z5z", "9p")
    assert out["patterns"] == ["joker_wait"] and out["value"] == 2


def test_drawing_a_joker_onto_a_plain_single_is_no_joker_wait() -> None:
    # waiting on 5s alone, drew the joker 6z: not 混吊, not clean → 1
    out = score("123m456m789s111p5s", "6z")
    assert out["win"] and "joker_wait" not in out["patterns"] and out["value"] == 1


def test_joker_wait_with_a_joker_inside_a_meld() -> None:
    # 12m+6z is a meld (3m), 456m 789s 111p, and 5z alone: still 单混吊 → 2
    out = score("12m6z456m789s111p5z", "9p")
    assert "joker_wait" in out["patterns"] and out["value"] == 2


def test_catch_five() -> None:
    # 46m + 5m drawn completes 456m; 123p 456p 789s 11z; clean: 2 × 2 = 4 → 4 from each
    out = score("46m123p456p789s11z", "5m")
    assert set(out["patterns"]) == {"clean", "catch_five"}
    assert out["value"] == 4 and out["payments"] == [-4, 12, -4, -4]


def test_catch_five_with_a_joker_for_4m() -> None:
    # 6z stands for 4m: catch_five ×2, not clean → 2
    out = score("6m6z123p456p789s11z", "5m")
    assert out["patterns"] == ["catch_five"] and out["value"] == 2


def test_catch_five_drawing_a_joker_as_5m() -> None:
    # 46m waiting on 5m, drew the joker 6z: it stands for 5m → catch_five, not clean → 2
    out = score("46m123p456p789s11z", "6z")
    assert out["patterns"] == ["catch_five"] and out["value"] == 2


def test_catch_five_characters_only() -> None:
    # 46p + 5p: no catch_five; clean → 2
    out = score("46p123m456m789s11z", "5p")
    assert out["patterns"] == ["clean"] and out["value"] == 2


def test_five_in_the_pair_is_no_catch_five() -> None:
    # 5m pairs 5m (123m 456p 789p 111s + 55m): clean only → 2
    out = score("123m456p789p111s5m", "5m")
    assert out["patterns"] == ["clean"]


def test_dragon() -> None:
    # 12345678m + 9m drawn = 123 456 789m, 999p, 11z; clean: 4 × 2 = 8
    out = score("12345678m999p11z", "9m")
    assert set(out["patterns"]) == {"clean", "dragon"} and out["value"] == 8


def test_dragon_with_a_joker_standing_in() -> None:
    # 6z stands for 7m: dragon ×4, not clean → 4
    out = score("1234568m6z999p11z", "9m")
    assert out["patterns"] == ["dragon"] and out["value"] == 4


def test_dragon_and_catch_five_multiply() -> None:
    # 捉五龙: 1234 6789m + 5m drawn = 123 456 789m; 999p; 11z; clean:
    # 4 (dragon) × 2 (catch_five) × 2 (clean) = 16 → 16 from each
    out = score("12346789m999p11z", "5m")
    assert set(out["patterns"]) == {"clean", "dragon", "catch_five"}
    assert out["value"] == 16 and out["payments"] == [-16, 48, -16, -16]


def test_best_reading_of_the_jokers() -> None:
    # 1234567m + 6z + 999p + 11z, 8m drawn: reading the joker as 9m makes
    # 123 456 789m: dragon ×4 (not clean) → 4; read as 3m (12(3)m 345m 678m) it gives 1
    out = score("1234567m6z999p11z", "8m")
    assert out["value"] == 4 and "dragon" in out["patterns"]


def test_joker_wait_and_catch_five_multiply() -> None:
    # Decision (patterns are independent): 46m+6z is a meld and 5z waits alone (单混吊);
    # 5m drawn reads 456m with the two jokers as a pair: joker_wait ×2 × catch_five ×2 = 4
    out = score("46m6z123p456p789s5z", "5m")
    assert set(out["patterns"]) == {"joker_wait", "catch_five"} and out["value"] == 4


def test_kong_bloom() -> None:
    # won on a kong replacement, clean: 2 × 2 = 4
    out = score("123m456m789p1s", "1s", melds=[{"kind": "concealed_kong", "tiles": "3333s"}], after_kong=True)
    assert set(out["patterns"]) == {"clean", "kong_bloom"} and out["value"] == 4


# ---------------------------------------------------------------------------
# Stakes (§5.2) and payments (§5.5).


def test_dealer_wins_with_stakes() -> None:
    # dealer 0 wins clean (2); 坐庄, 拉 [0, 1, 0, 2]: m = 2 × 2^la:
    # seat 1 pays 2 × 4 = 8, seat 2 2 × 2 = 4, seat 3 2 × 8 = 16; dealer +28
    out = score("123m456m789p234s5s", "5s", seat=0, zuozhuang=True, lazhuang=[0, 1, 0, 2])
    assert out["payments"] == [28, -8, -4, -16]


def test_la_without_zuo() -> None:
    # seat 2 wins clean (2); no 坐庄, seat 2 拉两庄: the dealer pays 2 × 4 = 8; seat 1, 3 pay 2
    out = score("123m456m789p234s5s", "5s", seat=2, lazhuang=[0, 0, 2, 0])
    assert out["payments"] == [-8, -2, 12, -2]


def test_base_stake_multiplies() -> None:
    # clean 2 × base 5 = 10 from each
    out = score("123m456m789p234s5s", "5s", base=5)
    assert out["value"] == 2 and out["payments"] == [-10, 30, -10, -10]


def test_pair_multiplier() -> None:
    from games.engine.scoring.tianjin import pair_multiplier

    la = [0, 1, 0, 2]
    assert pair_multiplier(0, 1, 0, True, la) == 4  # 2 × 2^1
    assert pair_multiplier(3, 0, 0, True, la) == 8  # 2 × 2^2
    assert pair_multiplier(0, 2, 0, False, la) == 1
    assert pair_multiplier(1, 3, 0, True, la) == 1  # two non-dealers
    assert pair_multiplier(0, 3, 0, False, []) == 1  # nobody chose


# ---------------------------------------------------------------------------
# Play helpers.


def test_joker_kinds() -> None:
    from games.engine.scoring.tianjin import joker_kinds

    assert joker_kinds(tile("3p")) == (tile("3p"), tile("4p"))
    assert joker_kinds(tile("9s")) == (tile("9s"), tile("1s"))
    assert joker_kinds(tile("3z")) == (tile("3z"), tile("4z"))
    assert joker_kinds(tile("4z")) == (tile("4z"), tile("1z"))  # N → E
    assert joker_kinds(tile("7z")) == (tile("7z"), tile("6z"))  # 中 → 发
    assert joker_kinds(tile("6z")) == (tile("6z"), tile("5z"))  # 发 → 白
    assert joker_kinds(tile("5z")) == (tile("5z"), tile("7z"))  # 白 → 中


def test_kong_payments() -> None:
    from games.engine.scoring.tianjin import kong_payments

    jokers = tuple(parse("6z5z"))
    la = [0, 1, 0, 2]
    # seat 2 exposed kong, no 坐庄: 1 from each
    assert kong_payments(2, "exposed", tile("1m"), jokers, 0, False, la, 1) == (-1, -1, 3, -1)
    # added kong is 1 too; seat 1 with 拉一庄 against the dealer: dealer pays 1 × 2
    assert kong_payments(1, "added", tile("1m"), jokers, 0, False, la, 1) == (-2, 4, -1, -1)
    # concealed 2; the dealer konging with 坐庄: seat 1 pays 2 × 4, seat 2 2 × 2, seat 3 2 × 8
    assert kong_payments(0, "concealed", tile("1m"), jokers, 0, True, la, 1) == (28, -8, -4, -16)
    # 金杠 (four jokers, concealed) 4, base 2: seat 2 gets 4 × 2 from each (m = 1... dealer m = 1)
    assert kong_payments(2, "concealed", tile("6z"), jokers, 0, False, [0] * 4, 2) == (-8, -8, 24, -8)


def test_chan() -> None:
    from games.engine.scoring.tianjin import chan_payments

    east = tile("1z")
    # the seed's example: 坐庄, A no 拉, B 拉一庄, C 拉两庄 → the dealer pays 2, 4, 8
    assert chan_payments([east] * 4, 0, True, [0, 0, 1, 2], 1) == (-14, 2, 4, 8)
    # no stakes, base 3, dealer 2: 3 to each
    assert chan_payments([east] * 4, 2, False, [], 3) == (3, 3, -9, 3)
    assert chan_payments([east, east, east, tile("2z")], 0, False, [], 1) is None
    assert chan_payments([east] * 3, 0, False, [], 1) is None
    # the discards must be the dealer's and then each next seat's
    assert chan_payments([east] * 4, 1, False, [], 1, discarders=[1, 2, 3, 0]) is not None
    assert chan_payments([east] * 4, 1, False, [], 1, discarders=[1, 3, 2, 0]) is None


def test_joker_claims() -> None:
    from games.engine.scoring.tianjin import claim_blocked

    jokers = tuple(parse("6z5z"))
    assert claim_blocked("pong", tile("6z"), jokers, 2)
    assert not claim_blocked("pong", tile("7z"), jokers, 2)
    assert claim_blocked("kong", tile("5z"), jokers, 3)  # Decision: no exposed joker kong
    assert not claim_blocked("kong", tile("1m"), jokers, 3)


def test_next_dealer_and_ruleset_data() -> None:
    from games.engine.actions import new_hand
    from games.engine.rulesets.tianjin import RULESET
    from games.engine.scoring.tianjin import next_dealer
    from games.engine.state import HandResult

    assert next_dealer(1, ()) == 1
    assert next_dealer(1, (1,)) == 1
    assert next_dealer(3, (2,)) == 0
    state = new_hand("tianjin", 11, dealer=2)
    assert RULESET.next_dealer(state, HandResult(winners=(0,), by="self_draw")) == 3
    assert RULESET.next_dealer(state, HandResult()) == 2
    assert len(RULESET.wall_tiles()) == 136
    assert not RULESET.has_chi and not RULESET.win_on_discard and not RULESET.has_flowers


# ---------------------------------------------------------------------------
# Play hooks.


def _state(**changes: Any) -> Any:
    from games.engine.actions import new_hand
    from games.engine.state import evolve

    return evolve(new_hand("tianjin", 4, dealer=0), jokers=tuple(parse("6z5z")), **changes)


def test_restriction_no_pong_of_a_joker() -> None:
    from games.engine.actions import Action
    from games.engine.rulesets.tianjin import RULESET
    from games.engine.tiles import counts_of

    state = _state().with_player(1, concealed=counts_of(parse("666z1112223334m")))
    assert RULESET.restriction(state, 1, Action("pong", tile("6z"))) == "joker_claim"
    assert RULESET.restriction(state, 1, Action("pong", tile("1m"))) is None
    assert RULESET.restriction(state, 1, Action("kong", tile("6z"), kind="exposed")) == "joker_claim"
    assert RULESET.restriction(state, 1, Action("kong", tile("6z"), kind="concealed")) is None


def test_on_kong_pays_when_made() -> None:
    from games.engine.rulesets.tianjin import RULESET
    from games.engine.state import Meld

    gold = Meld("concealed_kong", tuple(parse("6666z")))
    state = RULESET.on_kong(_state().with_player(2, melds=(gold,)), 2, "concealed")
    assert state.kong_payments == ((-4, -4, 12, -4),)  # 金杠 4 from each (m = 1)
    plain = Meld("kong", tuple(parse("1111m")), 0, tile("1m"))
    state = RULESET.on_kong(_state().with_player(3, melds=(plain,)), 3, "exposed")
    assert state.kong_payments == ((-1, -1, -1, 3),)


def test_finish_adds_chan_even_in_a_drawn_hand() -> None:
    from games.engine.rulesets.tianjin import RULESET
    from games.engine.state import HandResult

    state = _state(first_discards=(tile("1z"),) * 4)
    result = RULESET.finish(state, HandResult())
    assert result.extras == (("chan", (-3, 1, 1, 1)),)
    plain = _state(first_discards=tuple(parse("1z1z2z1z")))
    assert RULESET.finish(plain, HandResult()).extras == ()


def test_bots_play_whole_hands() -> None:
    # end to end through the hand machine: every finished hand settles to zero,
    # every win is a self-draw and the next dealer follows §5.1
    from games.engine.simulate import play_hand

    for seed in range(12):
        state, _log, problems = play_hand("tianjin", seed, dealer=seed % 4)
        result = state.result
        assert not problems and result is not None
        assert sum(result.payments) == 0
        assert result.by in ("", "self_draw")
        stays = result.drawn or state.dealer in result.winners
        assert result.next_dealer == (state.dealer if stays else (state.dealer + 1) % 4)
