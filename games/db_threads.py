"""Where socket handlers run their database work.

Channels' `database_sync_to_async` runs every call of a process on one thread: a process then
waits on one PostgreSQL round trip at a time, whatever the number of tables, and under load its
sockets queue behind each other (docs/benchmarks.md). With PostgreSQL and a connection pool,
calls for different tables can overlap their round trips, so `db()` runs them on a small pool
of threads (`settings.DB_THREADS`); each thread takes a pooled connection per call. Calls of one
socket still run one after another (the consumer awaits each), and changes to one table are
serialised by its row lock. With SQLite (one writer at a time) there is one thread, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import FunctionType
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.conf import settings

_POOL: ThreadPoolExecutor | None = None


def db(function: Callable[..., Any]) -> DatabaseSyncToAsync:
    """`database_sync_to_async(function)`, on the database threads (made once per plain
    function: building the wrapper costs as much as handing the call to a thread)."""
    threads = int(getattr(settings, "DB_THREADS", 1))
    if not isinstance(function, FunctionType):  # a bound method: one per object, not kept
        return _wrap(function, threads)
    key = (function, threads)
    wrapper = _WRAPPERS.get(key)
    if wrapper is None:
        wrapper = _WRAPPERS[key] = _wrap(function, threads)
    return wrapper


_WRAPPERS: dict[tuple[Callable[..., Any], int], DatabaseSyncToAsync] = {}


def _wrap(function: Callable[..., Any], threads: int) -> DatabaseSyncToAsync:
    if threads <= 1:
        return DatabaseSyncToAsync(function)
    return DatabaseSyncToAsync(function, thread_sensitive=False, executor=_pool(threads))


def _pool(threads: int) -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None or _POOL._max_workers != threads:
        _POOL = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="db")
    return _POOL
