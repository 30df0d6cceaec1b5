"""Whole hands by bots for every variant: no errors, no invariant violations, repeatable."""

from __future__ import annotations

import pytest

from games.engine.rulesets import VARIANT_IDS
from games.engine.simulate import simulate


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_bots_play_whole_hands_cleanly(variant):
    result = simulate(variant, hands=6, seed=2024)
    assert result["errors"] == 0
    assert result["invariant_violations"] == 0
    assert result["wins"] + result["draws"] == 6
    assert simulate(variant, hands=6, seed=2024)["digest"] == result["digest"]


def test_random_bots_never_break_the_machine():
    for variant in VARIANT_IDS:
        result = simulate(variant, hands=3, seed=7, bot="random")
        assert result["errors"] == 0 and result["invariant_violations"] == 0
