"""广东鸡平和 scoring (RULES §4), tested from the rule book.

Every expected number is worked out by hand in a comment: fan → value =
2^fan × base (§4.6) → payments. Seats: winner 1 and dealer 0 unless said,
so the winner's seat wind is South (2z); the prevailing wind is East (1z).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.__main__ import score_case
from games.engine.scoring.context import WinContext
from games.engine.state import Meld
from games.engine.tiles import EAST, SOUTH, WEST, parse
from tests.vectors import assert_matches, vector_cases


def case(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    """A CLI case: by default seat 1 wins on a discard from seat 0 (the dealer)."""
    data: dict[str, Any] = {
        "variant": "cantonese",
        "seat": 1,
        "dealer": 0,
        "concealed": concealed,
        "win_tile": win,
        "by": "discard",
        "from": 0,
        "round_wind": "1z",
    }
    data.update(kw)
    if data["by"] == "self_draw" and "from" not in kw:
        del data["from"]
    return data


def score(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_case(case(concealed, win, **kw))


def pong(tiles: str, frm: int) -> dict[str, Any]:
    return {"kind": "pong", "tiles": tiles, "from": frm}


def chi(tiles: str, frm: int) -> dict[str, Any]:
    return {"kind": "chi", "tiles": tiles, "from": frm}


# ---------------------------------------------------------------------------
# The public vectors.


@pytest.mark.parametrize("data", vector_cases("cantonese"), ids=lambda c: c["id"])
def test_vectors(data: dict[str, Any]) -> None:
    assert_matches(score_case(data), data["expect"])


# ---------------------------------------------------------------------------
# Shapes.


def test_not_a_winning_hand() -> None:
    out = score("123m456m789p234s6s", "9s")
    assert out == {
        "win": False,
        "reason": "not_a_winning_hand",
        "patterns": [],
        "value": 0,
        "payments": [0, 0, 0, 0],
    }


def test_seven_pairs_is_no_shape_here() -> None:
    # §4.4 names only the normal shape and 十三幺: seven pairs do not win
    out = score("1133557799m11z2z", "2z")
    assert out["win"] is False and out["reason"] == "not_a_winning_hand"


def test_thirteen_orphans() -> None:
    # 6 fan → 64, discarder 0 pays it
    out = score("19m19p19s1234567z", "1m")
    assert out["win"] and "thirteen_orphans" in out["patterns"]
    assert out["value"] == 64 and out["payments"] == [-64, 64, 0, 0]


# ---------------------------------------------------------------------------
# Within the cap (§4.3).


def test_chicken_is_named_when_nothing_else_applies() -> None:
    # chi 123m + pong 555p + 789s + 11s... mixed suits, a pung: chicken 0 fan → 1
    out = score("789s44m11s", "1s", melds=[chi("123m", 0), pong("555p", 2)])
    assert out["patterns"] == ["chicken"]
    assert out["value"] == 1 and out["payments"] == [-1, 1, 0, 0]


def test_all_chows_on_a_discard() -> None:
    # four runs, 1s completes 23s: all_chows 1 fan → 2
    out = score("123m456m789p23s55s", "1s")
    assert out["patterns"] == ["all_chows"]
    assert out["value"] == 2 and out["payments"] == [-2, 2, 0, 0]


def test_all_chows_counts_declared_chows() -> None:
    # chi 123m declared + 456m 789p 234s (4s wins) + 55s: still four runs → 1 fan → 2
    out = score("456m789p23s55s", "4s", melds=[chi("123m", 0)])
    assert "all_chows" in out["patterns"] and out["value"] == 2


def test_all_chows_also_won_on_the_pair() -> None:
    # seed 002 sets no wait condition: the same four runs won on the pair (单吊 5s) are 平和 (2)
    out = score("123m456m789p234s5s", "5s")
    assert out["patterns"] == ["all_chows"] and out["value"] == 2


def test_all_chows_needs_no_pung() -> None:
    # 111m is a pung: 111m 456m 789p 234s 55s → chicken
    out = score("111m456m789p23s55s", "4s")
    assert out["patterns"] == ["chicken"] and out["value"] == 1


def test_all_pungs() -> None:
    # 111m 222p 777p 333s + 99s, three suits: all_pungs 2 fan → 4
    out = score("111m222p777p333s9s", "9s")
    assert out["patterns"] == ["all_pungs"]
    assert out["value"] == 4 and out["payments"] == [-4, 4, 0, 0]


def test_all_pungs_counts_kongs() -> None:
    # kong 1111m + 222p 777p 333s + 99s → all_pungs 2 → 4
    out = score("222p777p333s9s", "9s", melds=[{"kind": "kong", "tiles": "1111m", "from": 2}])
    assert "all_pungs" in out["patterns"] and out["value"] == 4


def test_mixed_one_suit() -> None:
    # seat 2 (West): 123m 456m 789m 222z(South: no seat/prevailing wind) + 99m:
    # mixed_one_suit 2 → 4, discarder 0 pays
    out = score("123m456m789m222z9m", "9m", seat=2)
    assert out["patterns"] == ["mixed_one_suit"]
    assert out["value"] == 4 and out["payments"] == [-4, 0, 4, 0]


def test_mixed_one_suit_and_all_chows_add_up() -> None:
    # seat 2: 123m 456m 789m 234m(4m wins) + 11z pair: 2 + 1 = 3 fan → 8
    out = score("123m456m789m23m11z", "4m", seat=2)
    assert set(out["patterns"]) == {"mixed_one_suit", "all_chows"}
    assert out["value"] == 8 and out["payments"] == [-8, 0, 8, 0]


def test_cap_at_three_fan() -> None:
    # the same hand self-drawn: 2 + 1 + self_draw 1 = 4 → capped at 3 → 8 from each
    out = score("123m456m789m23m11z", "4m", seat=2, by="self_draw")
    assert "self_draw" in out["patterns"]
    assert out["value"] == 8 and out["payments"] == [-8, -8, 24, -8]


def test_self_draw_bonus() -> None:
    # chicken self-drawn: 0 + 1 = 1 fan → 2 from each of three
    out = score("789s44m11s", "1s", melds=[chi("123m", 0), pong("555p", 2)], by="self_draw")
    assert set(out["patterns"]) == {"chicken", "self_draw"}
    assert out["value"] == 2 and out["payments"] == [-2, 6, -2, -2]


def test_seat_wind_bonus() -> None:
    # seat 1 is South: pong 222z → seat_wind 1 (+ chicken 0) → 2
    out = score("123m456p789s5s", "5s", melds=[pong("222z", 3)])
    assert set(out["patterns"]) == {"chicken", "seat_wind"} and out["value"] == 2


def test_prevailing_wind_bonus() -> None:
    # round wind North, seat 1 South: concealed 444z → prevailing_wind 1 → 2
    out = score("123m456p789s444z5s", "5s", round_wind="4z")
    assert set(out["patterns"]) == {"chicken", "prevailing_wind"} and out["value"] == 2


def test_seat_and_prevailing_wind_both_count() -> None:
    # the dealer (East) in the East round wins with 111z: seat 1 + prevailing 1 = 2 → 4
    out = score("123m456p789s111z5s", "5s", seat=0, **{"from": 2})
    assert {"seat_wind", "prevailing_wind"} <= set(out["patterns"])
    assert out["value"] == 4 and out["payments"] == [4, 0, -4, 0]


def test_dragon_pung_each_counts() -> None:
    # pongs 555z and 666z, pair 99s (not a dragon): dragon_pung × 2 = 2 fan → 4
    out = score("123m456p9s", "9s", melds=[pong("555z", 2), pong("666z", 3)])
    assert "dragon_pung" in out["patterns"] and ["dragon_pung", 2] in out["breakdown"]
    assert out["value"] == 4


def test_wind_of_another_seat_is_no_bonus() -> None:
    # seat 1 (South), East round: a West pung gives nothing → chicken 1
    out = score("123m456p789s333z5s", "5s")
    assert out["patterns"] == ["chicken"] and out["value"] == 1


# ---------------------------------------------------------------------------
# Special hands (§4.4): the highest one, bonuses ignored.


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "pattern", "value"),
    [
        # 123m 456m 789m 234m 55m: 4 fan → 16
        ("123m456m789m23m55m", "4m", [], "pure_one_suit", 16),
        # 111m 333m 777m 555z + 99m: 4 fan → 16
        ("111m333m777m555z9m", "9m", [], "mixed_pungs", 16),
        # 111m 333m 555m 777m + 99m: 5 fan → 32
        ("111m333m555m777m9m", "9m", [], "pure_pungs", 32),
        # 111m 999p 333z 444z + 11s (no seat/prevailing wind for South in East): 5 fan → 32
        ("111m999p333z444z1s", "1s", [], "mixed_terminals", 32),
        # 555z 666z + 77z pair + 123m 456p: 5 fan → 32
        ("555z666z77z123m45p", "6p", [], "small_three_dragons", 32),
        # 111z 222z 333z + 44z pair + 123m: 5 fan → 32
        ("111z222z333z44z12m", "3m", [], "small_four_winds", 32),
        # 111z 333z 555z 777z + 22z: 6 fan → 64
        ("111z333z555z777z2z", "2z", [], "all_honours", 64),
        # 111m 999m 111p 999s + 11s: 6 fan → 64
        ("111m999m111p999s1s", "1s", [], "pure_terminals", 64),
        # 555z 666z 777z + 123m + 99p: 6 fan → 64
        ("555z666z777z123m9p", "9p", [], "big_three_dragons", 64),
        # 111z 222z 333z 444z + 55p: 6 fan → 64
        ("111z222z333z444z5p", "5p", [], "big_four_winds", 64),
        # 1112345678999m waiting on any 1m–9m: 6 fan → 64
        ("1112345678999m", "5m", [], "nine_gates", 64),
    ],
)
def test_special_hands(concealed: str, win: str, melds: list, pattern: str, value: int) -> None:
    out = score(concealed, win, melds=melds)
    assert out["win"] and pattern in out["patterns"]
    assert out["value"] == value and out["payments"] == [-value, value, 0, 0]


def test_special_hand_ignores_bonuses_and_the_cap() -> None:
    # pure_one_suit self-drawn: 4 fan (self_draw +1 ignored, no cap) → 16 from each
    out = score("123m456m789m23m55m", "4m", by="self_draw")
    assert out["value"] == 16 and out["payments"] == [-16, 48, -16, -16]
    assert ["self_draw", 0] in out["breakdown"] and ["pure_one_suit", 4] in out["breakdown"]


def test_special_hands_do_not_stack() -> None:
    # pure_pungs (5) is pure_one_suit (4) + all_pungs (2): the highest one alone → 32
    out = score("111m333m555m777m9m", "9m")
    assert {"pure_pungs", "pure_one_suit", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 32
    # big_four_winds + all_honours (both 6), + East/South bonuses: still 6 → 64
    out = score("111z222z333z444z5z", "5z")
    assert {"big_four_winds", "all_honours"} <= set(out["patterns"]) and out["value"] == 64


def test_mixed_pungs_is_not_mixed_one_suit_plus_all_pungs_within_the_cap() -> None:
    # mixed_one_suit 2 + all_pungs 2 would be 4 within the cap → 3; the special is 4 → 16
    out = score("111m333m777m555z9m", "9m")
    assert out["value"] == 16


def test_nine_gates_needs_the_thirteen_before_the_win() -> None:
    # Decision: 1122345678999m + 1m ends as 11122345678999m (the same 14 tiles as
    # nine gates won on 2m), but the 13 held were not 1112345678999: pure_one_suit 4 → 16
    out = score("1122345678999m", "1m")
    assert "nine_gates" not in out["patterns"] and out["value"] == 16


def test_mixed_terminals_needs_an_honour_and_a_terminal() -> None:
    # all terminals is pure_terminals (6) and not mixed_terminals
    out = score("111m999m111p999s1s", "1s")
    assert "mixed_terminals" not in out["patterns"]


def test_small_three_dragons_needs_the_dragon_pair() -> None:
    # two dragon pungs with a suited pair: dragon_pung × 2 within the cap → 2 fan → 4
    out = score("555z666z123m456p9s", "9s")
    assert "small_three_dragons" not in out["patterns"] and out["value"] == 4


# -- heavenly, earthly, human (Decision: 6) ------------------------------------


def test_heavenly() -> None:
    # dealer self-draws before any discard: 6 → 64 from each of three
    out = score("123m456p789s111z5s", "5s", seat=0, by="self_draw", first_turn=True)
    assert "heavenly" in out["patterns"]
    assert out["value"] == 64 and out["payments"] == [192, -64, -64, -64]


def test_earthly() -> None:
    # a non-dealer self-draws on the first draw: 6 → 64 from each of three
    out = score("123m456p789s333z5s", "5s", by="self_draw", first_turn=True)
    assert "earthly" in out["patterns"] and out["payments"] == [-64, 192, -64, -64]


def test_human() -> None:
    # a non-dealer wins on a discard before the first draw: 6 → discarder pays 64
    out = score("123m456p789s333z5s", "5s", first_turn=True)
    assert "human" in out["patterns"] and out["payments"] == [-64, 64, 0, 0]


def test_no_first_turn_hand_with_a_meld() -> None:
    # someone claimed (the winner's own pong): not earthly → chicken + self_draw = 1 → 2
    out = score("123m456p789s5s", "5s", melds=[pong("333z", 2)], by="self_draw", first_turn=True)
    assert "earthly" not in out["patterns"] and out["value"] == 2


def test_dealer_discard_win_is_not_human() -> None:
    # the dealer cannot win a 人和 (nor 天和 on a discard): a chicken (West pung, dealer East) → 1
    out = score("123m456p789s333z5s", "5s", seat=0, first_turn=True, **{"from": 3})
    assert "human" not in out["patterns"] and "heavenly" not in out["patterns"]
    assert out["value"] == 1


# ---------------------------------------------------------------------------
# The 3-fan minimum (§4.5).


def test_kong_bloom_raises_to_three() -> None:
    # chicken + self_draw = 1 fan (West kong: no bonus for South in the East round),
    # won on a concealed kong's replacement → 3 → 8 from each
    out = score(
        "123m456p789s5s",
        "5s",
        melds=[{"kind": "concealed_kong", "tiles": "3333z"}],
        by="self_draw",
        after_kong=True,
    )
    assert "kong_bloom" in out["patterns"]
    assert out["value"] == 8 and out["payments"] == [-8, 24, -8, -8]


def test_last_tile_raises_to_three() -> None:
    # chicken + self_draw with the wall's last tile → 3 → 8 from each
    out = score("123m456p789s333z5s", "5s", by="self_draw", last_tile=True)
    assert "last_tile" in out["patterns"] and out["payments"] == [-8, 24, -8, -8]


def test_last_tile_is_a_drawn_tile() -> None:
    # Decision: a discard win is no 海底捞月 → chicken 1
    out = score("123m456p789s333z5s", "5s", last_tile=True)
    assert "last_tile" not in out["patterns"] and out["value"] == 1


def test_robbing_kong_raises_to_three_and_the_konger_pays_all() -> None:
    # chicken robbing seat 3's added kong → 3 fan → 8; konger pays 3 × 8 = 24
    out = score("123m456p789s333z5s", "5s", by="robbing_kong", **{"from": 3})
    assert "robbing_kong" in out["patterns"]
    assert out["value"] == 8 and out["payments"] == [0, 24, 0, -24]


def test_triple_win_raises_to_three_and_the_discarder_pays_three_times() -> None:
    # one of three winners on seat 0's discard: chicken → 3 → 8; discarder pays 24
    out = score("123m456p789s333z5s", "5s", triple_win=True)
    assert "triple_win" in out["patterns"]
    assert out["value"] == 8 and out["payments"] == [-24, 24, 0, 0]


def test_raisers_leave_bigger_hands_alone() -> None:
    # pure_one_suit (4) won by robbing a kong: 4 → 16; konger pays 48
    out = score("123m456m789m23m55m", "4m", by="robbing_kong", **{"from": 2})
    assert out["value"] == 16 and out["payments"] == [0, 48, -48, 0]


def test_no_raiser_no_minimum() -> None:
    # RULES has no general minimum: a chicken on a discard wins 1
    assert score("123m456p789s333z5s", "5s")["value"] == 1


def test_base_stake_multiplies() -> None:
    # all_pungs 2 fan → 4 × base 10 = 40
    out = score("111m222p777p333s9s", "9s", base=10)
    assert out["value"] == 40 and out["payments"] == [-40, 40, 0, 0]


# ---------------------------------------------------------------------------
# Liability (§4.6).


def test_kong_bloom_after_an_exposed_kong_the_kong_discarder_pays_all() -> None:
    # 杠上开花包杠: seat 3 discarded the kong tile; chicken+self_draw → raised 3 → 8;
    # seat 3 pays 3 × 8 = 24, the others nothing
    out = score(
        "123m456p789s5s",
        "5s",
        melds=[{"kind": "kong", "tiles": "3333z", "from": 3}],
        by="self_draw",
        after_kong=True,
        kong_from=3,
    )
    assert out["value"] == 8 and out["payments"] == [0, 24, 0, -24]


def test_twelve_tiles_self_draw_the_fourth_feeder_pays_all() -> None:
    # four exposed melds, the 4th (pong 999p) claimed from seat 2; self-draw 8m:
    # chicken + self_draw = 1 fan → 2; seat 2 pays 3 × 2 = 6
    melds = [chi("123m", 0), pong("555p", 2), pong("777s", 3), pong("999p", 2)]
    out = score("8m", "8m", melds=melds, by="self_draw")
    assert out["value"] == 2 and out["payments"] == [0, 6, -6, 0]


def test_twelve_tiles_is_only_for_self_draw() -> None:
    # the same hand on seat 3's discard: chicken 1, seat 3 pays it
    melds = [chi("123m", 0), pong("555p", 2), pong("777s", 3), pong("999p", 2)]
    out = score("8m", "8m", melds=melds, **{"from": 3})
    assert out["payments"] == [0, 1, 0, -1]


def test_twelve_tiles_needs_four_exposed_melds() -> None:
    # a concealed kong among the four: nobody is liable → 2 from each
    melds = [chi("123m", 0), pong("555p", 2), {"kind": "concealed_kong", "tiles": "7777s"}, pong("999p", 2)]
    out = score("8m", "8m", melds=melds, by="self_draw")
    assert out["payments"] == [-2, 6, -2, -2]


def _ctx(**kw: Any) -> WinContext:
    melds = (
        Meld("chi", tuple(parse("123m")), 0),
        Meld("pong", tuple(parse("555p")), 2),
        Meld("pong", tuple(parse("777s")), 3),
        Meld("pong", tuple(parse("999p")), 2),
    )
    base = dict(
        variant="cantonese",
        concealed=tuple(parse("8m")),
        win_tile=parse("8m")[0],
        seat=1,
        dealer=0,
        melds=melds,
        by="self_draw",
    )
    base.update(kw)
    return WinContext(**base)


def test_live_liability_overrides_the_melds() -> None:
    from games.engine.rulesets.cantonese import RULESET

    # the history says seat 3 is liable (e.g. it fed the 4th meld first in live play)
    out = RULESET.score(_ctx(liability=("twelve_tiles", 3)))
    assert out.payments == (0, 6, 0, -6)
    # 包先不包后: seat 2 already pays for someone else → nobody is liable → 2 each
    out = RULESET.score(_ctx(liability=("none", 2)))
    assert out.payments == (-2, 6, -2, -2)


def test_big_three_dragons_feeder_pays_a_self_draw() -> None:
    # winner showed 555z (from 2) and 666z (from 3); seat 0 discarded the 7z claimed:
    # big_three_dragons 6 → 64; seat 0 pays 3 × 64 = 192
    melds = [pong("555z", 2), pong("666z", 3), pong("777z", 0)]
    out = score("123m5p", "5p", melds=melds, by="self_draw")
    assert out["payments"] == [-192, 192, 0, 0]


def test_big_three_dragons_feeder_before_twelve_tiles() -> None:
    # Decision: the dragon feeder (seat 0) pays, not the 4th meld's feeder (seat 3)
    melds = [pong("555z", 2), pong("666z", 3), pong("777z", 0), pong("999p", 3)]
    out = score("5p", "5p", melds=melds, by="self_draw")
    assert out["payments"] == [-192, 192, 0, 0]


def test_big_four_winds_feeder_pays_a_self_draw() -> None:
    # 111z 222z 333z shown, 444z claimed from seat 0 (also the 4th meld): 6 → 64 × 3
    melds = [pong("111z", 2), pong("222z", 3), pong("333z", 2), pong("444z", 0)]
    out = score("5p", "5p", melds=melds, by="self_draw")
    assert out["payments"] == [-192, 192, 0, 0]


def test_no_feeder_when_the_last_dragon_is_concealed() -> None:
    # the 3rd dragon pung drawn, not claimed: 64 from each
    melds = [pong("555z", 2), pong("666z", 3)]
    out = score("777z123m5p", "5p", melds=melds, by="self_draw")
    assert out["payments"] == [-64, 192, -64, -64]


def test_concealed_kong_is_not_shown() -> None:
    # Decision: a concealed dragon kong does not count as "shown" (已碰出)
    melds = [{"kind": "concealed_kong", "tiles": "5555z"}, pong("666z", 3), pong("777z", 0)]
    out = score("123m5p", "5p", melds=melds, by="self_draw")
    assert out["payments"] == [-64, 192, -64, -64]


def test_big_three_dragons_feeder_not_liable_for_a_discard_win() -> None:
    melds = [pong("555z", 2), pong("666z", 3), pong("777z", 0)]
    out = score("123m5p", "5p", melds=melds, **{"from": 3})
    assert out["payments"] == [0, 64, 0, -64]


# ---------------------------------------------------------------------------
# Play helpers.


def test_next_dealer() -> None:
    from games.engine.scoring.cantonese import next_dealer

    assert next_dealer(0, ()) == 0  # drawn hand: stays
    assert next_dealer(2, (2,)) == 2  # dealer wins: stays
    assert next_dealer(2, (1, 2)) == 2  # one of several winners: stays
    assert next_dealer(3, (1,)) == 0  # else the next seat


def test_ruleset_next_dealer_and_data() -> None:
    from games.engine.actions import new_hand
    from games.engine.rulesets.cantonese import RULESET
    from games.engine.state import HandResult

    state = new_hand("cantonese", 7, dealer=1)
    assert RULESET.next_dealer(state, HandResult()) == 1
    assert RULESET.next_dealer(state, HandResult(winners=(0, 1), by="discard")) == 1
    assert RULESET.next_dealer(state, HandResult(winners=(3,), by="self_draw")) == 2
    assert len(RULESET.wall_tiles()) == 136 and not RULESET.has_flowers
    assert RULESET.has_chi and RULESET.win_on_discard and RULESET.multiple_winners
    assert RULESET.default_options == {"rounds": 4}  # four wind rounds; 1 is a house option
    assert RULESET.name_zh == "广东鸡平和"


def test_match_progress() -> None:
    from games.engine.scoring.cantonese import MatchProgress

    m = MatchProgress()
    assert m.round_wind == EAST and not m.over(1)
    m = m.after_hand(dealer=0, next_dealer=0)  # dealer stayed
    assert m.passes == 0
    for d in range(3):
        m = m.after_hand(dealer=d, next_dealer=d + 1)
    assert m.round_wind == EAST and not m.over(1)
    m = m.after_hand(dealer=3, next_dealer=0)  # the deal has passed all four seats
    assert m.round_wind == SOUTH and m.over(1) and not m.over(4)
    assert MatchProgress(passes=8).round_wind == WEST
    assert MatchProgress(passes=16).over(4)


def test_missed_win_lock() -> None:
    from games.engine.scoring.cantonese import missed_win_blocks
    from games.engine.state import PlayerState

    five = parse("5s")[0]
    locked = PlayerState(concealed=bytes(34), win_lock=True, passed_win_tiles=frozenset({five}))
    assert missed_win_blocks(locked, five, "discard")
    assert not missed_win_blocks(locked, parse("2s")[0], "discard")  # another tile
    assert not missed_win_blocks(locked, five, "self_draw")
    assert not missed_win_blocks(locked, five, "robbing_kong")  # Decision
    assert not missed_win_blocks(PlayerState(concealed=bytes(34)), five, "discard")


def test_ruleset_win_check_applies_the_missed_win_lock() -> None:
    from games.engine.actions import new_hand
    from games.engine.rulesets.cantonese import RULESET

    five = parse("5s")[0]
    state = new_hand("cantonese", 3).with_player(1, win_lock=True, passed_win_tiles=frozenset({five}))
    ctx = WinContext.from_json(case("123m456p789s333z5s", "5s"))
    assert RULESET.win_check(state, 1, ctx).reason == "missed_win"
    free = new_hand("cantonese", 3)
    assert RULESET.win_check(free, 1, ctx).win


def test_liability_after_claim() -> None:
    from games.engine.scoring.cantonese import liability_after_claim

    def m(kind: str, tiles: str, frm: int) -> Meld:
        return Meld(kind, tuple(parse(tiles)), frm)

    three = [m("chi", "123m", 0), m("pong", "555p", 2), m("pong", "777s", 3)]
    assert liability_after_claim(three, 1, 3, ()) is None
    four = [*three, m("pong", "999p", 2)]
    assert liability_after_claim(four, 1, 2, ()) == ("twelve_tiles", 2, 1)
    # 包先不包后: seat 2 already liable for seat 3 → recorded as no liability
    assert liability_after_claim(four, 1, 2, [("twelve_tiles", 2, 3)]) == ("none", 2, 1)
    dragons = [m("pong", "555z", 2), m("pong", "666z", 3), m("pong", "777z", 0)]
    assert liability_after_claim(dragons, 1, 0, ()) == ("big_three_dragons", 0, 1)
    winds = [m("pong", "111z", 2), m("pong", "222z", 3), m("pong", "333z", 2), m("pong", "444z", 0)]
    assert liability_after_claim(winds, 1, 0, ()) == ("big_four_winds", 0, 1)


def test_ruleset_on_claim_records_the_liability() -> None:
    from games.engine.actions import new_hand
    from games.engine.rulesets.cantonese import RULESET

    melds = (
        Meld("pong", tuple(parse("555z")), 2),
        Meld("pong", tuple(parse("666z")), 3),
        Meld("pong", tuple(parse("777z")), 0),
    )
    state = new_hand("cantonese", 5).with_player(1, melds=melds)
    state = RULESET.on_claim(state, 1, melds[-1])
    assert state.liabilities == (("big_three_dragons", 0, 1),)


def test_ruleset_thirteen_orphans_is_a_winning_shape() -> None:
    from games.engine.actions import new_hand
    from games.engine.rulesets.cantonese import RULESET
    from games.engine.tiles import counts_of

    orphans = counts_of(parse("19m19p19s12345677z"))
    state = new_hand("cantonese", 2)
    assert RULESET.is_winning_shape(state, 1, orphans)
    assert RULESET.is_winning_shape(state, 1, counts_of(parse("123m456m789p234s55s")))
    assert not RULESET.is_winning_shape(state, 1, counts_of(parse("1133557799m11z22z")))  # 七对


def test_bots_play_whole_hands() -> None:
    # end to end through the hand machine: every finished hand settles to zero
    # and the next dealer follows §4.1
    from games.engine.simulate import play_hand

    for seed in range(12):
        state, _log, problems = play_hand("cantonese", seed, dealer=seed % 4)
        result = state.result
        assert not problems and result is not None
        assert sum(result.payments) == 0
        stays = result.drawn or state.dealer in result.winners
        assert result.next_dealer == (state.dealer if stays else (state.dealer + 1) % 4)
