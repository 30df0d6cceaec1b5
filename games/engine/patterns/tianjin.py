"""天津麻将 patterns (docs/rules/tianjin.md §Score) and one example hand for each."""

from __future__ import annotations

from typing import Any

from games.engine.patterns.base import Group, Pattern, case

GROUPS = (
    Group(
        "factor",
        "翻倍",
        "Multipliers",
        "底为 1，各项相乘；其他每家付 分 × 庄闲倍数 × 底分",
        "Start from 1 and multiply; each other player pays value × pair multiplier × base stake.",
    ),
)

PATTERNS = (
    Pattern(
        "clean",
        "素的",
        "Clean (no jokers)",
        2,
        "factor",
        "factor",
        "手里（含和牌）没有一张混牌",
        "Not one joker tile in the hand, the winning tile included.",
    ),
    Pattern(
        "joker_wait",
        "混吊",
        "Joker wait",
        2,
        "factor",
        "factor",
        "单混吊（四副牌 + 一张混）或双混吊（三副 + 一对 + 两张混），摸任何牌都和",
        "Four melds + one joker, or three melds + a pair + two jokers: any tile drawn wins.",
    ),
    Pattern(
        "catch_five",
        "捉5",
        "Catch the five",
        2,
        "factor",
        "factor",
        "和牌是五万（或混）并组成四五六万",
        "The winning tile is 5m (or a joker) completing a 4m-5m-6m run.",
    ),
    Pattern(
        "dragon",
        "龙",
        "Dragon (1–9 run)",
        4,
        "factor",
        "factor",
        "同一花色一到九成三副顺子（可用混代替）",
        "1 to 9 of one suit as three runs in the hand (jokers may stand in).",
    ),
    Pattern(
        "kong_bloom",
        "杠开",
        "Win on a kong replacement",
        2,
        "factor",
        "factor",
        "杠后补牌自摸",
        "Self-drawn on the replacement tile after a kong.",
    ),
)

_JOKERS = "3p4p"  # e.g. the indicator 3p: jokers are 3p and 4p
EXAMPLES: dict[str, dict[str, Any]] = {
    "clean": case("123m456m789p234s5s", "5s", jokers=_JOKERS),
    "joker_wait": case("123m456m789s222z3p", "7z", jokers=_JOKERS),
    "catch_five": case("123s789p222z55s46m", "5m", jokers=_JOKERS),
    "dragon": case("123m456m789m222z5s", "5s", jokers=_JOKERS),
    "kong_bloom": case(
        "123m456m789p5s",
        "5s",
        jokers=_JOKERS,
        after_kong=True,
        melds=[{"kind": "concealed_kong", "tiles": "2222s"}],
    ),
}
