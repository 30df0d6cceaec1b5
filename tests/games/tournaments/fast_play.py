"""Start a server process that plays fast, for tests that run real processes:
`python -m tests.games.tournaments.fast_play manage.py run_clock --interval 0.05` (or
`… -m daphne …`). Bots and 托管 act at once, there is no pause after a discard and the settlement
is short; the rules of play are unchanged, only the waits are shorter. The waits are set as
Django finishes setting up, before any table is touched."""

from __future__ import annotations

import runpy
import sys

import django

_setup = django.setup


def _fast_setup(*args: object, **kwargs: object) -> None:
    _setup(*args, **kwargs)  # type: ignore[arg-type]
    from games.table import timing
    from games.tournaments import seats, services

    timing.BOT_DELAY = (0.0, 0.01)
    timing.DISCONNECTED_DELAY = 0.0
    timing.SETTLEMENT_SECONDS = 0.5
    services.TABLE_TIMERS.update(min_pause_ms=0, undo_ms=0)
    seats.TOURNAMENT_BOT_LEVEL = "easy"


if __name__ == "__main__":
    django.setup = _fast_setup
    args = sys.argv[1:]
    if args[:1] == ["-m"]:
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
