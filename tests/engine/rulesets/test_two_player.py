"""二人麻将 scoring, tested from RULES §6.3 and the Chinese Official (国标) fan table.

Every expected total below is worked by hand from the official table (values
in brackets) with its exclusions (不计), written next to the case. Unless a
test says otherwise: seat 0 wins, seat 0 deals (so the winner's seat wind is
East), the round wind is East, base stake 1, cap 13.

The tile set (§6.1) is 万 + winds + dragons, so every winning hand is at least
混一色 mixed_one_suit (6), 清一色 pure_one_suit (24) or 字一色 all_honours (64).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from games.engine.__main__ import score_case
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.scoring import two_player as tp
from games.engine.scoring.context import WinContext
from games.engine.state import Meld
from games.engine.tiles import format_tiles, name, parse, tile
from tests.vectors import assert_matches, vector_cases

FROM_1 = {"by": "discard", "from": 1}

# 123m 234m 678m (all chi from seat 1) + 555m + 77z pair, won on 5m:
# 混一色 (6) and nothing else — 123/234/678 make no two-chow fan (not equal,
# not 3 apart, not 123+789), 555m is a plain pung (and completed by the
# discard, so not concealed), 55m/77z is a two-sided wait, no tile four times.
SIX_MELDS = [
    {"kind": "chi", "tiles": "123m", "from": 1},
    {"kind": "chi", "tiles": "234m", "from": 1},
    {"kind": "chi", "tiles": "678m", "from": 1},
]
SIX = {"melds": SIX_MELDS, "concealed": "55m77z", "win_tile": "5m"}


def case(**kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": "two_player", "seat": 0, "dealer": 0, "by": "self_draw"}
    data.update(kw)
    return data


def score(**kw: Any) -> dict[str, Any]:
    return score_case(case(**kw))


def score_with(options: dict[str, Any], **kw: Any) -> Any:
    ctx = replace(WinContext.from_json(case(**kw)), options=options)
    return get_ruleset("two_player").score(ctx)


def fans(result: dict[str, Any]) -> dict[str, int]:
    return dict(result["breakdown"])


# ---------------------------------------------------------------------------
# Public vectors


@pytest.mark.parametrize("vector", vector_cases("two_player"), ids=lambda c: c["id"])
def test_public_vectors(vector: dict[str, Any]) -> None:
    assert_matches(score_case(vector), vector["expect"])


def test_vector_mixed_one_suit_discard_is_twelve() -> None:
    # seat 1 (South; dealer 0), round East, no melds: 234m 567m 999m 111z + 77z,
    # won on a discarded 9m (waits 9m/7z, a two-sided wait: no wait fan).
    # 混一色 (6) + 圈风刻 East pung, round East (2; not also 幺九刻) + 门前清 (2)
    # + 连六 234m-567m (1) + 幺九刻 999m (1) = 12. 999m was completed by the
    # discard, so 111z is the only concealed pung: no 双暗刻. The discarder pays.
    got = score(seat=1, concealed="234567m99m111z77z", win_tile="9m", by="discard", **{"from": 0})
    assert fans(got) == {
        "mixed_one_suit": 6,
        "prevailing_wind": 2,
        "concealed_hand": 2,
        "short_straight": 1,
        "terminal_or_honour_pung": 1,
    }
    assert (got["value"], got["payments"]) == (12, [-12, 12])


# ---------------------------------------------------------------------------
# Hand-computed cases across the official table


def test_mixed_one_suit_alone_wins_below_the_official_eight() -> None:
    # §6.3 "No minimum": 6 fan (below the official 8-fan 起和) still wins.
    got = score(**SIX, **FROM_1)
    assert got["win"] is True
    assert got["patterns"] == ["mixed_one_suit"]
    assert (got["value"], got["payments"]) == (6, [6, -6])


def test_flowers_add_one_fan_each() -> None:
    # SIX + two flowers: 6 + 花牌 1 × 2 = 8.
    got = score(**SIX, **FROM_1, flowers="1f2f")
    assert fans(got) == {"mixed_one_suit": 6, "flowers": 2}
    assert got["value"] == 8
    # all eight flowers: 6 + 8 = 14, capped at 13
    got = score(**SIX, **FROM_1, flowers="1f2f3f4f5f6f7f8f")
    assert fans(got)["flowers"] == 8
    assert got["value"] == 13


def test_self_draw_adds_one() -> None:
    # SIX self-drawn: 混一色 6 + 自摸 1 = 7; the other seat pays 7 × 3 (自摸 ×3方).
    got = score(**SIX)
    assert fans(got) == {"mixed_one_suit": 6, "self_draw": 1}
    assert (got["value"], got["payments"]) == (7, [21, -21])


def test_concealed_hand_on_a_discard_and_fully_concealed_self_draw() -> None:
    # No melds: 123m 234m 678m 55m 77z (13), won on 5m (the only reading:
    # 123 234 555 678 + 77z).
    # On a discard: 混一色 6 + 门前清 2 = 8.
    got = score(concealed="123234678m55m77z", win_tile="5m", **FROM_1)
    assert fans(got) == {"mixed_one_suit": 6, "concealed_hand": 2}
    assert got["value"] == 8
    # Self-drawn: 不求人 4 (不计门前清, 自摸) + 混一色 6 = 10; 555m is now the
    # only concealed pung (no 双暗刻).
    got = score(concealed="123234678m55m77z", win_tile="5m")
    assert fans(got) == {"mixed_one_suit": 6, "fully_concealed_hand": 4}
    assert (got["value"], got["payments"]) == (10, [30, -30])  # self-drawn: value × 3


def test_pure_one_suit_and_terminal_pung_with_a_higher_cap() -> None:
    # chi 234m, chi 678m, pong 555m; 11m 99m, won on a discarded 9m:
    # 清一色 24 (不计无字, 缺一门) + 幺九刻 999m 1 = 25 → capped 13 by default.
    melds = [
        {"kind": "chi", "tiles": "234m", "from": 1},
        {"kind": "chi", "tiles": "678m", "from": 1},
        {"kind": "pong", "tiles": "555m", "from": 1},
    ]
    kw = {"melds": melds, "concealed": "11m99m", "win_tile": "9m", **FROM_1}
    got = score(**kw)
    assert fans(got) == {"pure_one_suit": 24, "terminal_or_honour_pung": 1}
    assert (got["value"], got["payments"]) == (13, [13, -13])
    res = score_with({"cap": 30}, **kw)
    assert (res.value, res.payments) == (25, (25, -25))


def test_all_pungs() -> None:
    # pong 222m 555m 888m; 33z 77z, won on a discarded 7z (red dragon):
    # 碰碰和 6 + 混一色 6 + 箭刻 777z 2 = 14 (2-5-8 is no 三节高; 3z is the pair).
    melds = [{"kind": "pong", "tiles": t, "from": 1} for t in ("222m", "555m", "888m")]
    got = score(melds=melds, concealed="33z77z", win_tile="7z", **FROM_1)
    assert fans(got) == {"all_pungs": 6, "mixed_one_suit": 6, "dragon_pung": 2}
    assert got["value"] == 13  # 14 capped


def test_seven_pairs() -> None:
    # 11 33 55 77 99m 11z + 2z, won on a discarded 2z: 七对 24 (不计门前清,
    # 单钓将) + 混一色 6 = 30.
    got = score_with({"cap": 100}, concealed="1133557799m11z2z", win_tile="2z", **FROM_1)
    assert dict(got.breakdown) == {"seven_pairs": 24, "mixed_one_suit": 6}
    assert got.value == 30


def test_big_three_dragons_is_capped() -> None:
    # pong 5z 6z 7z; 123m + 9m, won on 9m (a single wait): 大三元 88 (不计箭刻,
    # 双箭刻) + 混一色 6 + 全带幺 4 (every group holds a terminal or an honour:
    # 123m, 99m, the dragon pungs) + 单钓将 1 = 99 → 13.
    melds = [{"kind": "pong", "tiles": t, "from": 1} for t in ("555z", "666z", "777z")]
    kw = {"melds": melds, "concealed": "123m9m", "win_tile": "9m", **FROM_1}
    got = score(**kw)
    assert fans(got) == {"big_three_dragons": 88, "mixed_one_suit": 6, "outside_hand": 4, "single_wait": 1}
    assert (got["value"], got["payments"]) == (13, [13, -13])
    assert score_with({"cap": 200}, **kw).value == 99


def test_kong_bloom() -> None:
    # chi 123m, chi 234m, exposed kong 5555z; 678m + 7z, self-drawn 7z on the
    # kong's replacement tile: 杠上开花 8 (不计自摸) + 混一色 6 + 箭刻 (the white
    # kong) 2 + 明杠 1 + 单钓将 1 = 18 → 13.
    melds = [
        {"kind": "chi", "tiles": "123m", "from": 1},
        {"kind": "chi", "tiles": "234m", "from": 1},
        {"kind": "kong", "tiles": "5555z", "from": 1},
    ]
    kw = {"melds": melds, "concealed": "678m7z", "win_tile": "7z", "after_kong": True}
    got = score_with({"cap": 100}, **kw)
    assert dict(got.breakdown) == {
        "kong_bloom": 8,
        "mixed_one_suit": 6,
        "dragon_pung": 2,
        "melded_kong": 1,
        "single_wait": 1,
    }
    assert got.value == 18
    # Decision: a flower replacement is a plain self-draw (official table):
    # 自摸 1 instead of 杠上开花 → 6 + 2 + 1 + 1 + 1 = 11.
    got = score_with({"cap": 100}, **{**kw, "after_kong": False, "after_flower": True})
    assert "kong_bloom" not in got.patterns
    assert dict(got.breakdown)["self_draw"] == 1
    assert got.value == 11


def test_robbing_kong() -> None:
    # seat 1 (South), round East; 234m 56m 999m 111z 77z, robbing 0's added
    # kong of 7m: 抢杠和 8 (不计和绝张) + 混一色 6 + 圈风刻 2 + 门前清 2 + 双暗刻
    # (999m, 111z) 2 + 连六 234-567 1 + 幺九刻 999m 1 = 22 → 13, paid by the konger
    # as a self-draw (搶杠,記分按自摸計): 13 × 3.
    kw = {"seat": 1, "concealed": "23456m999m111z77z", "win_tile": "7m", "by": "robbing_kong", "from": 0}
    got = score(**kw)
    assert fans(got) == {
        "robbing_kong": 8,
        "mixed_one_suit": 6,
        "prevailing_wind": 2,
        "concealed_hand": 2,
        "two_concealed_pungs": 2,
        "short_straight": 1,
        "terminal_or_honour_pung": 1,
    }
    assert (got["value"], got["payments"]) == (13, [-39, 39])
    # The robbed tile is always the 4th of its kind, yet 抢杠和 never also
    # counts 和绝张, even when live play flags it.
    ctx = replace(WinContext.from_json(case(**kw)), fourth_tile=True)
    assert "fourth_tile" not in tp.score(ctx).patterns


def test_last_tile_self_drawn_and_on_a_discard() -> None:
    # SIX on the last tile: 妙手回春 8 (不计自摸) + 6 = 14; on the last discard:
    # 海底捞月 8 + 6 = 14. Both are RULES' last_tile.
    drawn = score_with({"cap": 100}, **SIX, last_tile=True)
    assert dict(drawn.breakdown) == {"last_tile": 8, "mixed_one_suit": 6}
    claimed = score_with({"cap": 100}, **SIX, **FROM_1, last_tile=True)
    assert dict(claimed.breakdown) == {"last_tile": 8, "mixed_one_suit": 6}


def test_fourth_tile_from_own_melds() -> None:
    # pong 555m, chi 123m, chi 678m; 46m 77z, won on a discarded 5m — the
    # fourth 5m, its three others in the winner's own pong, visible to all:
    # 混一色 6 + 和绝张 4 + 四归一 5m (pong + chow 456) 2 + 连六 123-456 1 +
    # 嵌张 1 = 14.
    melds = [
        {"kind": "pong", "tiles": "555m", "from": 1},
        {"kind": "chi", "tiles": "123m", "from": 1},
        {"kind": "chi", "tiles": "678m", "from": 1},
    ]
    got = score_with({"cap": 100}, melds=melds, concealed="46m77z", win_tile="5m", **FROM_1)
    assert dict(got.breakdown) == {
        "mixed_one_suit": 6,
        "fourth_tile": 4,
        "tile_hog": 2,
        "short_straight": 1,
        "closed_wait": 1,
    }
    assert got.value == 14


def test_fourth_tile_from_live_play() -> None:
    # chi 123m, chi 234m, pong 777z; 56m 99m, won on a discarded 4m:
    # 混一色 6 + 箭刻 2 + 连六 123-456 1 = 9 (4m/7m is a two-sided wait);
    # when the table shows the other three 4m (ctx.fourth_tile): + 和绝张 4 = 13.
    melds = [*SIX_MELDS[:2], {"kind": "pong", "tiles": "777z", "from": 1}]
    kw = {"melds": melds, "concealed": "56m99m", "win_tile": "4m", **FROM_1}
    ctx = replace(WinContext.from_json(case(**kw)), options={"cap": 100})
    assert dict(tp.score(ctx).breakdown) == {"mixed_one_suit": 6, "dragon_pung": 2, "short_straight": 1}
    got = tp.score(replace(ctx, fourth_tile=True))
    assert dict(got.breakdown)["fourth_tile"] == 4
    assert got.value == 13


def test_melded_hand() -> None:
    # SIX_MELDS + pong 777z; 5m, won on a discarded 5m: 全求人 6 (不计单钓将)
    # + 混一色 6 + 箭刻 2 = 14.
    melds = [*SIX_MELDS, {"kind": "pong", "tiles": "777z", "from": 1}]
    got = score_with({"cap": 100}, melds=melds, concealed="5m", win_tile="5m", **FROM_1)
    assert dict(got.breakdown) == {"melded_hand": 6, "mixed_one_suit": 6, "dragon_pung": 2}


def test_seat_and_prevailing_wind_follow_dealer_and_round() -> None:
    # The vector's hand with a South pung instead of East, seat 1 (South):
    # round East → 门风刻 2 (not 幺九刻): 6 + 2 + 2 + 1 + 1 = 12.
    kw = {"seat": 1, "concealed": "234567m99m222z77z", "win_tile": "9m", "by": "discard", "from": 0}
    got = score(**kw)
    assert fans(got)["seat_wind"] == 2
    assert "prevailing_wind" not in got["patterns"]
    assert got["value"] == 12
    # round South too → also 圈风刻 2: 14 → capped 13
    got = score_with({"cap": 100}, **kw, round_wind="2z")
    assert dict(got.breakdown)["prevailing_wind"] == 2
    assert got.value == 14
    # seat 0 with dealer 1 is South as well (the seat wind is counted from the dealer)
    got = score(**{**kw, "seat": 0, "dealer": 1, "from": 1})
    assert fans(got)["seat_wind"] == 2


def test_first_turn_adds_nothing() -> None:
    # Decision: the official table has no 天和/地和; first_turn is ignored.
    assert score(**SIX, first_turn=True) == score(**SIX)


def test_base_stake_multiplies_payments() -> None:
    got = score(**SIX, **FROM_1, base=5)
    assert (got["value"], got["payments"]) == (6, [30, -30])


# ---------------------------------------------------------------------------
# Refusals, cap, tile set


def test_not_a_winning_hand() -> None:
    got = score(concealed="123456789m1234z", win_tile="5z", **FROM_1)
    assert got["win"] is False
    assert got["reason"] == "not_a_winning_hand"
    assert got["payments"] == [0, 0]


def test_cap_option() -> None:
    # the all-pungs hand (14 fan): default cap 13, a table cap of 10, no cap hit at 20
    melds = [{"kind": "pong", "tiles": t, "from": 1} for t in ("222m", "555m", "888m")]
    kw = {"melds": melds, "concealed": "33z77z", "win_tile": "7z", **FROM_1}
    assert score_with({}, **kw).value == 13
    assert score_with({"cap": 10}, **kw).payments == (10, -10)
    assert score_with({"cap": 20}, **kw).value == 14
    for bad in (0, -1, "13", True):
        with pytest.raises(EngineError) as e:
            score_with({"cap": bad}, **kw)
        assert e.value.code == "bad_option"


def test_tiles_outside_the_72_tile_set_are_bad_input() -> None:
    with pytest.raises(EngineError) as e:
        score(concealed="123p234678m55m77z", win_tile="5m")
    assert e.value.code == "bad_input"


# ---------------------------------------------------------------------------
# The library's conventions and our fan table


def test_dragon_codes_follow_the_library() -> None:
    # J1 中 red, J2 发 green, J3 白 white — not our 5z 6z 7z order.
    assert [tp.gb_tile(tile(t)) for t in ("5z", "6z", "7z")] == ["J3", "J2", "J1"]
    assert [tp.gb_tile(tile(t)) for t in ("1m", "9m", "1p", "1s", "1z", "4z")] == [
        "W1",
        "W9",
        "B1",
        "T1",
        "F1",
        "F4",
    ]


def _lib(concealed: str, win: str) -> set[str]:
    fans = tp.calculate_fans((), tp.counts_of(parse(concealed)), tile(win))
    assert fans is not None
    return {zh for _, _, zh, _ in fans}


@pytest.mark.parametrize("dragon", ["5z", "6z", "7z"])
def test_dragon_mapping_by_behaviour(dragon: str) -> None:
    # 绿一色 (all green: 23468s + 发) only with 6z green; 推不倒 (reversible:
    # 1234589p 245689s 白) only with 5z white.
    green = _lib(f"234s234s666s88s{dragon}{dragon}", dragon)
    assert ("绿一色" in green) == (dragon == "6z")
    reversible = _lib(f"123p345p888p999p{dragon}", dragon)
    assert ("推不倒" in reversible) == (dragon == "5z")


def test_chow_offer_says_which_tile_was_claimed() -> None:
    chi = Meld("chi", tuple(parse("345m")), from_seat=1, claimed=tile("5m"))
    assert tp.gb_pack(chi) == ("CHI", "W4", 3)
    assert tp.gb_pack(Meld("chi", tuple(parse("345m")), from_seat=1)) == ("CHI", "W4", 1)
    assert tp.gb_pack(Meld("pong", tuple(parse("111z")), from_seat=1)) == ("PENG", "F1", 1)
    assert tp.gb_pack(Meld("added_kong", tuple(parse("5555m")), from_seat=1)) == ("GANG", "W5", 1)
    assert tp.gb_pack(Meld("concealed_kong", tuple(parse("5555m")))) == ("GANG", "W5", 0)


def test_fan_table_ids() -> None:
    ids = [f.id for f in tp.FANS]
    # every id is unique except last_tile (妙手回春 / 海底捞月, never together)
    assert sorted(i for i in set(ids) if ids.count(i) > 1) == ["last_tile"]
    by_name = {f.name_zh: f.id for f in tp.FANS}
    # RULES.md's ids where RULES has the same pattern
    for zh, rid in {
        "混一色": "mixed_one_suit",
        "碰碰和": "all_pungs",
        "清一色": "pure_one_suit",
        "七对": "seven_pairs",
        "十三幺": "thirteen_orphans",
        "杠上开花": "kong_bloom",
        "妙手回春": "last_tile",
        "海底捞月": "last_tile",
        "抢杠和": "robbing_kong",
        "自摸": "self_draw",
        "花牌": "flowers",
        "箭刻": "dragon_pung",
        "圈风刻": "prevailing_wind",
        "门风刻": "seat_wind",
        "平和": "all_chows",
        "字一色": "all_honours",
        "大三元": "big_three_dragons",
    }.items():
        assert by_name[zh] == rid
    assert tp.fan_id("未知番", "Some New Fan") == "gb_some_new_fan"


def test_fan_values_match_the_library() -> None:
    # Every fan the library reports in a spread of hands carries our table's value.
    hands = [
        ("234567m99m111z77z", "9m"),
        ("1133557799m11z2z", "2z"),
        ("1112345678999m", "5m"),
        ("11122233344z55z", "5z"),
        ("123p345p888p999p5z", "5z"),
        ("234s234s666s88s6z6z", "6z"),
        ("19m19p19s1234567z", "1m"),
        ("123m456p789s111z2z", "2z"),
    ]
    seen = 0
    for concealed, win in hands:
        fans = tp.calculate_fans((), tp.counts_of(parse(concealed)), tile(win), flowers=1)
        assert fans is not None, concealed
        for point, _count, zh, _en in fans:
            assert tp.FANS_BY_NAME[zh].value == point, zh
            seen += 1
    assert seen > 20


# ---------------------------------------------------------------------------
# Properties over random winning hands of the 72-tile set

_KINDS = tp.SET_KINDS


def _group(code: int) -> list[int]:
    """0–6: the run starting at 1m–7m; 7–22: a pung of one of the set's 16 kinds."""
    if code < 7:
        return [code, code + 1, code + 2]
    return [_KINDS[code - 7]] * 3


