"""CPU of a play thread's call around its one statement (common.db_threads): the connection
handed back to the pool after each call (as Django tidies a request's) against kept by the thread
from call to call, in one process, passes alternating.

    .venv/bin/python scripts/hop_bench.py [--calls 2000] [--passes 10] [--hop | --announce]

With `--hop`, the whole hop of a hand action's call instead: awaited from an event loop, handed
to a play thread through a thread pool executor (as before) or through the play lane's own queue
(`common.db_threads.on_play_thread`), the call keeping its thread's connection either way.
With `--announce`, a change's announcement handed from a thread to the broadcaster's loop.
With `--loop`, the play lane's hop against the statement sent on the event loop itself through
an asynchronous psycopg connection (prepared, autocommit), no thread.

DATABASE_URL names the PostgreSQL database (any: the statement reads no table). Each call runs
`SELECT 1` through a cursor, as a hand action runs its one statement; CPU is this process's
(`time.process_time`), so PostgreSQL's share is not in it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_passes import print_medians  # noqa: E402  (the scripts' folder is on the path above)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=10)
    parser.add_argument(
        "--hop", action="store_true", help="the whole hop from an event loop: executor against the play lane"
    )
    parser.add_argument(
        "--announce", action="store_true", help="a change's announcement handed to the loop, old way and new"
    )
    parser.add_argument(
        "--loop", action="store_true", help="the play lane's hop against a connection of the loop's own"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    import django

    django.setup()
    from django.db import close_old_connections, connection

    from common import db_threads

    def statement() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    def handed_back() -> None:
        close_old_connections()
        try:
            statement()
        finally:
            close_old_connections()

    def kept() -> None:
        db_threads.tidied(statement, ())

    ways: dict[str, Callable[[], None]] = {"handed back": handed_back, "kept": kept}
    if args.hop:
        ways = hops(statement, args.calls)
    if args.announce:
        ways = announcements(args.calls)
    if args.loop:
        ways = {"play lane": hops(statement, args.calls)["play lane"], "on the loop": on_the_loop(args.calls)}
    times: dict[str, list[float]] = {name: [] for name in ways}
    whole_pass = args.hop or args.announce or args.loop  # (a pass is one call that makes them all)
    for _ in range(args.passes):
        for name, call in ways.items():
            db_threads.release_kept()
            for _ in range(1 if whole_pass else 50):  # warm
                call()
            start = time.process_time()
            for _ in range(1 if whole_pass else args.calls):  # (those make their calls)
                call()
            times[name].append((time.process_time() - start) / args.calls * 1e6)
    db_threads.release_kept()
    print_medians(times, "call")
    return 0


def hops(statement: Callable[[], None], calls: int) -> dict[str, Callable[[], None]]:
    """One pass each: `calls` awaits one after another from an event loop, of a call running
    `statement` on a play thread with its kept connection (CPU of both threads: the process's)."""
    import asyncio
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    from django.conf import settings

    from common import db_threads

    threads = int(getattr(settings, "DB_THREADS", 1))
    if threads <= 1:
        raise SystemExit("DB_THREADS is 1 here (SQLite?): no play lane to measure")

    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=db_threads.PLAY)  # (as before)

    async def executor() -> None:
        loop = asyncio.get_running_loop()
        for _ in range(calls):
            run = contextvars.copy_context().run
            await loop.run_in_executor(pool, run, db_threads.tidied, statement, ())

    async def lane() -> None:
        for _ in range(calls):
            await db_threads.on_play_thread(statement)

    return {"executor": lambda: asyncio.run(executor()), "play lane": lambda: asyncio.run(lane())}


def on_the_loop(calls: int) -> Callable[[], None]:
    """One pass: `calls` awaits one after another from an event loop of `SELECT 1` on an
    asynchronous connection of the loop's own (common.loop_db), no thread."""
    import asyncio

    from common import loop_db

    async def statements() -> None:
        for _ in range(calls):
            await loop_db.fetch_one("SELECT %s::int", [1])

    return lambda: asyncio.run(statements())


def announcements(calls: int) -> dict[str, Callable[[], None]]:
    """One pass each: `calls` announcements handed from this thread to the broadcaster's loop
    (a channel layer that sends nothing), until the loop has sent them all: through
    `run_coroutine_threadsafe` (as before) or `common.broadcaster.send`."""
    import asyncio
    import threading

    from common import broadcaster

    class Layer:
        def __init__(self) -> None:
            self.sent, self.all_sent = 0, threading.Event()

        async def group_send(self, _group: str, _message: dict[str, object]) -> None:
            self.sent += 1
            if self.sent == calls:
                self.all_sent.set()

    layer = Layer()
    broadcaster.get_channel_layer = lambda: layer  # type: ignore[assignment]  # (this process only)
    loop = broadcaster.start_own_loop()
    message = {"type": "table.changed", "table": 1, "version": 1}

    def before() -> None:
        layer.sent = 0
        layer.all_sent.clear()
        for _ in range(calls):
            future = asyncio.run_coroutine_threadsafe(layer.group_send("table-1", message), loop)
            future.add_done_callback(lambda f: f.exception())
        layer.all_sent.wait(60)

    def now() -> None:
        layer.sent = 0
        layer.all_sent.clear()
        for _ in range(calls):
            broadcaster.send("table-1", message)
        layer.all_sent.wait(60)

    return {"run_coroutine": before, "send": now}


if __name__ == "__main__":
    raise SystemExit(main())
