"""common.db_threads: the play lane and the arrivals' lane of a socket process's database threads."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest
from django.db import connection
from django.test import override_settings

from common.db_threads import db, db_arrivals, on_play_thread

# Each call tidies its thread's database connection (channels' DatabaseSyncToAsync), and these
# threads outlive a test: one that held a connection in an earlier test touches it here.
pytestmark = pytest.mark.django_db(transaction=True)


def thread_name() -> str:
    return threading.current_thread().name


@override_settings(DB_THREADS=4, ARRIVAL_DB_THREADS=2)
async def test_arrivals_run_on_threads_of_their_own() -> None:
    assert (await db(thread_name)()).startswith("db_")
    assert (await db_arrivals(thread_name)()).startswith("db_arrivals")


@override_settings(DB_THREADS=4, ARRIVAL_DB_THREADS=2)
async def test_a_storm_of_arrivals_does_not_hold_up_play() -> None:
    """Every arrivals' thread busy (a handshake storm): a hand action still runs at once."""
    release = threading.Event()
    stuck = [asyncio.ensure_future(db_arrivals(release.wait)(10)) for _ in range(6)]
    await asyncio.sleep(0.05)
    try:
        assert await asyncio.wait_for(db(thread_name)(), timeout=5)  # not queued behind them
        assert not any(task.done() for task in stuck)
    finally:
        release.set()
        await asyncio.gather(*stuck)


@pytest.mark.parametrize(("play", "arrivals"), [(4, 0), (1, 2)])
async def test_without_a_lane_of_their_own_arrivals_share_the_play_threads(play: int, arrivals: int) -> None:
    with override_settings(DB_THREADS=play, ARRIVAL_DB_THREADS=arrivals):
        assert not (await db_arrivals(thread_name)()).startswith("db_arrivals")


NAMED: contextvars.ContextVar[str] = contextvars.ContextVar("named", default="")


def rename(name: str) -> str:
    seen = NAMED.get()
    NAMED.set(name)
    return seen


def refuse(message: str) -> None:
    raise ValueError(message)


@override_settings(DB_THREADS=4, ARRIVAL_DB_THREADS=2)
async def test_a_hand_actions_call_runs_on_a_play_thread_in_a_copy_of_the_callers_context() -> None:
    assert (await on_play_thread(thread_name)).startswith("db_")
    NAMED.set("caller")
    assert await on_play_thread(rename, "thread") == "caller"  # it sees the caller's values …
    assert NAMED.get() == "caller"  # … and what it sets stays in its copy
    assert await on_play_thread(rename, "again") == "caller"  # (not left on the thread either)
    with pytest.raises(ValueError, match="no"):
        await on_play_thread(refuse, "no")


@override_settings(DB_THREADS=2, ARRIVAL_DB_THREADS=2)
async def test_the_play_lane_runs_calls_side_by_side_and_outlives_a_cancelled_caller() -> None:
    """As many calls at once as it has threads (a slow round trip holds up one, not the lane),
    and a caller cancelled while its call runs (its socket closed) leaves the lane working."""
    both, release = threading.Barrier(2, timeout=5), threading.Event()
    assert await asyncio.wait_for(asyncio.gather(on_play_thread(both.wait), on_play_thread(both.wait)), 5)
    waiting = asyncio.ensure_future(on_play_thread(release.wait, 5))
    await asyncio.sleep(0.05)
    waiting.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.sleep(0.05)  # (its result arrives for a future nobody waits for)
    assert (await asyncio.wait_for(on_play_thread(thread_name), 5)).startswith("db_")


def backend() -> tuple[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return threading.current_thread().name, cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool: PostgreSQL only")
@pytest.mark.django_db(transaction=True)
@override_settings(DB_THREADS=2, ARRIVAL_DB_THREADS=1)
async def test_a_play_thread_keeps_its_connection_and_gives_up_one_the_server_closed() -> None:
    seen: dict[str, set[int]] = {}
    for _ in range(12):
        name, pid = await on_play_thread(backend)
        seen.setdefault(name, set()).add(pid)
    assert all(len(pids) == 1 for pids in seen.values())  # one connection per thread, kept
    held = [await on_play_thread(holds_a_connection) for _ in range(3)]
    assert all(held)  # each call found its thread's connection still checked out (one after another:
    # the pool's threads are started only when none is idle, so these run on threads seen above)
    killed = {pid for pids in seen.values() for pid in pids}
    await asyncio.to_thread(terminate, killed)
    after = {pid for _ in range(12) for pid in [(await on_play_thread(backend))[1]]}
    assert not after & killed  # a connection the server closed is not used again: no error either


def holds_a_connection() -> bool:
    return connection.connection is not None


def terminate(pids: set[int]) -> None:
    with connection.cursor() as cursor:
        for pid in pids:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
    connection.close()
