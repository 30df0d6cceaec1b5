"""A hand action's one statement sent from the socket's event loop, on an asynchronous psycopg
connection of the loop's own, instead of handing the whole call to a play thread
(common.db_threads): the hop there and back (a queue, a thread woken, the result handed back to
the loop) and the GIL changing hands twice cost more CPU than the round trip itself
(docs/benchmarks.md, "Cost per action: the hand action's statement on the loop").

Only where a change needs nothing but that statement (games.table.on_loop); everything else
stays on the threads. PostgreSQL only (`LOOP_DB_CONNECTIONS` > 0); with SQLite, or 0, nothing is
done here and every call goes to a thread as before.

A connection is checked before each use as a play thread checks its kept one (common.db_threads):
without a round trip, by looking whether the server sent it anything while it sat idle — its
FATAL message after a restart or `pg_terminate_backend`, or the stream's end. Such a connection
is closed and a fresh one made. One that breaks during its statement is dropped and the error
raised, as a play thread's would be.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections

_READABLE = select.POLLIN | select.POLLERR | select.POLLHUP


class Busy(Exception):
    """Every connection of the loop is in use: do it on a thread."""


class _Connections:
    """The loop's connections: each sends one statement at a time."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.idle: list[tuple[psycopg.AsyncConnection[Any], psycopg.AsyncCursor[Any]]] = []
        self.count = 0

    async def checkout(self) -> tuple[psycopg.AsyncConnection[Any], psycopg.AsyncCursor[Any]]:
        while self.idle:
            pair = self.idle.pop()
            if _usable(pair[0]):
                return pair
            await self._drop(pair[0])
        if self.count >= self.limit:
            raise Busy
        self.count += 1
        try:
            return await _connect()
        except BaseException:
            self.count -= 1
            raise

    def checkin(self, pair: tuple[psycopg.AsyncConnection[Any], psycopg.AsyncCursor[Any]]) -> None:
        if _usable(pair[0]) and pair[0].info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            self.idle.append(pair)
        else:
            self.count -= 1
            asyncio.ensure_future(pair[0].close())

    async def _drop(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self.count -= 1
        with contextlib.suppress(psycopg.Error):
            await connection.close()


_BY_LOOP: dict[asyncio.AbstractEventLoop, _Connections] = {}


def enabled() -> bool:
    return (
        int(getattr(settings, "LOOP_DB_CONNECTIONS", 0)) > 0 and connections["default"].vendor == "postgresql"
    )


def has_room() -> bool:
    """Whether a hand action may be made on this loop: enabled, and a connection free or to be made."""
    if not enabled():
        return False
    held = _of(asyncio.get_running_loop())
    return bool(held.idle) or held.count < held.limit


def open_here() -> int:
    """How many connections this loop holds (idle or in use): a look for tests and monitoring."""
    return _of(asyncio.get_running_loop()).count


def _of(loop: asyncio.AbstractEventLoop) -> _Connections:
    held = _BY_LOOP.get(loop)
    if held is None:
        for other in [old for old in _BY_LOOP if old.is_closed()]:  # (tests: a loop per test)
            _finish_idle(_BY_LOOP.pop(other))
        held = _BY_LOOP[loop] = _Connections(int(getattr(settings, "LOOP_DB_CONNECTIONS", 0)))
    return held


def _usable(connection: psycopg.AsyncConnection[Any]) -> bool:
    if connection.closed or connection.broken:
        return False
    poller = select.poll()
    poller.register(connection.fileno(), _READABLE)
    return not poller.poll(0)  # (an idle connection in autocommit is sent nothing)


LOOP_CONNECT_TIMEOUT_S = 5


async def _connect() -> tuple[psycopg.AsyncConnection[Any], psycopg.AsyncCursor[Any]]:
    """A connection as Django makes its own (the same parameters and adapters, its time zone),
    in autocommit, preparing its statements from their first run; with its one cursor (a new
    cursor per statement sets up its adapters again)."""
    django_connection = connections["default"]
    params = django_connection.get_connection_params()
    for name in ("cursor_factory", "pool"):
        params.pop(name, None)
    params["prepare_threshold"] = 1
    # an unreachable host must fail the one act that asked, as a play thread's would, not hold
    # it for the operating system's TCP timeout (minutes)
    params.setdefault("connect_timeout", LOOP_CONNECT_TIMEOUT_S)
    connection = await psycopg.AsyncConnection.connect(autocommit=True, **params)
    zone = django_connection.timezone_name
    if zone and connection.info.parameter_status("TimeZone") != zone:
        await connection.execute(django_connection.ops.set_time_zone_sql(), [zone])
    return connection, connection.cursor()


async def fetch_one(statement: str, values: list[Any]) -> tuple[Any, ...] | None:
    """The first row of `statement`, sent from this loop (prepared on its connection). Raises
    `Busy` when every connection is in use, psycopg's errors as they come."""
    held = _of(asyncio.get_running_loop())
    pair = await held.checkout()
    try:
        await pair[1].execute(statement, values, prepare=True)
        return await pair[1].fetchone()
    finally:
        held.checkin(pair)


def release_all() -> None:
    """Close every loop's idle connections, without their loops (a test's database torn down,
    its loop closed already). Only while no hand action runs."""
    for held in _BY_LOOP.values():
        _finish_idle(held)
    _BY_LOOP.clear()


def _finish_idle(held: _Connections) -> None:
    idle, held.idle = held.idle, []
    for connection, _cursor in idle:
        held.count -= 1
        connection.pgconn.finish()  # (without the loop it was made on: it may be closed)
