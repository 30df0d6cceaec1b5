"""Where socket handlers run their database work.

Channels' `database_sync_to_async` runs every call of a process on one thread: a process then
waits on one PostgreSQL round trip at a time, whatever the number of tables, and under load its
sockets queue behind each other (docs/benchmarks.md). With PostgreSQL and a connection pool,
calls for different tables can overlap their round trips, so `db()` runs them on a small pool
of threads (`settings.DB_THREADS`); a hand action's call (`on_play_thread`) keeps its thread's pooled
connection for the next one, any other call checks one out and back in. Calls of one
socket still run one after another (the consumer awaits each), and changes to one table are
serialised by its row lock. With SQLite (one writer at a time) there is one thread, as before.

Arrivals and departures (a socket's handshake, its first frame, its close) run on a lane of
their own (`db_arrivals`, `settings.ARRIVAL_DB_THREADS`): a storm of thousands of sockets
arriving at once (the evening's start, a restarted process taking its share back) then queues
behind itself, not in front of the hand actions of the tables already playing (one
shared queue stalled every table of the process for seconds). With 0 threads, or SQLite, they
share the one pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import select
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import FunctionType
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections

T = TypeVar("T")

PLAY, ARRIVALS = "db", "db_arrivals"  # the lanes (and their threads' names)
_POOLS: dict[str, ThreadPoolExecutor] = {}


def db(function: Callable[..., Any]) -> DatabaseSyncToAsync:
    """`database_sync_to_async(function)`, on the database threads (made once per plain
    function: building the wrapper costs as much as handing the call to a thread)."""
    return _lane(function, PLAY, int(getattr(settings, "DB_THREADS", 1)))


async def on_play_thread(function: Callable[..., T], *args: Any) -> T:
    """`await db(function)(*args)` with less ceremony, for the call every hand action makes:
    handed straight to a play thread in a copy of the caller's context, its connection tidied
    before and after as channels does. asgiref's wrapper also carries context variables set in
    the thread back to the caller and works out a thread for thread-sensitive code, which a
    command on the database threads needs neither of; it cost a hand action a fifth of a
    thread hop (docs/benchmarks.md). One thread (SQLite): `db()` as before."""
    threads = int(getattr(settings, "DB_THREADS", 1))
    if threads <= 1:
        return await db(function)(*args)  # type: ignore[no-any-return]
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    _play_lane(threads).put((loop, future, contextvars.copy_context().run, function, args))
    return await future  # type: ignore[no-any-return]


# The play lane's threads take calls from one queue and hand each result straight to the
# caller's future on its loop: the executor's way (a concurrent future with its lock and
# condition, wrapped in an asyncio one, the two chained by callbacks, and the pool's own
# bookkeeping per call) cost a hand action's hop a quarter of its CPU (docs/benchmarks.md,
# "Cost per action: the hand action's path", part 2).
Call = tuple[
    asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], Callable[..., Any], tuple[Any, ...]
]
_LANE: tuple[int, queue.SimpleQueue[Call]] | None = None
_LANE_LOCK = threading.Lock()


def _play_lane(threads: int) -> queue.SimpleQueue[Call]:
    global _LANE
    lane = _LANE
    if lane is not None and lane[0] == threads:
        return lane[1]
    with _LANE_LOCK:
        if _LANE is None or _LANE[0] != threads:  # (a test changing DB_THREADS: a new lane)
            if _LANE is not None:
                for _ in range(_LANE[0]):
                    _LANE[1].put(None)  # type: ignore[arg-type]  # (each old thread stops)
            calls: queue.SimpleQueue[Call] = queue.SimpleQueue()
            for number in range(threads):
                name = f"{PLAY}_{number}"
                threading.Thread(target=_play_thread, args=(calls,), name=name, daemon=True).start()
            _LANE = (threads, calls)
        return _LANE[1]


def _play_thread(calls: queue.SimpleQueue[Call]) -> None:
    while (call := calls.get()) is not None:
        loop, future, run, function, args = call
        try:
            result = run(tidied, function, args)
        except BaseException as error:  # noqa: BLE001 - handed to the caller, as an executor does
            _settle(loop, future, None, error)
        else:
            _settle(loop, future, result, None)
        del call, future, run, function, args  # (nothing of a call outlives it on the thread)


def _settle(
    loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: Any, error: BaseException | None
) -> None:
    with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile: nobody waits for it)
        loop.call_soon_threadsafe(_resolve, future, result, error)


def _resolve(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # (the socket's task was cancelled while its call ran)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def tidied(function: Callable[..., T], args: tuple[Any, ...]) -> T:
    """`function(*args)` as a play thread runs it: on its kept connection (below)."""
    connection = connections[DEFAULT_DB_ALIAS]
    _check_kept(connection)
    try:
        return function(*args)
    finally:
        _keep_or_close(connection)


# A play thread keeps its pooled connection from one hand action to the next instead of handing
# it back after each: checking one out and back in (Django's connect with its autocommit and
# time zone set-up, the pool's lock and check, and its return) cost as much CPU as the hand
# action's one statement itself (docs/benchmarks.md, "Cost per action: the hand action's path").
# The play lane has a fixed number of threads, each holds at most one connection (DB_POOL_MAX
# leaves room for the arrivals' threads), and a kept connection is checked before each use as
# the pool checks one it hands out: without a round trip (mahjong_site/postgres/base.py).
_KEPT: set[Any] = set()  # the play threads' database wrappers holding a kept connection


def _check_kept(connection: Any) -> None:
    """A kept connection that the server closed (a restart, `pg_terminate_backend`, an idle
    timeout: something to read on its socket) goes back to the pool, which drops it; the call
    then checks a fresh one out."""
    kept = connection.connection
    if kept is None:
        return
    if kept.closed or kept.broken or _has_something_to_read(kept.fileno()):
        _KEPT.discard(connection)
        connection.close()


def _has_something_to_read(fileno: int) -> bool:
    """An idle connection with something to read: the server's FATAL message or the stream's
    end (a live one idle in autocommit is sent nothing). The pool reads it when it is handed back."""
    poller = select.poll()
    poller.register(fileno, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def _keep_or_close(connection: Any) -> None:
    """(PostgreSQL) Keep the connection for this thread's next call when it is as a call found it (autocommit,
    no error since): else Django's own tidying, which hands it back to the pool."""
    if not _reusable(connection):
        _KEPT.discard(connection)
        close_old_connections()
        return
    connection.health_check_done = True  # (checked at the next call's start, without a round trip)
    _KEPT.add(connection)
    for other in connections.all(initialized_only=True):
        if other is not connection:
            other.close_if_unusable_or_obsolete()


