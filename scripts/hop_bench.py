"""CPU of a play thread's call around its one statement (common.db_threads): the connection
handed back to the pool after each call (as Django tidies a request's) against kept by the thread
from call to call, in one process, passes alternating.

    .venv/bin/python scripts/hop_bench.py [--calls 2000] [--passes 10]

DATABASE_URL names the PostgreSQL database (any: the statement reads no table). Each call runs
`SELECT 1` through a cursor, as a hand action runs its one statement; CPU is this process's
(`time.process_time`), so PostgreSQL's share is not in it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=10)
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
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.passes):
        for name, call in ways.items():
            db_threads.release_kept()
            for _ in range(50):  # warm
                call()
            start = time.process_time()
            for _ in range(args.calls):
                call()
            times[name].append((time.process_time() - start) / args.calls * 1e6)
    db_threads.release_kept()
    for name, per_call in times.items():
        print(
            f"{name:12} median {statistics.median(per_call):6.1f} µs CPU per call  (passes: "
            + " ".join(f"{t:.1f}" for t in per_call)
            + ")"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
