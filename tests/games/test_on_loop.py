"""A socket's hand action made on the event loop, its one statement sent on the loop's own
connection (games/table/on_loop.py, common/loop_db.py): no play thread when the snapshot decides
it; a play thread, answering as before, for everything else; a connection the server closed is
not used again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from common import loop_db
from games.models import HandAction, Table
from games.table import on_loop, snapshots
from games.table.errors import ServiceError
from tests.games.test_unlocked import dealer_discards, started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the loop's connection sees only what is committed
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's connection is PostgreSQL's"),
]


@pytest.fixture(autouse=True)
def _fresh_snapshots() -> None:
    snapshots.forget()


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The calls handed to a play thread (run here, on the caller's thread: the test's loop is
    its only one)."""
    calls: list[tuple[Any, ...]] = []

    def closing(function: Any, *args: Any) -> Any:
        try:
            return function(*args)
        finally:
            connections.close_all()  # (the worker thread's own connection)

    async def on_play_thread(function: Any, *args: Any) -> Any:
        calls.append(args)
        return await asyncio.to_thread(closing, function, *args)

    monkeypatch.setattr(on_loop, "on_play_thread", on_play_thread)
    return calls


def _perform(*args: Any) -> Any:
    async def run() -> Any:
        return await on_loop.perform(*args)

    return asyncio.run(run())


def test_a_hand_action_is_made_on_the_loop(alice: User, threads: list[tuple[Any, ...]]) -> None:
    table, dealer = started_table(alice)
    done = _perform(table.pk, dealer, table.version, dealer_discards(table)[0])
    assert threads == []
    assert done.revision == table.revision + 1
    assert Table.objects.get(pk=table.pk).revision == done.revision
    assert HandAction.objects.filter(hand__table=table).count() == 1
    assert snapshots.at(table.pk, done.revision) is not None  # kept, for the sockets' frames


def test_off_or_a_table_command_goes_to_a_thread(
    alice: User, threads: list[tuple[Any, ...]], settings: Any
) -> None:
    table, dealer = started_table(alice)
    with pytest.raises(ServiceError):  # (a table command: the thread answers it)
        _perform(table.pk, dealer, table.version, {"type": "sit", "seat": 0})
    assert len(threads) == 1
    settings.LOOP_DB_CONNECTIONS = 0
    done = _perform(table.pk, dealer, table.version, dealer_discards(table)[0])
    assert len(threads) == 2 and done.revision == table.revision + 1


def test_a_table_that_moved_on_is_done_on_a_thread(alice: User, threads: list[tuple[Any, ...]]) -> None:
    """The snapshot is behind the row (another process changed it): the loop's statement writes
    nothing, and the thread, under the lock, answers as it always did."""
    table, dealer = started_table(alice)
    Table.objects.filter(pk=table.pk).update(revision=table.revision + 5)
    done = _perform(table.pk, dealer, table.version, dealer_discards(table)[0])
    assert len(threads) == 1
    assert done.revision == table.revision + 6
    assert HandAction.objects.filter(hand__table=table).count() == 1  # (written once)


def test_a_connection_the_server_closed_is_not_used_again(db: None) -> None:
    """Terminated while idle (`pg_terminate_backend`, as a restart would): the next statement
    goes out on a fresh connection, without an error."""

    async def pids() -> list[int]:
        row = await loop_db.fetch_one("SELECT pg_backend_pid()", [])
        assert row is not None
        await asyncio.to_thread(_terminate, [row[0]])
        await asyncio.sleep(0.2)  # (the server's FATAL message arrives)
        again = await loop_db.fetch_one("SELECT pg_backend_pid()", [])
        assert again is not None
        return [row[0], again[0], loop_db.open_here()]

    first, second, count = asyncio.run(pids())
    assert first != second and count == 1


def _terminate(pids: list[int]) -> None:
    try:
        with connection.cursor() as cursor:
            for pid in pids:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        connections.close_all()  # (the worker thread's own connection)
