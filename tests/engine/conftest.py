"""Engine tests: expert's two-player look-ahead stops on its state budget alone, not the clock,
so two calls on the same view make the same move however loaded the machine is (the re-deal
tests compare them)."""

from __future__ import annotations

import pytest

from games.engine.bots import win_chance


@pytest.fixture(autouse=True)
def _win_chance_on_states_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(win_chance, "TIME_MS", None)
