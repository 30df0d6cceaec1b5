"""Every sweep of the clock — quick match (bots fill), announcements, tournaments — runs once a
period on both ways of ticking: the in-order `tick` (SQLite: every tick) and the Scheduler
(PostgreSQL: every `SWEEP_EVERY` ticks, while tables are ticked every time).
The Scheduler path once ran only the tournament sweep, so under PostgreSQL no bot ever filled a
quick-match table and no announcement reached the boards."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import datetime

import pytest

from games.clock import ticks

PERIODS = 3


class _IdleScheduler:
    """Stands in for the Scheduler: no table is due; counts its ticks."""

    ticks = 0

    def __init__(self, threads: int) -> None:
        _IdleScheduler.ticks = 0

    def tick(self, now: datetime | None = None) -> int:
        _IdleScheduler.ticks += 1
        return 0

    def close(self) -> None:
        pass


def _count_sweeps(monkeypatch: pytest.MonkeyPatch, stop: threading.Event) -> Counter[str]:
    calls = Counter[str]()

    def counting(name: str, last: bool = False):  # noqa: ANN202 - a stand-in sweep
        def sweep(now: datetime | None = None) -> int:
            calls[name] += 1
            if last and calls[name] >= PERIODS:
                stop.set()
            return 0

        return sweep

    monkeypatch.setattr(ticks.seating, "sweep", counting("quick-match"))
    monkeypatch.setattr(ticks.announcements, "sweep", counting("announcement"))
    monkeypatch.setattr(ticks.tournaments, "sweep", counting("tournament", last=True))
    monkeypatch.setattr(ticks.presence, "reap", lambda: 0)
    monkeypatch.setattr(ticks, "close_old_connections", lambda: None)
    return calls


@pytest.mark.django_db
@pytest.mark.parametrize("threads", [1, 4], ids=["in-order tick", "scheduler"])
def test_every_sweep_runs_once_a_period_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, settings: object, threads: int
) -> None:
    settings.DB_THREADS = threads  # type: ignore[attr-defined]  # 4: PostgreSQL's shape
    monkeypatch.setattr(ticks, "Scheduler", _IdleScheduler)
    stop = threading.Event()
    calls = _count_sweeps(monkeypatch, stop)
    ticks.run(0.0, stop)
    assert calls == {"quick-match": PERIODS, "announcement": PERIODS, "tournament": PERIODS}
    if threads > 1:  # the tables were ticked in between, every time
        assert _IdleScheduler.ticks == (PERIODS - 1) * ticks.SWEEP_EVERY + 1


def test_a_failing_sweep_does_not_keep_the_others_from_running(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    calls = _count_sweeps(monkeypatch, stop)

    def broken(now: datetime | None = None) -> int:
        raise RuntimeError("the queue is unreachable")

    monkeypatch.setattr(ticks.seating, "sweep", broken)
    ticks.sweeps()
    assert calls == {"announcement": 1, "tournament": 1}
