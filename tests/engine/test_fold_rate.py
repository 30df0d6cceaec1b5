"""The fold counter (scripts/fold_rate.py): the arena's own hands, with strong's fold test counted."""

from __future__ import annotations

import sys
from pathlib import Path

from games.engine.bots import policies
from games.engine.bots.arena import arena

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import fold_rate  # noqa: E402


def test_the_counted_hands_are_the_arenas_move_for_move() -> None:
    counted = fold_rate.fold_rate("shanghai", "strong", 12, seed=3)
    summary, _ = arena("shanghai", 12, ["strong"] * 4, seed=3)
    plain = summary["levels"]["strong"]
    assert counted["draw_rate"] == summary["draw_rate"]
    assert (counted["win_rate"], counted["deal_in_rate"]) == (plain["win_rate"], plain["deal_in_rate"])


def test_strong_folds_somewhere_and_the_test_is_put_back() -> None:
    before = policies.should_fold
    counted = fold_rate.fold_rate("shanghai", "strong", 40, seed=5)
    assert policies.should_fold is before
    assert 0 < counted["folded_discards"] < 1
    assert 0 < counted["seat_hands_with_a_fold"] <= 1


def test_normal_never_folds() -> None:
    # normal reads no danger (policies.NORMAL: defend=False), so the test never says fold
    counted = fold_rate.fold_rate("shanghai", "normal", 12, seed=3)
    assert counted["folded_discards"] == 0
    assert counted["seat_hands_with_a_fold"] == 0
