"""The table clock: timers, bots, 托管, undo windows and pauses happen here, browser or not.

Every table stores its next `deadline` and the version it was computed for. `tick(now)` calls
`games.table.timers.timeout(table, version)` for each table past its deadline; a stale call is a no-op,
so any number of clock processes may run side by side. `make run` starts one
(`python manage.py run_clock`). Tests call `tick` or `drive_table_until_idle` with a fake
`now` instead of sleeping.

Failure isolation (docs/operations.md): a timeout that raises is retried after a
back-off (1, 2, 4, 8 s); after MAX_FAILURES in a row the table is closed with the error recorded
(`Table.clock_closed`, `clock_error`: the admin's "clock trouble" filter). Failing tables are
taken after every healthy one, so they never hold up another table's timers and bots. With
PostgreSQL `run` ticks through a `Scheduler`: each timeout on a thread of its own, so a slow table
holds one thread and never the others. Either way, every sweep in `SWEEPS` (quick match,
announcements, tournaments, reviews) runs once a period, each isolated from the others' failures.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games.matchmaking import seating
from games.models import Table
from games.moderation import live_tables
from games.review import services as reviews
from games.social import announcements
from games.sockets import presence
from games.table.timers import timeout
from games.tournaments import services as tournaments

log = logging.getLogger(__name__)

INTERVAL = 0.2  # seconds between ticks
# `run` sweeps once every this many ticks (once a second): a quick match's bots, an announcement,
# a tournament's round or a review a second late is nothing, and the sweeps' six statements on
# every tick were 30 a second, whatever the load, most of the clock's own (docs/benchmarks.md).
SWEEP_EVERY = 5
BATCH = 200  # tables per tick at most
MAX_FAILURES = 5  # failed timeouts in a row before the clock closes a table
BACKOFF_MAX = 60  # seconds: the longest wait before retrying a failing table
REAP_SECONDS = presence.HEARTBEAT_SECONDS  # how often the clock looks for dead server processes


def due_tables(now: datetime, busy: Collection[int] = ()) -> list[tuple[int, int, int]]:
    """(table id, deadline version, failures so far) of the open tables past their deadline,
    but for the `busy` ones (their timeout is still running on a thread).

    Tables whose timeouts have been failing come last: however many there are, they never take
    the batch from a healthy table (200 broken tables once starved every other table)."""
    rows = Table.objects.filter(deadline__lte=now).exclude(status=Table.Status.CLOSED)
    if busy:
        rows = rows.exclude(pk__in=list(busy))
    ordered = rows.order_by("clock_failures", "deadline")
    return list(ordered.values_list("pk", "deadline_version", "clock_failures")[:BATCH])


def tick(now: datetime | None = None) -> int:
    """One pass over the due tables; returns how many changed."""
    now = now or timezone.now()
    changed = 0
    for table_id, version, failures in due_tables(now):
        try:
            changed += timeout(table_id, version, now)
        except Exception as e:  # one broken table must not stop the others' clocks
            outcome(table_id, version, failures, e, now)
        else:
            outcome(table_id, version, failures, None, now)
    return changed + sweeps(now)


def _announcements_sweep(now: datetime) -> int:
    announcements.sweep(now)
    return 0  # it changes no table


# The work of the clock that is not one table's timeout, in order. Both ways of ticking (`tick`
# and `run` with a Scheduler) call `sweeps` once a period: a list kept in one place, since a
# sweep added to one path only once never ran under PostgreSQL.
SWEEPS: tuple[tuple[str, Callable[[datetime], int]], ...] = (
    ("quick-match", lambda now: seating.sweep(now)),  # bots fill for players whose wait ran out
    ("announcement", _announcements_sweep),  # announcements starting or expiring reach the boards
    ("tournament", lambda now: tournaments.sweep(now)),  # rounds start and end
    ("review", lambda now: reviews.sweep(now)),  # a pending 复盘 onto the clock's review thread
)


def sweeps(now: datetime | None = None) -> int:
    """Run every sweep once; one that raises is logged and never stops the next. Returns how many
    tables changed."""
    now = now or timezone.now()
    changed = 0
    for name, sweep in SWEEPS:
        try:
            changed += sweep(now) or 0
        except Exception:
            log.exception("clock: the %s sweep failed", name)
    return changed


def outcome(table_id: int, version: int, failures: int, error: BaseException | None, now: datetime) -> None:
    """Book one timeout's end: a failure backs the table off (or closes it); a success after
    failures clears the count."""
    if error is not None:
        log.error("clock: table %s failed (%s in a row)", table_id, failures + 1, exc_info=error)
        failed(table_id, version, failures + 1, error, now)
    elif failures:
        Table.objects.filter(pk=table_id).update(clock_failures=0, clock_error="")


class Scheduler:
    """The clock on a pool of threads (`run` uses it with PostgreSQL): each due table's timeout
    runs on a thread of its own, and a table whose timeout is still running is skipped by later
    ticks — so a slow table holds one thread, never the tick or another table. Up to
    `threads` − 1 slow tables at once leave the others served. The outcomes are booked by the
    ticking thread."""

    def __init__(self, threads: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="clock")
        self.running: dict[int, tuple[Future[bool], int, int, datetime]] = {}

    def tick(self, now: datetime | None = None) -> int:
        """Book the finished timeouts, then start those of the due tables not already running;
        returns how many were started."""
        now = now or timezone.now()
        self.collect()
        due = due_tables(now, busy=self.running)
        for table_id, version, failures in due:
            future = self.pool.submit(_timeout_on_thread, table_id, version, now)
            self.running[table_id] = (future, version, failures, now)
        return len(due)

    def collect(self) -> None:
        for table_id, (future, version, failures, started) in list(self.running.items()):
            if future.done():
                del self.running[table_id]
                outcome(table_id, version, failures, future.exception(), started)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        self.collect()


def _timeout_on_thread(table_id: int, version: int, now: datetime) -> bool:
    try:
        return timeout(table_id, version, now)
    finally:
        close_old_connections()  # each clock thread holds its own connection


def backoff(failures: int) -> timedelta:
    """How long the clock leaves a table alone after its `failures`-th failure in a row."""
    return timedelta(seconds=min(BACKOFF_MAX, 2 ** (failures - 1)))


def failed(table_id: int, version: int, failures: int, error: BaseException, now: datetime) -> None:
    """Record a failed timeout (its own transaction rolled back): retry after a back-off, and give
    the table up after MAX_FAILURES. A table that moved on meanwhile is left as it is."""
    reason = f"{type(error).__name__}: {error}"[:300]
    if failures >= MAX_FAILURES:
        close_broken(table_id, reason)
        return
    Table.objects.filter(pk=table_id, deadline_version=version).update(
        clock_failures=failures, clock_error=reason, deadline=now + backoff(failures)
    )


def close_broken(table_id: int, reason: str) -> None:
    """Close a table the clock cannot run: as an admin would (the hand settled as drawn, the seats
    freed, the players told), or — when even that fails — by marking the row closed."""
    try:
        live_tables.close_table(table_id)
    except Exception:
        log.exception("clock: table %s could not be closed normally; marking it closed", table_id)
        Table.objects.filter(pk=table_id).update(status=Table.Status.CLOSED, deadline=None)
    Table.objects.filter(pk=table_id).update(
        clock_failures=MAX_FAILURES, clock_error=reason, clock_closed=True, deadline=None
    )
    log.error("clock: closed table %s after %s failed timeouts: %s", table_id, MAX_FAILURES, reason)


class Reaper:
    """Runs `presence.reap` every REAP_SECONDS of a clock's loop (not on every tick), on a
    thread of its own: the loop never waits for it.

    A killed process leaves thousands of sockets (two per table at 1,000 tables on two
    processes), and dropping each locks and loads its table: tens of seconds of work. Run on the
    ticking thread it stopped every timer, bot and held claim of every table meanwhile (and
    claims confirmed to their players sat past their undo window uncommitted). A reap still
    running when the next is due is not started twice. `background=False` (SQLite, one writer at
    a time: the in-process clock) reaps on the caller's thread, as before."""

    def __init__(self, background: bool = False) -> None:
        self.next = 0.0
        self.background = background
        self.thread: threading.Thread | None = None

    def __call__(self) -> None:
        if time.monotonic() < self.next or self.busy():
            return
        self.next = time.monotonic() + REAP_SECONDS
        if not self.background:
            self._reap()
            return
        self.thread = threading.Thread(target=self._reap_on_thread, name="clock-reaper", daemon=True)
        self.thread.start()

    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        if self.thread is not None:
            self.thread.join(timeout)

    @staticmethod
    def _reap() -> None:
        try:
            presence.reap()
        except Exception:  # the database restarting: next time
            log.exception("looking for dead server processes failed")

    @classmethod
    def _reap_on_thread(cls) -> None:
        try:
            cls._reap()
        finally:
            close_old_connections()  # the reaper thread's own connection


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
    """Tick forever (or until `stop` is set): on `DB_THREADS` threads (a Scheduler) when the
    database takes concurrent writers, else one table after another."""
    stop = stop or threading.Event()
    threads = int(getattr(settings, "DB_THREADS", 1))
    log.info("table clock running every %.0f ms on %s thread(s)", interval * 1000, threads)
    scheduler = Scheduler(threads) if threads > 1 else None
    reap = Reaper(background=scheduler is not None)  # concurrent writers: reap beside the ticks
    count = 0
    while not stop.is_set():
        started = time.monotonic()
        try:
            if scheduler is not None:
                now = timezone.now()
                scheduler.tick(now)
                if count % SWEEP_EVERY == 0:
                    sweeps(now)
                count += 1
            else:
                tick()
            reap()
        except Exception:  # e.g. the database restarting: keep going
            log.exception("clock tick failed")
            close_old_connections()
        close_old_connections()
        stop.wait(max(0.0, interval - (time.monotonic() - started)))
    if scheduler is not None:
        scheduler.close()
    reap.join(timeout=30)
