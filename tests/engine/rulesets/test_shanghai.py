"""上海麻将 scoring and helpers, tested from RULES §2 (expected numbers worked by hand).

Unless a test says otherwise: base stake 1, no flowers, seat 1 wins, dealer 0.
A "chicken" hand below is 123m 456m 789p 234s + 55s: three suits, no honours,
no pungs, so it is worth exactly the 3 base flowers (§2.6).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.engine.__main__ import score_case
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.scoring import shanghai as sh
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState, Meld
from games.engine.tiles import parse, tile
from tests.moves import bare_state
from tests.vectors import assert_matches, vector_cases

ROOT = Path(__file__).resolve().parents[3]
CHICKEN = {"concealed": "123m456m789p234s5s", "win_tile": "5s"}
ALL_FLOWERS = "1f2f3f4f5f6f7f8f"


def case(**kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": "shanghai", "seat": 1, "dealer": 0, "by": "self_draw"}
    data.update(kw)
    return data


def score(**kw: Any) -> dict[str, Any]:
    return score_case(case(**kw))


def ctx_of(**kw: Any) -> WinContext:
    return WinContext.from_json(case(**kw))


def meld(kind: str, tiles: str, frm: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "tiles": tiles}
    if frm is not None:
        out["from"] = frm
    return out


def M(kind: str, tiles: str) -> Meld:
    return Meld(kind, tuple(parse(tiles)))


# ---------------------------------------------------------------------------
# Public vectors


@pytest.mark.parametrize("vector", vector_cases("shanghai"), ids=lambda c: c["id"])
def test_public_vectors(vector: dict[str, Any]) -> None:
    assert_matches(score_case(vector), vector["expect"])


def test_cli_prints_the_result() -> None:
    data = case(**CHICKEN, by="discard", **{"from": 3})
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    out = json.loads(proc.stdout)
    # chicken: 3 base flowers; the discarder pays 1 unit
    assert out == {**out, "win": True, "value": 3, "payments": [0, 3, 0, -3]}


# ---------------------------------------------------------------------------
# Winning shapes (§2.4)


def test_not_a_winning_hand() -> None:
    out = score(concealed="123m456m789p234s5s", win_tile="6s")  # 23456s is no melds + pair
    assert out["win"] is False
    assert out["reason"] == "not_a_winning_hand"
    assert out["payments"] == [0, 0, 0, 0]


def test_no_seven_pairs() -> None:
    assert score(concealed="1122m3344p5566s7z", win_tile="7z")["win"] is False


def test_no_thirteen_orphans() -> None:
    assert score(concealed="19m19p19s1234567z", win_tile="1m")["win"] is False


def test_eight_flowers_win_with_any_tiles() -> None:
    # 14 tiles that form nothing, all 8 flowers: class 1, 300 flowers; self-draw → each pays 300
    out = score(concealed="13579m2468p1357s", win_tile="9s", flowers=ALL_FLOWERS)
    assert out["win"] is True
    assert "eight_flowers" in out["patterns"]
    assert out["value"] == 300
    assert out["payments"] == [-300, 900, -300, -300]


def test_seven_flowers_and_no_shape_is_no_win() -> None:
    out = score(concealed="13579m2468p1357s", win_tile="9s", flowers="1f2f3f4f5f6f7f")
    assert out["win"] is False


def test_honours_any_shape() -> None:
    # 1234567z 123456z + 7z: only honours, no normal shape → honours_any, class 2, 100 flowers
    out = score(concealed="1234567z123456z", win_tile="7z", by="discard", **{"from": 3})
    assert out["win"] is True
    assert "honours_any" in out["patterns"]
    assert "all_honour_pungs" not in out["patterns"]
    assert out["value"] == 100
    assert out["payments"] == [0, 100, 0, -100]


def test_honours_any_counts_declared_melds() -> None:
    # pong 111z + 22 33 44 55 66z + 7z: every tile an honour, no normal shape → 100
    out = score(concealed="2233445566z", win_tile="7z", melds=[meld("pong", "111z", 2)])
    assert out["win"] is True
    assert out["patterns"] == ["honours_any"]
    assert out["value"] == 100


def test_one_suited_tile_spoils_honours_any() -> None:
    assert score(concealed="1234567z123456z", win_tile="1m")["win"] is False


# ---------------------------------------------------------------------------
# Class 1 (§2.6): highest one only, nothing else counts


def test_heavenly() -> None:
    # dealer (seat 0) wins before any discard: 500; self-draw → each other pays 500
    out = score(**CHICKEN, seat=0, first_turn=True)
    assert "heavenly" in out["patterns"]
    assert "earthly" not in out["patterns"]
    assert out["value"] == 500
    assert out["payments"] == [1500, -500, -500, -500]


def test_earthly_on_a_discard() -> None:
    # non-dealer seat 2 before its first discard, on seat 1's discard: 400 from the discarder
    out = score(**CHICKEN, seat=2, first_turn=True, by="discard", **{"from": 1})
    assert "earthly" in out["patterns"]
    assert "heavenly" not in out["patterns"]
    assert out["value"] == 400
    assert out["payments"] == [0, -400, 400, 0]


def test_earthly_by_self_draw() -> None:
    out = score(**CHICKEN, seat=1, first_turn=True)
    assert out["value"] == 400
    assert out["payments"] == [-400, 1200, -400, -400]


def test_not_first_turn_is_neither() -> None:
    out = score(**CHICKEN, seat=0)
    assert not {"heavenly", "earthly"} & set(out["patterns"])
    assert out["value"] == 3


def test_class_1_highest_only() -> None:
    # heavenly 500 and eight flowers 300 → 500, not 800; the pure one suit (class 2) is ignored
    out = score(concealed="123m456m789m234m5m", win_tile="5m", seat=0, first_turn=True, flowers=ALL_FLOWERS)
    assert {"heavenly", "eight_flowers", "pure_one_suit"} <= set(out["patterns"])
    assert out["value"] == 500
    assert ["heavenly", 500] in out["breakdown"]
    assert ["eight_flowers", 0] in out["breakdown"]


def test_earthly_beats_eight_flowers() -> None:
    out = score(concealed="13579m2468p1357s", win_tile="9s", flowers=ALL_FLOWERS, first_turn=True)
    assert out["value"] == 400


# ---------------------------------------------------------------------------
# Class 2 (§2.6): highest one only


def test_all_honour_pungs() -> None:
    # 111z 222z 333z 777z + 55z: all honours, normal shape → 200 (beats honours_any 100)
    out = score(concealed="1112223335577z", win_tile="7z", seat=0, dealer=1)
    assert {"all_honour_pungs", "honours_any", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 200
    assert out["payments"] == [600, -200, -200, -200]


def test_pure_pungs_is_the_best_reading() -> None:
    # 111 222 333 999m + 55m: as pungs → pure_pungs 100; as runs 123×3 → pure_one_suit 50. Keep 100.
    out = score(concealed="1112223335599m", win_tile="9m", by="discard", **{"from": 3})
    assert {"pure_pungs", "pure_one_suit", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 100
    assert out["payments"] == [0, 100, 0, -100]
    ctx = ctx_of(concealed="1112223335599m", win_tile="9m")
    values = sorted(sh.value_of(r).value for r in sh.readings(ctx))
    assert values == [50, 100]


def test_pure_one_suit() -> None:
    out = score(concealed="123m456m789m234m5m", win_tile="5m")
    assert "pure_one_suit" in out["patterns"]
    assert "pure_pungs" not in out["patterns"]
    assert out["value"] == 50


def test_mixed_pungs() -> None:
    # 111m 333m 555m 222z + 11z: one suit + honours, all pungs → 50 (base flowers would be only 4)
    out = score(concealed="111333555m1122z", win_tile="2z", by="discard", **{"from": 0})
    assert {"mixed_pungs", "mixed_one_suit", "all_pungs"} <= set(out["patterns"])
    assert out["value"] == 50
    assert out["payments"] == [-50, 50, 0, 0]


BIG_HANGING_MELDS = [meld("chi", "123m", 0), meld("pong", "777p", 1), meld("pong", "999s", 2)]


def test_big_hanging() -> None:
    # four calls, winning on the single 1z: 50 from the discarder
    melds = [*BIG_HANGING_MELDS, meld("kong", "5555s", 3)]
    out = score(concealed="1z", win_tile="1z", melds=melds, seat=0, by="discard", **{"from": 3})
    assert "big_hanging" in out["patterns"]
    assert out["value"] == 50
    assert out["payments"] == [50, 0, 0, -50]


def test_big_hanging_counts_a_concealed_kong() -> None:
    # Decision (docs/rules/shanghai.md): a concealed kong is one of the four declared melds
    melds = [*BIG_HANGING_MELDS, meld("concealed_kong", "5555s")]
    out = score(concealed="1z", win_tile="1z", melds=melds)
    assert "big_hanging" in out["patterns"]
    assert out["value"] == 50


def test_three_calls_are_not_big_hanging() -> None:
    out = score(concealed="111z2z", win_tile="2z", melds=BIG_HANGING_MELDS)
    assert "big_hanging" not in out["patterns"]


def test_class_2_highest_only() -> None:
    # pongs 111m 222m 333m + kong 4444m + 5m pair: pure_pungs 100, big_hanging 50, pure_one_suit 50 → 100
    melds = [meld("pong", "111m", 0), meld("pong", "222m", 0), meld("pong", "333m", 0)]
    melds.append(meld("kong", "4444m", 0))
    out = score(concealed="5m", win_tile="5m", melds=melds)
    assert {"pure_pungs", "big_hanging", "pure_one_suit"} <= set(out["patterns"])
    assert out["value"] == 100
    assert ["big_hanging", 0] in out["breakdown"]


def test_class_2_ignores_kong_bloom_and_base_flowers() -> None:
    # pure one suit 50, won on a kong replacement with two flowers: still 50
    out = score(concealed="123m456m789m234m5m", win_tile="5m", after_kong=True, flowers="1f2f")
    assert "kong_bloom" in out["patterns"]
    assert out["value"] == 50


# ---------------------------------------------------------------------------
# Class 3: base flowers × 2^fan (§2.6)


def test_chicken_is_three_base_flowers() -> None:
    out = score(**CHICKEN)
    assert out["patterns"] == []
    assert out["value"] == 3
    assert ["base_flowers", 3] in out["breakdown"]


def test_flower_tiles_add_one_each() -> None:
    assert score(**CHICKEN, flowers="1f4f8f")["value"] == 3 + 3


def test_base_flowers_kongs_and_honour_pungs() -> None:
    # wind exposed kong 2 + dragon concealed kong 4 + suited added kong 1 + concealed dragon pung 777z 2
    # + 3 flower tiles 3 + the 3 → 15; pair 99s 0. Pungs/kongs only but p and s: all_pungs, 0 fan.
    melds = [meld("kong", "1111z", 2), meld("concealed_kong", "5555z"), meld("added_kong", "2222p", 3)]
    out = score(concealed="777z9s", win_tile="9s", melds=melds, flowers="1f2f3f", seat=3)
    assert out["patterns"] == ["all_pungs"]
    assert out["value"] == 15
    assert out["payments"] == [-15, -15, -15, 45]


def test_base_flowers_concealed_kongs_and_wind_pung() -> None:
    # wind concealed kong 3 + dragon exposed kong 3 + suited concealed kong 2 + concealed wind pung 1 + 3 = 12
    melds = [meld("concealed_kong", "2222z"), meld("kong", "6666z", 1), meld("concealed_kong", "3333m")]
    out = score(concealed="444z5p", win_tile="5p", melds=melds, seat=0, by="discard", **{"from": 1})
    assert out["value"] == 12
    assert out["payments"] == [12, -12, 0, 0]


def test_base_flowers_exposed_pungs() -> None:
    # exposed wind pung 1 + exposed dragon pung 2 + exposed suited pung 0 + 3 = 6
    melds = [meld("pong", "222z", 1), meld("pong", "666z", 2), meld("pong", "888m", 3)]
    out = score(concealed="234p5s", win_tile="5s", melds=melds)
    assert out["value"] == 6


def test_base_flowers_suited_exposed_kong_and_wind_added_kong() -> None:
    # suited exposed kong 1 + wind added kong 2 + 3 = 6; 11z is only the pair
    melds = [meld("kong", "4444m", 1), meld("added_kong", "3333z", 2)]
    out = score(concealed="123p456p1z", win_tile="1z", melds=melds)
    assert out["value"] == 6


def test_suited_concealed_pung_is_worth_nothing() -> None:
    # 111m 222p 333s 555z + 44z: 3 + dragon pung 2 = 5; all_pungs 0 fan
    out = score(concealed="111m222p333s555z4z", win_tile="4z")
    assert "all_pungs" in out["patterns"]
    assert out["value"] == 5
    assert out["payments"] == [-5, 15, -5, -5]


def test_pung_completed_by_the_discard_is_worth_the_same() -> None:
    # Decision: counted as exposed; a wind pung is 1 flower either way: 3 + 1 = 4
    hand = {"concealed": "11z123m456p789s55s", "win_tile": "1z"}
    assert score(**hand, by="discard", **{"from": 3})["value"] == 4
    assert score(**hand)["value"] == 4


def test_kong_bloom_after_a_kong() -> None:
    # 3 base flowers × 2^1
    out = score(**CHICKEN, after_kong=True)
    assert "kong_bloom" in out["patterns"]
    assert out["value"] == 6


def test_kong_bloom_after_a_flower() -> None:
    # (3 + 1 flower) × 2
    out = score(**CHICKEN, after_flower=True, flowers="2f")
    assert "kong_bloom" in out["patterns"]
    assert out["value"] == 8


def test_no_kong_bloom_on_a_discard() -> None:
    out = score(**CHICKEN, after_kong=True, by="discard", **{"from": 3})
    assert "kong_bloom" not in out["patterns"]
    assert out["value"] == 3


def test_mixed_one_suit_is_named_but_does_not_multiply() -> None:
    # 123m 456m 789m 234m + 77z pair: mixed_one_suit 0 fan → 3; with kong bloom 3 × 2 = 6
    hand = {"concealed": "123m456m789m234m7z", "win_tile": "7z"}
    out = score(**hand)
    assert out["patterns"] == ["mixed_one_suit"]
    assert out["value"] == 3
    assert score(**hand, after_kong=True)["value"] == 6


# ---------------------------------------------------------------------------
# 荒番 (§2.7)


def test_huangfan_doubles_class_3() -> None:
    out = score(**CHICKEN, huangfan=True)
    assert out["value"] == 6
    assert out["payments"] == [-6, 18, -6, -6]


def test_huangfan_doubles_class_1_and_2() -> None:
    assert score(**CHICKEN, seat=0, first_turn=True, huangfan=True)["value"] == 1000
    assert score(concealed="123m456m789m234m5m", win_tile="5m", huangfan=True)["value"] == 100


@pytest.mark.parametrize(
    ("dice", "add"),
    [
        ((1, 1), 2),
        ((4, 4), 2),
        ((1, 2), 1),
        ((2, 1), 1),
        ((1, 6), 1),
        ((4, 1), 1),
        ((4, 6), 1),
        ((3, 4), 1),
        ((2, 2), 1),
        ((3, 3), 1),
        ((5, 5), 1),
        ((6, 6), 1),
        ((2, 3), 0),
        ((3, 2), 0),
        ((2, 5), 0),
        ((5, 6), 0),
        ((6, 3), 0),
    ],
)
def test_huangfan_dice(dice: tuple[int, int], add: int) -> None:
    assert sh.huangfan_dice_increment(dice) == add


def test_huangfan_dice_over_all_rolls() -> None:
    # 36 rolls: 2 add 2; the ordered pairs of distinct faces from {2,3,5,6} (4 × 3 = 12) add 0; 22 add 1
    adds = [sh.huangfan_dice_increment((a, b)) for a in range(1, 7) for b in range(1, 7)]
    assert (adds.count(2), adds.count(0), adds.count(1)) == (2, 12, 22)


def test_huangfan_counter_after_a_hand() -> None:
    assert sh.huangfan_after_hand(0, drawn=True) == 1
    assert sh.huangfan_after_hand(2, drawn=True) == 3
    assert sh.huangfan_after_hand(2, drawn=False) == 1
    assert sh.huangfan_after_hand(0, drawn=False) == 0


# ---------------------------------------------------------------------------
# Payments (§2.8)


def test_base_stake_scales_the_unit() -> None:
    assert score(**CHICKEN, base=5, by="discard", **{"from": 3})["payments"] == [0, 15, 0, -15]


def test_self_draw_related_player_pays_three_units() -> None:
    # seat 0 claimed seat 1's discards three times → related: pays 3 × 3, others 3 each
    out = score(**CHICKEN, claims=[[0, 1, 3]])
    assert out["payments"] == [-9, 15, -3, -3]


def test_relation_works_in_both_directions() -> None:
    # the winner claimed from seat 2 three times
    assert score(**CHICKEN, claims=[[1, 2, 3]])["payments"] == [-3, 15, -9, -3]


def test_two_claims_do_not_relate() -> None:
    assert score(**CHICKEN, claims=[[1, 2, 2]])["payments"] == [-3, 9, -3, -3]


def test_claims_of_one_direction_add_up() -> None:
    assert score(**CHICKEN, claims=[[1, 2, 2], [1, 2, 1]])["payments"] == [-3, 15, -9, -3]


def test_claims_of_opposite_directions_do_not_add_up() -> None:
    # Decision: "one of them has claimed … three times": 2 + 2 in opposite directions is no relation
    assert score(**CHICKEN, claims=[[1, 2, 2], [2, 1, 2]])["payments"] == [-3, 9, -3, -3]


def test_discard_related_discarder_pays_two_units() -> None:
    out = score(**CHICKEN, by="discard", claims=[[1, 3, 3]], **{"from": 3})
    assert out["payments"] == [0, 6, 0, -6]


def test_discard_other_related_player_pays_one_unit() -> None:
    # discarder 3 (related) 2 units; seat 2 (related: claimed from the winner 4 times) 1 unit
    out = score(**CHICKEN, by="discard", claims=[[1, 3, 3], [2, 1, 4]], **{"from": 3})
    assert out["payments"] == [0, 9, -3, -6]


def test_relations_not_involving_the_winner_do_not_count() -> None:
    out = score(**CHICKEN, by="discard", claims=[[0, 2, 3], [3, 0, 5]], **{"from": 3})
    assert out["payments"] == [0, 3, 0, -3]


def test_robbing_a_kong_is_paid_like_a_discard_by_the_konger() -> None:
    out = score(**CHICKEN, seat=2, by="robbing_kong", claims=[[3, 2, 3]], **{"from": 0})
    # konger 0 pays 1 unit; seat 3 related to the winner pays 1 more
    assert out["payments"] == [-3, 0, 6, -3]


def test_several_winners_only_the_discarder_pays() -> None:
    # 一炮多响: seat 2 is related to the winner but does not pay; the related discarder pays 2 units
    claims = [[1, 3, 3], [2, 1, 4]]
    ctx = replace(ctx_of(**CHICKEN, by="discard", claims=claims, **{"from": 3}), multi_win=True)
    assert sh.score(ctx).payments == (0, 6, 0, -6)
    ctx = replace(ctx_of(**CHICKEN, by="discard", claims=[[2, 1, 4]], **{"from": 3}), multi_win=True)
    assert sh.score(ctx).payments == (0, 3, 0, -3)


def test_related_helper() -> None:
    assert sh.related([(0, 1, 3)], 1, 0)
    assert sh.related([(0, 1, 3)], 0, 1)
    assert not sh.related([(0, 1, 3)], 0, 2)


# ---------------------------------------------------------------------------
# The balance floor (§1.5, §2.8)


def test_floor_several_winners_paid_next_opposite_previous() -> None:
    # discarder 0 owes 6 to each of 3 (previous), 1 (next), 2 (opposite) but has 10:
    # next (1) gets 6, opposite (2) the remaining 4, previous (3) nothing
    per_winner = [(-6, 0, 0, 6), (-6, 6, 0, 0), (-6, 0, 6, 0)]
    assert sh.settle_with_floor(per_winner, [3, 1, 2], 0, [10, 0, 0, 0]) == [-10, 6, 4, 0]


def test_floor_order_is_relative_to_the_discarder() -> None:
    # discarder 2: next is 3, opposite 0, previous 1; it has 5 points for winners 1 and 3,
    # owed 4 each → 3 gets 4, 1 gets 1
    per_winner = [(0, 4, -4, 0), (0, 0, -4, 4)]
    assert sh.settle_with_floor(per_winner, [1, 3], 2, [0, 0, 5, 0]) == [0, 1, -5, 4]


def test_floor_each_loser_pays_at_most_their_balance() -> None:
    # self-draw 5 each; seat 1 has 0, seat 2 has 2: the winner collects 0 + 2 + 5
    assert sh.settle_with_floor([(15, -5, -5, -5)], [0], None, [100, 0, 2, 100]) == [7, 0, -2, -5]


def test_floor_with_enough_money_changes_nothing() -> None:
    per_winner = [(0, 6, 0, -6), (0, 0, 3, -3)]
    assert sh.settle_with_floor(per_winner, [1, 2], 3, [0, 0, 0, 100]) == [0, 6, 3, -9]


def test_ruleset_settle_uses_the_floor() -> None:
    scores = (ScoreResult(True, payments=(-6, 0, 0, 6)), ScoreResult(True, payments=(-6, 6, 0, 0)))
    result = HandResult(winners=(3, 1), by="discard", from_seat=0, scores=scores, payments=(-12, 6, 0, 6))
    assert get_ruleset("shanghai").settle(result, [7, 0, 0, 0], 0) == [-7, 6, 0, 1]


# ---------------------------------------------------------------------------
# Restriction helpers (§2.3)


@pytest.mark.parametrize(
    ("held", "claimed", "forbidden"),
    [
        ("56m", "4m", "47m"),  # RULES example: holding 5 6, chi 4 → not 4 or 7
        ("23m", "4m", "14m"),  # holding 2 3, chi 4 → not 4 or 1
        ("12m", "3m", "3m"),  # 1 2 chi 3: only t
        ("89m", "7m", "7m"),  # 8 9 chi 7: only t
        ("35m", "4m", "4m"),  # 3 5 chi 4: only t
        ("56m", "7m", "47m"),
        ("12p", "3p", "3p"),  # 9m (the tile below 1p) is another suit
        ("89s", "7s", "7s"),
    ],
)
def test_forbidden_after_chi(held: str, claimed: str, forbidden: str) -> None:
    a, b = parse(held)
    assert sh.forbidden_after_chi((a, b), tile(claimed)) == frozenset(parse(forbidden))


def test_chi_commitment() -> None:
    assert not sh.chi_blocked_by_commitment([M("pong", "111z")], 0)  # honours never block
    assert sh.chi_blocked_by_commitment([M("chi", "123p")], 0)
    assert not sh.chi_blocked_by_commitment([M("chi", "123p")], 1)
    assert sh.chi_blocked_by_commitment([M("pong", "555s")], 0)
    assert sh.chi_blocked_by_commitment([M("concealed_kong", "9999m")], 1)
    assert not sh.chi_blocked_by_commitment([M("concealed_kong", "9999m"), M("kong", "7777z")], 0)
    assert not sh.chi_blocked_by_commitment([], 2)


def test_pong_commitment() -> None:
    chi_m = [M("chi", "123m")]
    assert sh.pong_blocked_by_commitment(chi_m, tile("5p"))
    assert not sh.pong_blocked_by_commitment(chi_m, tile("5m"))
    assert not sh.pong_blocked_by_commitment(chi_m, tile("1z"))  # honours are never blocked
    assert not sh.pong_blocked_by_commitment([M("pong", "555s")], tile("5p"))  # only a chi binds a pong
    assert sh.pong_blocked_by_commitment([M("chi", "123m"), M("pong", "111z")], tile("2p"))


# ---------------------------------------------------------------------------
# The Ruleset: data and flow hooks


def _state(**kw: Any) -> HandState:
    return bare_state(**{"variant": "shanghai", **kw})


def test_ruleset_data() -> None:
    rs = get_ruleset("shanghai")
    assert (rs.id, rs.name_zh, rs.players) == ("shanghai", "上海麻将", 4)
    assert rs.has_flowers and rs.has_chi and rs.win_on_discard and rs.multiple_winners
    assert len(rs.wall_tiles()) == 144
    assert rs.robbable_kongs == ("added_kong",)


def test_next_dealer() -> None:
    rs = get_ruleset("shanghai")
    state = _state(dealer=1)
    assert rs.next_dealer(state, HandResult(winners=(2,), by="self_draw")) == 2
    assert rs.next_dealer(state, HandResult(winners=(1,), by="discard", from_seat=3)) == 1
    # several winners on one discard: the discarder deals
    assert rs.next_dealer(state, HandResult(winners=(0, 2), by="discard", from_seat=3)) == 3
    assert rs.next_dealer(state, HandResult()) == 1  # drawn: the dealer stays


def test_setup_applies_the_dice_to_the_counter() -> None:
    rs = get_ruleset("shanghai")
    s = rs.setup(_state(dice=(2, 3)), None)
    assert (s.huangfan, dict(s.counters)["huangfan"]) == (False, 0)
    s = rs.setup(_state(dice=(1, 1)), None)
    assert (s.huangfan, dict(s.counters)["huangfan"]) == (True, 2)
    s = rs.setup(_state(dice=(5, 6), counters=(("huangfan", 1),)), None)
    assert (s.huangfan, dict(s.counters)["huangfan"]) == (True, 1)


def test_bad_input_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        score_case(case(concealed="123m", win_tile="5s"))
