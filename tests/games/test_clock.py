"""The table clock on a fake `now`: bots, pauses, timers, undo windows; stale calls are no-ops."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from common import caches
from games.clock import ticks
from games.engine.errors import EngineError
from games.models import Hand, HandAction, Table
from games.table import commands, opening, snapshots, timers
from tests.games.conftest import bot_table, hand_over, snapshot

pytestmark = pytest.mark.django_db


def test_tick_does_nothing_before_the_deadline(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert table.deadline is not None
    before = snapshot(table.pk)
    assert ticks.tick(table.deadline - timedelta(milliseconds=1)) == 0
    assert snapshot(table.pk) == before
    assert ticks.tick(table.deadline) == 1
    assert snapshot(table.pk) != before


def test_bots_wait_a_human_like_moment(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    ticks.drive_table_until_idle(table.pk, until=lambda t: HandAction.objects.filter(actor="bot").exists())
    first = HandAction.objects.filter(actor="bot").first()
    assert first is not None
    table.refresh_from_db()
    # the bot's delay is between 0.6 and 1.5 s after its decision began
    assert table.hand.started <= first.created


def test_a_table_with_nothing_due_has_no_deadline(alice: User) -> None:
    table = bot_table(alice)
    assert table.deadline is None
    assert ticks.due_tables(timezone.now() + timedelta(days=1)) == []


def test_two_clocks_do_each_thing_once(alice: User) -> None:
    """Two clock processes see the same deadline: the second call is stale and does nothing."""
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    when = table.deadline
    assert timers.timeout(table.pk, table.deadline_version, when) is True
    count = snapshot(table.pk)
    assert timers.timeout(table.pk, table.deadline_version, when) is False
    assert snapshot(table.pk) == count


def test_drive_until_idle_finishes_a_hand(alice: User) -> None:
    table = bot_table(alice, "two_player")
    commands.start_hand(table.pk, alice)
    ticks.drive_table_until_idle(table.pk, until=hand_over)
    assert hand_over(Table.objects.get(pk=table.pk))


def test_run_stops_when_asked() -> None:
    stop = threading.Event()
    stop.set()
    ticks.run(0.01, stop)  # returns at once


def test_a_broken_table_does_not_stop_the_clock(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()

    def boom(*args: object) -> bool:
        raise RuntimeError("boom")

    monkeypatch.setattr(ticks, "timeout", boom)
    assert ticks.tick(table.deadline) == 0


# --- failure isolation ------------------------------------------------------------------------


def _broken_tables(count: int, due: datetime) -> set[int]:
    """`count` open tables due before `due` (rows only: their timeouts are made to fail)."""
    Table.objects.bulk_create(
        Table(variant="shanghai", deadline=due - timedelta(seconds=600 - i / 10), invite_token=f"broken-{i}")
        for i in range(count)
    )
    return set(Table.objects.filter(invite_token__startswith="broken-").values_list("pk", flat=True))


def _failing_for(broken: set[int], calls: Counter[int]) -> Callable[..., bool]:
    real = timers.timeout

    def timeout(table_id: int, version: int, now: datetime | None = None) -> bool:
        calls[table_id] += 1
        if table_id in broken:
            raise EngineError("bad_option", "the two_player option 'cap' must be a whole number ≥ 1")
        return real(table_id, version, now)

    return timeout


def test_three_hundred_failing_tables_never_starve_a_healthy_one(
    alice: User, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The red team's attack: 200+ tables whose timeout raises, with the oldest deadlines. Before the
    fix they were retried on every tick for ever and the healthy table never came up."""
    healthy = bot_table(alice, bots=3)
    commands.start_hand(healthy.pk, alice)
    healthy.refresh_from_db()
    now = healthy.deadline
    assert now is not None
    broken = _broken_tables(300, now)
    calls: Counter[int] = Counter()
    monkeypatch.setattr(ticks, "timeout", _failing_for(broken, calls))
    acted_at: list[int] = []
    for tick in range(1, 80):  # 80 ticks of one second on the fake clock
        before = Table.objects.get(pk=healthy.pk).version
        ticks.tick(now)
        if Table.objects.get(pk=healthy.pk).version != before:
            acted_at.append(tick)
        now += timedelta(seconds=1)
    assert acted_at and acted_at[0] <= 2  # at most one batch of never-failed tables goes first
    assert len(acted_at) > 10  # and the healthy table keeps being served while the others fail
    # each broken table was tried MAX_FAILURES times (with a back-off), then closed and flagged
    assert {calls[t] for t in broken} == {ticks.MAX_FAILURES}
    closed = Table.objects.filter(pk__in=broken)
    assert all(t.status == Table.Status.CLOSED and t.clock_closed and t.deadline is None for t in closed)
    assert all("bad_option" in t.clock_error or "cap" in t.clock_error for t in closed)
    assert not Table.objects.get(pk=healthy.pk).clock_closed
    assert sum("closed table" in r.getMessage() for r in caplog.records if r.levelname == "ERROR") == 300


