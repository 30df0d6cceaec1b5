"""一花起胡 patterns (docs/rules/yihua.md §Fan) and one example hand for each."""

from __future__ import annotations

from typing import Any

from games.engine.patterns.base import Group, Pattern, case

GROUPS = (
    Group(
        "fan",
        "番",
        "Fan",
        "番数相加，每番翻一倍：(底数 + 花 × 底数/2) × 2^番，封顶 10 × 底数",
        "Fan add up, each doubles: (base + flowers × base/2) × 2^fan, capped at 10 × base.",
    ),
    Group("special", "特殊", "Special", "", ""),
)

PATTERNS = (
    Pattern(
        "chicken",
        "鸡胡",
        "Chicken hand",
        0,
        "fan",
        "fan",
        "没有任何番（点炮须至少一花）",
        "No fan at all (a discard win then needs at least one flower).",
    ),
    Pattern(
        "mixed_one_suit",
        "混一色",
        "Mixed one suit",
        1,
        "fan",
        "fan",
        "一种花色加字牌",
        "One suit plus honours.",
    ),
    Pattern(
        "all_pungs",
        "对对胡",
        "All pungs",
        1,
        "fan",
        "fan",
        "四副刻子或杠加一对",
        "Four pungs or kongs and a pair.",
    ),
    Pattern(
        "kong_bloom",
        "杠开",
        "Win on a replacement tile",
        1,
        "fan",
        "fan",
        "杠或补花后摸到的牌自摸",
        "Self-drawn on the replacement tile after a kong or a flower.",
    ),
    Pattern(
        "single_wait",
        "独吊",
        "Single wait",
        1,
        "fan",
        "fan",
        "四副牌都已亮出，单吊最后一张",
        "All four melds declared; won on the tile that pairs the last one.",
    ),
    Pattern(
        "pure_one_suit",
        "清一色",
        "Pure one suit",
        2,
        "fan",
        "fan",
        "一种花色，没有字牌",
        "One suit only, no honours.",
    ),
    Pattern(
        "seven_pairs",
        "七对",
        "Seven pairs",
        2,
        "fan",
        "fan",
        "七个对子，门前清",
        "Seven pairs, fully concealed.",
    ),
    Pattern(
        "eight_flowers",
        "八花",
        "Eight flowers",
        10,
        "base",
        "special",
        "八张花牌全部到手，本局立即结束，其他每家付封顶 10 × 底数",
        "Holding all eight flowers ends the hand at once: each other player pays the cap, 10 × base.",
    ),
)

_B = 2  # the base stake must be even: the flower value is half of it
EXAMPLES: dict[str, dict[str, Any]] = {
    "chicken": case("123m456m789p234s5s", "5s", base=_B, flowers="3f", by="discard", from_=3),
    "mixed_one_suit": case("123m456m789m111z5z", "5z", base=_B, by="discard", from_=3),
    "all_pungs": case("111m333p555s777m9p", "9p", base=_B, by="discard", from_=3),
    "kong_bloom": case("123m456m789p234s5s", "5s", base=_B, flowers="2f", after_flower=True),
    "single_wait": case(
        "5s",
        "5s",
        base=_B,
        by="discard",
        from_=2,
        seat=1,
        melds=[
            {"kind": "chi", "tiles": "123m", "from": 0},
            {"kind": "pong", "tiles": "777p", "from": 3},
            {"kind": "chi", "tiles": "456s", "from": 0},
            {"kind": "pong", "tiles": "999m", "from": 2},
        ],
    ),
    "pure_one_suit": case("123m456m789m234m5m", "5m", base=_B, by="discard", from_=3),
    "seven_pairs": case("11m33m55m77m99m22p4p", "4p", base=_B, by="discard", from_=3),
    "eight_flowers": case("123m456m789p234s5s", "5s", base=_B, flowers="1f2f3f4f5f6f7f8f"),
}
