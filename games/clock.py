"""The table clock: timers, bots, 托管, undo windows and pauses happen here, browser or not.

Every table stores its next `deadline` and the version it was computed for. `tick(now)` calls
`services.timeout(table, version)` for each table past its deadline; a stale call is a no-op,
so any number of clock processes may run side by side. `make run` starts one
(`python manage.py run_clock`). Tests call `tick` or `drive_table_until_idle` with a fake
`now` instead of sleeping.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import close_old_connections
from django.utils import timezone

from games import announcements, matchmaking, presence
from games.models import Table
from games.services import ServiceError, timeout

log = logging.getLogger(__name__)

INTERVAL = 0.2  # seconds between ticks
BATCH = 200  # tables per tick at most
REAP_SECONDS = presence.HEARTBEAT_SECONDS  # how often the clock looks for dead server processes


def due_tables(now: datetime) -> list[tuple[int, int]]:
    """(table id, deadline version) of every open table whose deadline has passed."""
    rows = (
        Table.objects.filter(deadline__lte=now)
        .exclude(status=Table.Status.CLOSED)
        .order_by("deadline")
        .values_list("pk", "deadline_version")[:BATCH]
    )
    return list(rows)


def tick(now: datetime | None = None) -> int:
    """One pass over the due tables; returns how many changed."""
    now = now or timezone.now()
    changed = 0
    for table_id, version in due_tables(now):
        try:
            changed += timeout(table_id, version, now)
        except ServiceError as e:
            log.warning("clock: table %s: %s", table_id, e)
        except Exception:  # one broken table must not stop the others' clocks
            log.exception("clock: table %s failed", table_id)
    try:  # quick match: bots fill for players whose wait ran out; silent players leave the queue
        changed += matchmaking.sweep(now)
        announcements.sweep(now)  # announcements starting or expiring reach the open boards
    except Exception:
        log.exception("clock: the quick-match or announcement sweep failed")
    return changed


class Reaper:
    """Runs `presence.reap` every REAP_SECONDS of a clock's loop (not on every tick)."""

    def __init__(self) -> None:
        self.next = 0.0

    def __call__(self) -> None:
        if time.monotonic() < self.next:
            return
        self.next = time.monotonic() + REAP_SECONDS
        try:
            presence.reap()
        except Exception:  # the database restarting: next time
            log.exception("looking for dead server processes failed")


def drive_table_until_idle(
    table_id: int,
    now: datetime | None = None,
    until: Callable[[Table], bool] | None = None,
    max_steps: int = 5000,
) -> datetime:
    """Jump a fake clock from deadline to deadline at one table until it has nothing due
    (or `until(table)` holds); returns the fake time reached. For tests and scripts."""
    now = now or timezone.now()
    for _ in range(max_steps):
        table = Table.objects.get(pk=table_id)
        if (until is not None and until(table)) or table.deadline is None:
            return now
        now = max(now, table.deadline)
        timeout(table_id, table.deadline_version, now)
    raise RuntimeError(f"table {table_id} still busy after {max_steps} steps")


def run(interval: float = INTERVAL, stop: threading.Event | None = None) -> None:
    """Tick forever (or until `stop` is set)."""
    stop = stop or threading.Event()
    log.info("table clock running every %.0f ms", interval * 1000)
    reap = Reaper()
    while not stop.is_set():
        started = time.monotonic()
        try:
            tick()
            reap()
        except Exception:  # e.g. the database restarting: keep going
            log.exception("clock tick failed")
            close_old_connections()
        close_old_connections()
        stop.wait(max(0.0, interval - (time.monotonic() - started)))


def after(now: datetime, seconds: float) -> datetime:
    return now + timedelta(seconds=seconds)
