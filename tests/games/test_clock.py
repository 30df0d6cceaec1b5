"""The table clock on a fake `now`: bots, pauses, timers, undo windows; stale calls are no-ops."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import clock, services
from games.models import HandAction, Table
from tests.games.conftest import bot_table, hand_over, snapshot

pytestmark = pytest.mark.django_db


def test_tick_does_nothing_before_the_deadline(alice: User) -> None:
    table = bot_table(alice)
    services.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert table.deadline is not None
    before = snapshot(table.pk)
    assert clock.tick(table.deadline - timedelta(milliseconds=1)) == 0
    assert snapshot(table.pk) == before
    assert clock.tick(table.deadline) == 1
    assert snapshot(table.pk) != before


def test_bots_wait_a_human_like_moment(alice: User) -> None:
    table = bot_table(alice)
    services.start_hand(table.pk, alice)
    clock.drive_table_until_idle(table.pk, until=lambda t: HandAction.objects.filter(actor="bot").exists())
    first = HandAction.objects.filter(actor="bot").first()
    assert first is not None
    table.refresh_from_db()
    # the bot's delay is between 0.6 and 1.5 s after its decision began
    assert table.hand.started <= first.created


def test_a_table_with_nothing_due_has_no_deadline(alice: User) -> None:
    table = bot_table(alice)
    assert table.deadline is None
    assert clock.due_tables(timezone.now() + timedelta(days=1)) == []


def test_two_clocks_do_each_thing_once(alice: User) -> None:
    """Two clock processes see the same deadline: the second call is stale and does nothing."""
    table = bot_table(alice)
    services.start_hand(table.pk, alice)
    table.refresh_from_db()
    when = table.deadline
    assert services.timeout(table.pk, table.deadline_version, when) is True
    count = snapshot(table.pk)
    assert services.timeout(table.pk, table.deadline_version, when) is False
    assert snapshot(table.pk) == count


def test_drive_until_idle_finishes_a_hand(alice: User) -> None:
    table = bot_table(alice, "two_player")
    services.start_hand(table.pk, alice)
    clock.drive_table_until_idle(table.pk, until=hand_over)
    assert hand_over(Table.objects.get(pk=table.pk))


def test_run_stops_when_asked() -> None:
    stop = threading.Event()
    stop.set()
    clock.run(0.01, stop)  # returns at once


def test_a_broken_table_does_not_stop_the_clock(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    table = bot_table(alice)
    services.start_hand(table.pk, alice)
    table.refresh_from_db()

    def boom(*args: object) -> bool:
        raise RuntimeError("boom")

    monkeypatch.setattr(clock, "timeout", boom)
    assert clock.tick(table.deadline) == 0
