"""The settlement's arithmetic line: its numbers are the engine's, for every variant."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.engine.simulate import play_hand
from games.engine.view import view_for
from games.rendering.settlement_lines import settlement_line

VARIANTS = ("shanghai", "yihua", "cantonese", "tianjin", "two_player")
NAMES = ["Ann", "Bo", "Cy", "Di"]


def winning_scores(variant: str, base: int, hands: int, **setup: Any) -> list[dict[str, Any]]:
    scores = []
    for seed in range(hands):
        state, _log, _problems = play_hand(variant, 7919 * seed + 11, check=False, base=base, **setup)
        result = view_for(state, None).get("result") or {}
        scores += [s for s in result.get("scores", []) if s.get("win", True)]
    return scores


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\^\d])\d+", text)]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_line_reaches_the_engines_value_and_payments(variant: str, language: str) -> None:
    base = 2 if variant == "yihua" else 3
    scores = winning_scores(variant, base, 30)
    assert len(scores) >= 5, "too few wins to check"
    with translation.override(language):
        for score in scores:
            line = settlement_line(variant, score, base, NAMES)
            assert line.value == score["value"], (score, line.text)  # the formula adds up
            paid = {s: -p for s, p in enumerate(score["payments"]) if p < 0}
            assert line.amounts == paid
            said = numbers(line.text)
            assert score["value"] in said
            for amount in paid.values():  # every payment is in the line
                assert amount in said, (line.text, paid)


def test_shanghai_fan_and_huangfan() -> None:
    score = {
        "seat": 0,
        "value": 20,
        "payments": [180, -60, -60, -60],
        "breakdown": [["mixed_one_suit", 1], ["base_flowers", 5], ["huangfan", 2]],
    }
    with translation.override("en"):
        line = settlement_line("shanghai", score, 3, NAMES)
    assert "5 base flowers × 2^1 fan × 2 荒番 = 20 flowers × base 3 = 60" in line.text
    assert line.text.endswith("60 from each")


def test_a_formula_that_does_not_reach_the_value_is_not_shown() -> None:
    score = {"seat": 1, "value": 99, "payments": [-99, 99], "breakdown": [["flowers", 2]]}
    with translation.override("en"):
        line = settlement_line("two_player", score, 1, NAMES)
    assert line.value is None and line.text == "Ann pays 99"


def test_a_related_payer_pays_a_multiple() -> None:
    score = {"seat": 0, "value": 5, "payments": [20, -5, -10, -5], "breakdown": [["base_flowers", 5]]}
    with translation.override("en"):
        line = settlement_line("shanghai", score, 1, NAMES)
    assert line.text.endswith("Bo pays 5, Cy pays 10 (×2), Di pays 5")