def _reusable(connection: Any) -> bool:
    if connection.vendor != "postgresql" or connection.connection is None:
        return False
    return not connection.in_atomic_block and not connection.errors_occurred and connection.get_autocommit()


def release_kept() -> None:
    """Hand every play thread's kept connection back to the pool (a test's database torn down,
    the process stopping). Only while no hand action runs: a wrapper is its thread's own."""
    for connection in list(_KEPT):
        connection.inc_thread_sharing()
        try:
            connection.close()
        finally:
            connection.dec_thread_sharing()
    _KEPT.clear()


def db_arrivals(function: Callable[..., Any]) -> DatabaseSyncToAsync:
    """`db(function)` for a socket's arrival or departure: on the arrivals' own threads."""
    play = int(getattr(settings, "DB_THREADS", 1))
    arrivals = int(getattr(settings, "ARRIVAL_DB_THREADS", 0))
    if play <= 1 or arrivals <= 0:
        return _lane(function, PLAY, play)
    return _lane(function, ARRIVALS, arrivals)


def _lane(function: Callable[..., Any], lane: str, threads: int) -> DatabaseSyncToAsync:
    if not isinstance(function, FunctionType):  # a bound method: one per object, not kept
        return _wrap(function, lane, threads)
    key = (function, lane, threads)
    wrapper = _WRAPPERS.get(key)
    if wrapper is None:
        wrapper = _WRAPPERS[key] = _wrap(function, lane, threads)
    return wrapper


_WRAPPERS: dict[tuple[Callable[..., Any], str, int], DatabaseSyncToAsync] = {}


def _wrap(function: Callable[..., Any], lane: str, threads: int) -> DatabaseSyncToAsync:
    if threads <= 1 and lane == PLAY:
        return DatabaseSyncToAsync(function)
    return DatabaseSyncToAsync(function, thread_sensitive=False, executor=_pool(lane, threads))


def _pool(lane: str, threads: int) -> ThreadPoolExecutor:
    pool = _POOLS.get(lane)
    if pool is None or pool._max_workers != threads:
        pool = _POOLS[lane] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=lane)
    return pool