@st.composite
def winning_hands(draw: st.DrawFn) -> dict[str, Any]:
    """Four groups and a pair from 万 + honours (≤ 4 of a kind), some groups declared."""
    groups = [_group(c) for c in draw(st.lists(st.integers(0, 22), min_size=4, max_size=4))]
    pair = _KINDS[draw(st.integers(0, 15))]
    tiles = [t for g in groups for t in g] + [pair, pair]
    assume(all(tiles.count(t) <= 4 for t in set(tiles)))
    declared = draw(st.integers(0, 4))
    melds = [
        {"kind": "chi" if g[0] != g[1] else "pong", "tiles": format_tiles(g), "from": 1}
        for g in groups[:declared]
    ]
    concealed = tiles[3 * declared :]
    win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    by = draw(st.sampled_from(["self_draw", "discard"]))
    seat = draw(st.integers(0, 1))
    data = case(
        melds=melds,
        concealed=format_tiles(sorted(concealed)),
        win_tile=name(win),
        by=by,
        seat=seat,
        dealer=draw(st.integers(0, 1)),
        base=draw(st.integers(1, 5)),
    )
    if by == "discard":
        data["from"] = 1 - seat
    return data


@settings(max_examples=200, deadline=None)
@given(winning_hands())
@example(case(concealed="3445566778899m", win_tile="3m", by="self_draw", seat=0, dealer=0, base=1))  # 连七对
# 一色双龙会
@example(case(concealed="1223355778899m", win_tile="1m", by="self_draw", seat=0, dealer=0, base=1))
def test_every_four_groups_and_a_pair_wins_and_pays_zero_sum(data: dict[str, Any]) -> None:
    got = score_case(data)
    assert got["win"] is True
    assert sum(got["payments"]) == 0
    total = sum(v for _, v in got["breakdown"])
    assert got["value"] == min(total, 13)
    times = 1 if data["by"] == "discard" else 3  # seed 004 §三: 自摸 ×3方, 點和 ×1方
    assert got["payments"][data["seat"]] == got["value"] * times * data["base"]
    # one suit + honours / one suit / honours only: never below 6 in this set (连七对, 九莲宝灯 and
    # 一色双龙会 imply 清一色, which the Chinese Official table then does not count again)
    one_suit = {
        "mixed_one_suit",
        "pure_one_suit",
        "all_honours",
        "seven_shifted_pairs",
        "nine_gates",
        "pure_terminal_chows",
    }
    assert one_suit & set(got["patterns"])
    assert total >= 6
