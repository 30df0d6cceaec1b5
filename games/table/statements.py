"""Counting the SQL statements a server process sends, for the load test (docs/benchmarks.md,
"Load"): with `MAHJONG_COUNT_SQL=<directory>` in its environment, every database connection of
the process counts the statements it executes, and a daemon thread writes the process's total
to `<directory>/sql-<pid>.count` once a second. The load test reads those files at the start and
the end of its window and divides by the confirmed actions. Off (the default), nothing is
installed and nothing is counted.

A file, not a query or a socket: the count must survive a `kill -9` of the process (the last
second's statements are the only ones it misses) and cost nothing on the event loop.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from pathlib import Path
from typing import Any

from django.db.backends.signals import connection_created

ENV = "MAHJONG_COUNT_SQL"
WRITE_EVERY = 1.0  # seconds

_COUNTER = itertools.count()  # next() is atomic under the GIL: every database thread shares it
_counted = 0
_installed = False


def _count(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    global _counted
    _counted = next(_COUNTER) + 1
    return execute(sql, params, many, context)


def count_one() -> None:
    """A statement sent outside Django's connections (a hand action's on the event loop:
    games.table.on_loop), counted when counting is on."""
    global _counted
    if _installed:
        _counted = next(_COUNTER) + 1


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _writer(path: Path) -> None:
    written = -1
    while True:
        time.sleep(WRITE_EVERY)
        if _counted != written:
            written = _counted
            tmp = path.with_suffix(".tmp")
            tmp.write_text(str(written))
            tmp.replace(path)  # a reader never sees half a number


def install_from_env() -> None:
    """Count this process's statements when the environment asks for it (once per process)."""
    global _installed
    directory = os.environ.get(ENV)
    if not directory or _installed:
        return
    _installed = True
    connection_created.connect(_on_connection, weak=False)
    path = Path(directory) / f"sql-{os.getpid()}.count"
    threading.Thread(target=_writer, args=(path,), name="sql-count", daemon=True).start()


def read_counts(directory: Path) -> dict[int, int]:
    """pid -> statements so far, from the files the processes wrote."""
    counts = {}
    for path in directory.glob("sql-*.count"):
        try:
            counts[int(path.stem.split("-", 1)[1])] = int(path.read_text() or 0)
        except (OSError, ValueError):  # being replaced, or empty
            continue
    return counts
