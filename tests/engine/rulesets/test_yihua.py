"""一花起胡 scoring and helpers, tested from RULES §3 (expected numbers worked by hand).

Unless a test says otherwise: base stake b = 10 (so one flower is worth 5 and
the cap is 10 × b = 100), seat 1 wins, dealer 0. A "chicken" hand below is
123m 456m 789p 234s + 55s: three suits, no honours, no pungs: 0 flowers, 0 fan.
Score = (b + flowers × b/2) × 2^fan, capped at 100.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.__main__ import score_case
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.scoring import yihua as yh
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState, Meld
from games.engine.tiles import parse, tile
from tests.moves import bare_state
from tests.vectors import assert_matches, vector_cases

CHICKEN = {"concealed": "123m456m789p234s5s", "win_tile": "5s"}
ALL_FLOWERS = "1f2f3f4f5f6f7f8f"
FROM_3 = {"by": "discard", "from": 3}


def case(**kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": "yihua", "seat": 1, "dealer": 0, "by": "self_draw", "base": 10}
    data.update(kw)
    return data


def score(**kw: Any) -> dict[str, Any]:
    return score_case(case(**kw))


def meld(kind: str, tiles: str, frm: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "tiles": tiles}
    if frm is not None:
        out["from"] = frm
    return out


# ---------------------------------------------------------------------------
# Public vectors


@pytest.mark.parametrize("vector", vector_cases("yihua"), ids=lambda c: c["id"])
def test_public_vectors(vector: dict[str, Any]) -> None:
    assert_matches(score_case(vector), vector["expect"])


# ---------------------------------------------------------------------------
# Winning shapes (§3.4)


def test_not_a_winning_hand() -> None:
    out = score(concealed="123m456m789p234s5s", win_tile="6s")
    assert (out["win"], out["reason"], out["payments"]) == (False, "not_a_winning_hand", [0, 0, 0, 0])


def test_no_thirteen_orphans() -> None:
    assert score(concealed="19m19p19s1234567z", win_tile="1m")["win"] is False


def test_seven_pairs() -> None:
    # 11 22m 33 44p 55 66s 77z: seven pairs 2 fan, 0 flowers → 10 × 4 = 40, each other pays 40
    out = score(concealed="1122m3344p5566s7z", win_tile="7z")
    assert out["patterns"] == ["seven_pairs"]
    assert out["value"] == 40
    assert out["payments"] == [-40, 120, -40, -40]


def test_seven_pairs_may_repeat_a_pair() -> None:
    # 1111m counts as two pairs → still seven pairs, 40
    out = score(concealed="1111m3344p5566s7z", win_tile="7z")
    assert "seven_pairs" in out["patterns"]
    assert out["value"] == 40


def test_seven_pairs_must_be_fully_concealed() -> None:
    # a pong declared + 33 44p 55 66s 777z is neither seven pairs nor a normal shape
    out = score(concealed="3344p5566s77z", win_tile="7z", melds=[meld("pong", "111m", 2)])
    assert out["win"] is False


def test_best_reading_prefers_seven_pairs() -> None:
    # 112233 445566m + 77z: as runs 123 123 456 456m → mixed_one_suit 1 fan = 20;
    # as seven pairs → seven_pairs 2 + mixed_one_suit 1 = 3 fan = 80. Keep 80.
    out = score(concealed="112233445566m7z", win_tile="7z")
    assert {"seven_pairs", "mixed_one_suit"} <= set(out["patterns"])
    assert out["value"] == 80
    ctx = WinContext.from_json(case(concealed="112233445566m7z", win_tile="7z"))
    assert sorted(yh.value_of(r).value for r in yh.readings(ctx)) == [20, 80]


# ---------------------------------------------------------------------------
# Flowers (§3.5)


def test_flower_tiles() -> None:
    # 2 flowers: 10 + 2 × 5 = 20 from the discarder
    out = score(**CHICKEN, flowers="3f7f", **FROM_3)
    assert out["value"] == 20
    assert out["payments"] == [0, 20, 0, -20]


def test_honour_exposed_pung() -> None:
    # pong 111z: 1 flower → 15 (and it lets the hand win on a discard)
    out = score(concealed="123m456p789s5s", win_tile="5s", melds=[meld("pong", "111z", 2)], **FROM_3)
    assert out["value"] == 15


def test_honour_concealed_pung() -> None:
    # concealed 111z: 2 flowers → 20
    assert score(concealed="111z123m456p789s5s", win_tile="5s")["value"] == 20


def test_pung_completed_by_the_winning_discard_is_exposed() -> None:
    # Decision: 11z + discarded 1z → exposed pung, 1 flower → 15; the same tile self-drawn → concealed, 20
    hand = {"concealed": "11z123m456p789s55s", "win_tile": "1z"}
    assert score(**hand, **FROM_3)["value"] == 15
    assert score(**hand)["value"] == 20


def test_honour_kongs() -> None:
    rest = {"concealed": "123m456p789s5s", "win_tile": "5s"}
    # exposed 3 → 10 + 15 = 25; added 3 → 25; concealed 4 → 10 + 20 = 30
    assert score(**rest, melds=[meld("kong", "2222z", 0)])["value"] == 25
    assert score(**rest, melds=[meld("added_kong", "6666z", 0)])["value"] == 25
    assert score(**rest, melds=[meld("concealed_kong", "7777z")])["value"] == 30


def test_suited_kongs_and_pungs() -> None:
    rest = {"concealed": "123m456p789s5s", "win_tile": "5s", **FROM_3}
    # suited exposed kong 1 → 15; concealed 2 → 20
    assert score(**rest, melds=[meld("kong", "9999m", 0)])["value"] == 15
    assert score(**rest, melds=[meld("concealed_kong", "9999m")])["value"] == 20
    # a suited pung is worth nothing: no flower, no fan → refused on a discard
    assert score(**rest, melds=[meld("pong", "999m", 0)])["reason"] == "one_flower_minimum"


# ---------------------------------------------------------------------------
# Fan (§3.6)


def test_chicken() -> None:
    out = score(**CHICKEN)
    assert out["patterns"] == ["chicken"]
    assert out["value"] == 10


def test_mixed_one_suit_alone_lets_a_discard_win() -> None:
    # 123 456 789 234m + 77z, no flower: 1 fan → 20 from the discarder
    out = score(concealed="123m456m789m234m7z", win_tile="7z", **FROM_3)
    assert out["win"] is True
    assert out["patterns"] == ["mixed_one_suit"]
    assert out["value"] == 20
    assert out["payments"] == [0, 20, 0, -20]


def test_all_pungs() -> None:
    # 111m 222p 333s 999m + 55p: suited pungs, 0 flowers, 1 fan → 20
    out = score(concealed="111m222p333s999m5p", win_tile="5p", **FROM_3)
    assert out["patterns"] == ["all_pungs"]
    assert out["value"] == 20


def test_mixed_one_suit_and_all_pungs_add_up() -> None:
    # 111 333 555 777m + 11z pair: 1 + 1 = 2 fan, 0 flowers → 40
    out = score(concealed="111333555777m1z", win_tile="1z", **FROM_3)
    assert {"mixed_one_suit", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 40


def test_pure_one_suit() -> None:
    # 2 fan → 40
    out = score(concealed="123m456m789m234m5m", win_tile="5m", **FROM_3)
    assert out["patterns"] == ["pure_one_suit"]
    assert out["value"] == 40


def test_kong_bloom_after_a_kong() -> None:
    # suited concealed kong 2 flowers, kong bloom 1 fan: (10 + 10) × 2 = 40, each other pays
    melds = [meld("concealed_kong", "9999s")]
    out = score(concealed="123m456p789p5z", win_tile="5z", melds=melds, after_kong=True)
    assert "kong_bloom" in out["patterns"]
    assert out["value"] == 40
    assert out["payments"] == [-40, 120, -40, -40]


def test_kong_bloom_after_a_flower() -> None:
    # 1 flower, 1 fan: (10 + 5) × 2 = 30
    out = score(**CHICKEN, flowers="1f", after_flower=True)
    assert out["patterns"] == ["kong_bloom"]
    assert out["value"] == 30


def test_no_kong_bloom_on_a_discard() -> None:
    out = score(**CHICKEN, flowers="1f", after_kong=True, **FROM_3)
    assert out["patterns"] == ["chicken"]
    assert out["value"] == 15


SINGLE_WAIT_MELDS = [
    meld("chi", "123m", 0),
    meld("chi", "456p", 0),
    meld("pong", "999s", 2),
    meld("pong", "888m", 1),
]


def test_single_wait() -> None:
    # four melds declared, the single 5p paired by the discard: 1 fan, 0 flowers → 20
    out = score(concealed="5p", win_tile="5p", melds=SINGLE_WAIT_MELDS, **FROM_3)
    assert out["patterns"] == ["single_wait"]
    assert out["value"] == 20


def test_single_wait_and_all_pungs() -> None:
    # four pongs (suited) + single wait on 5p: 2 fan → 40
    melds = [meld("pong", "111m", 0), meld("pong", "222p", 0), meld("pong", "999s", 2)]
    melds.append(meld("pong", "888m", 1))
    out = score(concealed="5p", win_tile="5p", melds=melds, **FROM_3)
    assert {"single_wait", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 40


def test_three_melds_are_no_single_wait() -> None:
    out = score(concealed="111z5p", win_tile="5p", melds=SINGLE_WAIT_MELDS[:3])
    assert "single_wait" not in out["patterns"]


def test_fans_add_up() -> None:
    # mixed_one_suit + all_pungs + kong_bloom = 3 fan, 0 flowers, b = 2: 2 × 8 = 16 (cap 20)
    out = score(concealed="111333555777m1z", win_tile="1z", base=2, after_kong=True)
    assert out["value"] == 16


# ---------------------------------------------------------------------------
# Score and cap (§3.7)


def test_cap_is_ten_times_the_base() -> None:
    # 1122334455667m + 7m: seven pairs 2 + pure one suit 2 = 4 fan → 10 × 16 = 160 → cap 100
    out = score(concealed="1122334455667m", win_tile="7m")
    assert {"seven_pairs", "pure_one_suit"} <= set(out["patterns"])
    assert out["value"] == 100
    assert out["payments"] == [-100, 300, -100, -100]


def test_cap_with_flowers() -> None:
    # 4 flowers, 2 fan: (10 + 20) × 4 = 120 → 100; 3 flowers, 2 fan: (10 + 15) × 4 = 100 exactly
    hand = {"concealed": "123m456m789m234m5m", "win_tile": "5m"}
    assert score(**hand, flowers="1f2f3f4f")["value"] == 100
    assert score(**hand, flowers="1f2f3f")["value"] == 100
    assert score(**hand, flowers="1f2f")["value"] == 80  # (10 + 10) × 4


def test_base_scales_the_score() -> None:
    # b = 2: one flower worth 1 → 3
    assert score(**CHICKEN, flowers="1f", base=2, **FROM_3)["payments"] == [0, 3, 0, -3]


def test_odd_base_is_bad_input() -> None:
    with pytest.raises(EngineError) as err:
        score(**CHICKEN, base=3)
    assert err.value.code == "bad_input"


def test_eight_flowers_pays_the_cap_from_each() -> None:
    # Decision: a hand holding all eight flowers is settled as eight flowers: 100 from each other
    out = score(**CHICKEN, flowers=ALL_FLOWERS, **FROM_3)
    assert out["patterns"] == ["eight_flowers"]
    assert out["value"] == 100
    assert out["payments"] == [-100, 300, -100, -100]


def test_eight_flowers_payments_helper() -> None:
    assert yh.eight_flowers_payments(2, 10) == (-100, -100, 300, -100)
    assert yh.eight_flowers_payments(0, 4) == (120, -40, -40, -40)


# ---------------------------------------------------------------------------
# The one-flower minimum (§3.4) and payments (§3.8)


def test_discard_needs_a_flower_or_a_fan() -> None:
    out = score(**CHICKEN, **FROM_3)
    assert (out["win"], out["reason"], out["payments"]) == (False, "one_flower_minimum", [0, 0, 0, 0])


def test_self_draw_needs_nothing() -> None:
    assert score(**CHICKEN)["payments"] == [-10, 30, -10, -10]


def test_robbing_a_kong_needs_nothing_and_the_konger_pays_three_times() -> None:
    # chicken 10, robbed from seat 2: 3 × 10 from the konger alone
    out = score(**CHICKEN, by="robbing_kong", **{"from": 2})
    assert out["win"] is True
    assert out["payments"] == [0, 30, -30, 0]


def test_robbing_a_kong_has_no_extra_fan() -> None:
    # 1 flower: 15, the konger pays 45 (a robbed kong tile is no replacement: no kong bloom)
    out = score(**CHICKEN, flowers="1f", by="robbing_kong", after_kong=True, **{"from": 0})
    assert out["patterns"] == ["chicken"]
    assert out["payments"] == [-45, 45, 0, 0]


def test_discard_only_the_discarder_pays() -> None:
    out = score(concealed="123m456m789m234m5m", win_tile="5m", seat=3, by="discard", **{"from": 1})
    assert out["payments"] == [0, -40, 0, 40]


# ---------------------------------------------------------------------------
# Restriction helpers (§3.3)


def test_own_discard_lock() -> None:
    t = tile("5p")
    assert yh.own_discard_blocks(frozenset({t}), t, scores_single_wait=False)
    assert not yh.own_discard_blocks(frozenset({t}), t, scores_single_wait=True)  # the 独吊 exception
    assert not yh.own_discard_blocks(frozenset({tile("6p")}), t, scores_single_wait=False)


def test_single_wait_possible() -> None:
    melds = [Meld("pong", tuple(parse("111m")))] * 4
    assert yh.single_wait_possible(melds, [tile("5p")], tile("5p"))
    assert not yh.single_wait_possible(melds, [tile("5p")], tile("6p"))
    assert not yh.single_wait_possible(melds[:3], parse("5p111z"), tile("5p"))


def _won(flowers: int, fan: int, base: int = 2) -> ScoreResult:
    """A scored yihua win with this many flowers and 番 (one pattern carries them all)."""
    breakdown = (("mixed_one_suit", fan) if fan else ("chicken", 0), ("flowers", flowers))
    return ScoreResult(win=True, value=yh.raw_score(base, flowers, fan), breakdown=breakdown)


@pytest.mark.parametrize(
    ("flowers", "fan", "passed_fan", "opens"),
    [
        (1, 1, 0, True),  # 加番: 3 → 6
        (2, 0, 0, False),  # more flowers alone (the 1z after a passed 5s: 4 > 3, still locked)
        (7, 0, 0, False),  # however many
        (1, 1, 1, False),  # as many 番 as the passed win: no 加番
        (1, 0, 1, False),  # fewer
        (0, 2, 1, True),  # 2 × 4 = 8 against 2 × 2 = 4
        (3, 3, 2, False),  # 5 × 8 = 40 → 20, and 5 × 4 = 20 without the extra 番: the cap either way
        (2, 3, 2, True),  # 4 × 8 = 32 → 20 against 4 × 4 = 16 without it: the 番 raise the score
        (0, 4, 2, True),  # 2 × 16 = 32 → 20 against 2 × 4 = 8
    ],
)
def test_missed_win_lock_opens_only_for_more_fan_that_change_the_score(
    flowers: int, fan: int, passed_fan: int, opens: bool
) -> None:
    assert yh.adds_fan(_won(flowers, fan), passed_fan, base=2) is opens


def test_fan_and_flowers_of_a_scored_win() -> None:
    out = yh.score(WinContext.from_json(case(concealed="111z456p789p23s55s", win_tile="4s", flowers="1f2f")))
    assert (yh.fan_of(out), yh.flowers_in(out)) == (0, 4)  # 2 flower tiles + a concealed 111z
    assert get_ruleset("yihua").fan_of(out) == 0
    out = yh.score(WinContext.from_json(case(concealed="123456789p23p11z", win_tile="4p", flowers="1f")))
    assert (yh.fan_of(out), yh.flowers_in(out)) == (1, 1)  # 混一色


@pytest.mark.parametrize(
    ("held", "claimed", "forbidden"),
    [
        ("23m", "1m", "14m"),  # seed: holding 2 3 (4), chi 1 → not 1, not 4
        ("23m", "4m", "14m"),  # chi 4 → not 4, not 1
        ("13m", "2m", "2m"),  # seed: holding 1 3 5, chi 2 then discarding 5 is fine
        ("56m", "4m", "47m"),
    ],
)
def test_pointless_chi(held: str, claimed: str, forbidden: str) -> None:
    a, b = parse(held)
    assert yh.chi_discard_forbidden((a, b), tile(claimed), concealed_before=7) == frozenset(parse(forbidden))


def test_pointless_chi_allowed_with_four_concealed_tiles() -> None:
    a, b = parse("56m")
    assert yh.chi_discard_forbidden((a, b), tile("4m"), concealed_before=4) == frozenset()
    assert yh.chi_discard_forbidden((a, b), tile("4m"), concealed_before=1) == frozenset(parse("47m"))


def test_false_win_penalty() -> None:
    # 2 × 10 = 20 from the offender; 20 // 3 = 6 to each other player, 2 dropped
    assert yh.false_win_payments(1, 10) == (6, -20, 6, 6)
    # 2 × 6 = 12: 4 each, nothing dropped
    assert yh.false_win_payments(2, 6) == (4, 4, -12, 4)


# ---------------------------------------------------------------------------
# The Ruleset: data and flow hooks


def _state(**kw: Any) -> HandState:
    return bare_state(**{"variant": "yihua", "base": 10, **kw})


def test_ruleset_data() -> None:
    rs = get_ruleset("yihua")
    assert (rs.id, rs.name_zh, rs.players) == ("yihua", "一花起胡", 4)
    assert rs.has_flowers and rs.has_chi and rs.win_on_discard and rs.multiple_winners
    assert rs.kong_after_claim  # delayed kong after a chi or pong (§3.2)
    assert len(rs.wall_tiles()) == 144


def test_next_dealer() -> None:
    rs = get_ruleset("yihua")
    state = _state(dealer=3)
    assert rs.next_dealer(state, HandResult(winners=(3,), by="self_draw")) == 3  # dealer wins: stays
    assert rs.next_dealer(state, HandResult()) == 3  # drawn: stays
    assert rs.next_dealer(state, HandResult(winners=(1,), by="discard", from_seat=3)) == 0  # next seat
    assert rs.next_dealer(state, HandResult(winners=(1, 3), by="discard", from_seat=2)) == 3
    assert rs.next_dealer(state, HandResult(winners=(0, 1), by="discard", from_seat=2)) == 0


def test_false_win_hook_records_the_penalty() -> None:
    rs = get_ruleset("yihua")
    after = rs.on_false_win(_state(), 2)
    assert after is not None
    assert after.penalties == (("false_win", 2, (6, 6, -20, 6)),)