def test_a_failing_table_backs_off_and_a_success_clears_its_count(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    now = table.deadline
    assert now is not None
    calls: Counter[int] = Counter()
    monkeypatch.setattr(ticks, "timeout", _failing_for({table.pk}, calls))
    ticks.tick(now)
    ticks.tick(now)  # not due again yet: backing off
    assert calls[table.pk] == 1
    row = Table.objects.get(pk=table.pk)
    assert row.clock_failures == 1 and row.deadline == now + ticks.backoff(1) and row.clock_error
    assert [ticks.backoff(n).total_seconds() for n in range(1, 6)] == [1, 2, 4, 8, 16]
    monkeypatch.setattr(ticks, "timeout", _failing_for(set(), calls))  # the fault went away
    ticks.tick(row.deadline)
    row = Table.objects.get(pk=table.pk)
    assert (row.clock_failures, row.clock_error, row.status) == (0, "", Table.Status.PLAYING)


def test_a_hand_stored_with_a_bad_option_is_closed_not_retried_for_ever(
    alice: User, caplog: pytest.LogCaptureFixture
) -> None:
    """A real engine failure: a hand stored (before validation existed) with two_player cap 0."""
    table = bot_table(alice, "two_player")
    commands.start_hand(table.pk, alice)
    hand = Table.objects.get(pk=table.pk).hand
    Hand.objects.filter(pk=hand.pk).update(setup={**hand.setup, "options": {"cap": 0}})
    caches.clear_all()
    snapshots.forget()
    now = timezone.now()
    for _ in range(40):
        ticks.tick(now)
        now += timedelta(seconds=1)
    row = Table.objects.get(pk=table.pk)
    assert row.status == Table.Status.CLOSED and row.clock_closed and "cap" in row.clock_error
    assert any("closed table" in r.getMessage() for r in caplog.records)


def test_the_admin_sees_the_clock_flag(admin_client: Client, alice: User) -> None:
    table = opening.create_table(alice, "shanghai")
    Table.objects.filter(pk=table.pk).update(clock_closed=True, clock_error="EngineError: cap")
    html = admin_client.get(
        "/admin/games/table/?clock=closed", headers={"Accept-Language": "en"}
    ).content.decode()
    assert "EngineError: cap" in html
    assert admin_client.get("/admin/games/table/?clock=failing").content.decode().count("EngineError") == 0


def test_a_slow_table_holds_one_thread_never_the_others(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The threaded clock: while one table's timeout hangs, later ticks go on serving the others
    and never start the hanging table again (waits are on events, never on wall-clock time)."""
    now = timezone.now()
    slow, healthy = (opening.create_table(alice, "shanghai").pk for _ in range(2))
    Table.objects.filter(pk__in=[slow, healthy]).update(deadline=now - timedelta(seconds=1))
    release, calls = threading.Event(), Counter[int]()
    served = threading.Semaphore(0)

    def timeout(table_id: int, version: int, at: datetime | None = None) -> bool:
        calls[table_id] += 1
        if table_id == slow:
            release.wait(60)
        else:
            served.release()
        return True

    monkeypatch.setattr(ticks, "timeout", timeout)
    monkeypatch.setattr(ticks, "close_old_connections", lambda: None)  # the test's one connection
    scheduler = ticks.Scheduler(threads=2)
    try:
        for _ in range(3):
            scheduler.tick(now)
            assert served.acquire(timeout=30)  # the healthy table is served on every tick
        assert calls[healthy] == 3 and calls[slow] == 1 and slow in scheduler.running
    finally:
        release.set()
        scheduler.close()
    assert not scheduler.running


class _CountingScheduler:
    """Stands in for the Scheduler: notes the ticks made while a reap is running."""

    reaping = threading.Event()
    ticked_while_reaping = threading.Event()

    def __init__(self, threads: int) -> None:
        pass

    def tick(self, now: datetime | None = None) -> int:
        if self.reaping.is_set():
            self.ticked_while_reaping.set()
        return 0

    def close(self) -> None:
        pass


def test_the_clock_keeps_ticking_while_it_drops_a_dead_process_s_sockets(
    monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    """A killed process's thousands of sockets took the reaper tens of seconds, on
    the ticking thread: every timer and held claim of every table waited meanwhile (claims
    confirmed to their players were still uncommitted when the load test counted them)."""
    settings.DB_THREADS = 4  # type: ignore[attr-defined]  # PostgreSQL's shape: a Scheduler
    release = threading.Event()
    _CountingScheduler.reaping.clear()
    _CountingScheduler.ticked_while_reaping.clear()

    def slow_reap(now: datetime | None = None) -> int:
        _CountingScheduler.reaping.set()
        release.wait(30)
        return 0

    monkeypatch.setattr(ticks.presence, "reap", slow_reap)
    monkeypatch.setattr(ticks, "Scheduler", _CountingScheduler)
    monkeypatch.setattr(ticks, "close_old_connections", lambda: None)
    stop = threading.Event()
    loop = threading.Thread(target=ticks.run, kwargs={"interval": 0.01, "stop": stop})
    loop.start()
    try:
        assert _CountingScheduler.reaping.wait(10)
        assert _CountingScheduler.ticked_while_reaping.wait(10), "no tick while the reap ran"
    finally:
        release.set()
        stop.set()
        loop.join(30)
    assert not loop.is_alive()


def test_a_reap_still_running_is_not_started_again(monkeypatch: pytest.MonkeyPatch) -> None:
    release, calls = threading.Event(), Counter[str]()

    def slow_reap(now: datetime | None = None) -> int:
        calls["reap"] += 1
        release.wait(30)
        return 0

    monkeypatch.setattr(ticks.presence, "reap", slow_reap)
    monkeypatch.setattr(ticks, "close_old_connections", lambda: None)
    reaper = ticks.Reaper(background=True)
    reaper()
    reaper.next = 0.0  # due again at once
    reaper()
    release.set()
    reaper.join(10)
    assert calls["reap"] == 1 and not reaper.busy()
