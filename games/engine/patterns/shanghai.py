"""上海麻将 patterns (docs/rules/shanghai.md §Patterns) and one example hand for each."""

from __future__ import annotations

from typing import Any

from games.engine.patterns.base import Group, Pattern, case

GROUPS = (
    Group(
        "class1",
        "第一类",
        "Class 1",
        "只计最高的一项，其余不计",
        "Only the highest one counts; nothing else is added.",
    ),
    Group(
        "class2",
        "第二类",
        "Class 2",
        "只计最高的一项，其余不计",
        "Only the highest one counts; nothing else is added.",
    ),
    Group(
        "class3",
        "第三类（番）",
        "Class 3 (fan)",
        "底花 × 2^番；混一色、碰碰胡为 0 番，只列名",
        "Base flowers × 2^fan; mixed one suit and all pungs are 0 fan: named, they do not multiply.",
    ),
)

PATTERNS = (
    Pattern(
        "heavenly",
        "天胡",
        "Heavenly hand",
        500,
        "flowers",
        "class1",
        "庄家在打出第一张牌之前和牌",
        "The dealer wins before making any discard.",
    ),
    Pattern(
        "earthly",
        "地胡",
        "Earthly hand",
        400,
        "flowers",
        "class1",
        "闲家在打出第一张牌之前和牌（自摸或点炮）",
        "A non-dealer wins before making any discard (self-draw or discard).",
    ),
    Pattern(
        "eight_flowers",
        "八花",
        "Eight flowers",
        300,
        "flowers",
        "class1",
        "八张花牌全部亮出，其余 14 张任意",
        "All eight flowers laid open; the 14 tiles in any arrangement.",
    ),
    Pattern(
        "all_honour_pungs",
        "字一色",
        "All honours (pungs)",
        200,
        "flowers",
        "class2",
        "全部是字牌，四副刻子加一对",
        "Only winds and dragons, four pungs and a pair.",
    ),
    Pattern(
        "honours_any",
        "乱风向",
        "All honours, any shape",
        100,
        "flowers",
        "class2",
        "14 张全是字牌，任意组合",
        "All 14 tiles are winds or dragons, in any arrangement.",
    ),
    Pattern(
        "pure_pungs",
        "清碰",
        "Pure pungs",
        100,
        "flowers",
        "class2",
        "一种花色，全是刻子或杠",
        "One suit only, all pungs or kongs.",
    ),
    Pattern(
        "pure_one_suit",
        "清一色",
        "Pure one suit",
        50,
        "flowers",
        "class2",
        "一种花色，没有字牌",
        "One suit only, no honours.",
    ),
    Pattern(
        "mixed_pungs",
        "混碰",
        "Mixed pungs",
        50,
        "flowers",
        "class2",
        "一种花色加字牌，全是刻子或杠",
        "One suit plus honours, all pungs or kongs.",
    ),
    Pattern(
        "big_hanging",
        "大吊车",
        "Big hanging",
        50,
        "flowers",
        "class2",
        "吃碰杠共四次，单吊最后一张",
        "Four melds called (chi, pong, kong); won on the single tile left.",
    ),
    Pattern(
        "kong_bloom",
        "杠开",
        "Win on a replacement tile",
        1,
        "fan",
        "class3",
        "杠或补花后摸到的牌和牌",
        "Won on the replacement tile drawn after a kong or a flower.",
    ),
    Pattern(
        "mixed_one_suit",
        "混一色",
        "Mixed one suit",
        0,
        "fan",
        "class3",
        "一种花色加字牌",
        "One suit plus at least one honour.",
    ),
    Pattern(
        "all_pungs",
        "碰碰胡",
        "All pungs",
        0,
        "fan",
        "class3",
        "四副刻子或杠加一对",
        "Four pungs or kongs and a pair.",
    ),
)

# One example hand per pattern, in the score CLI's input format: the scorer
# must find the pattern with the value of its entry (tests/engine/test_patterns.py).
_CHICKEN = "123m456m789p234s5s"
EXAMPLES: dict[str, dict[str, Any]] = {
    "heavenly": case(_CHICKEN, "5s", seat=0, dealer=0, first_turn=True),
    "earthly": case(_CHICKEN, "5s", seat=1, dealer=0, first_turn=True),
    "eight_flowers": case(_CHICKEN, "5s", flowers="1f2f3f4f5f6f7f8f"),
    "all_honour_pungs": case("111z222z333z555z7z", "7z", by="discard", from_=3),
    "honours_any": case("1z2z3z4z5z6z7z1z2z3z4z5z6z", "7z"),
    "pure_pungs": case("111m333m555m777m9m", "9m", by="discard", from_=3),
    "pure_one_suit": case("123m456m789m234m5m", "5m", by="discard", from_=3),
    "mixed_pungs": case("111m333m555m777z9m", "9m", by="discard", from_=3),
    "big_hanging": case(
        "9m",
        "9m",
        seat=1,
        by="discard",
        from_=3,
        melds=[
            {"kind": "chi", "tiles": "123m", "from": 0},
            {"kind": "pong", "tiles": "222z", "from": 3},
            {"kind": "chi", "tiles": "456m", "from": 0},
            {"kind": "pong", "tiles": "777z", "from": 2},
        ],
    ),
    "kong_bloom": case(
        "123m456m789p5s", "5s", after_kong=True, melds=[{"kind": "concealed_kong", "tiles": "2222s"}]
    ),
    "mixed_one_suit": case("123m456m789m111z5z", "5z", by="discard", from_=3),
    "all_pungs": case("111m333p555s777z9m", "9m", by="discard", from_=3),
}
