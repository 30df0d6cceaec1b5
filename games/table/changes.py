"""How every command changes a table: `with change(table_id, now, expect=...) as t:`.

The store locks, loads and commits; this adds the two table rules every change shares: a client's
version is checked under the same lock before anything is done, and the clock's next deadline is
set as the change is written."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from games.table import store, timing, unlocked
from games.table.errors import ServiceError
from games.table.store import Change


@dataclass(frozen=True)
class Expected:
    """The version a client acted on. With `same_decision` (hand actions) any version since the
    current decision began is good enough: another seat's pass in the same claim window must not
    make a player's pong "stale" and force a second click. An earlier decision's is refused."""

    version: int
    same_decision: bool = False


@contextmanager
def change(table_id: int, now: datetime | None = None, expect: Expected | None = None) -> Iterator[Change]:
    """Lock and load a table (checking `expect` first); commit what the block changed."""
    with store.change(table_id, now, finish=timing.set_deadline) as t:
        if expect is not None:
            check_version(t, expect)
        yield t


def change_hand(
    table_id: int, now: datetime | None, expect: Expected | None, body: Callable[[Change], None]
) -> Change:
    """`body` (a hand action) as `change` would run it, made first without the lock on this
    process's snapshot when that can decide it (games.table.unlocked): one statement, not four."""
    t = unlocked.try_unlocked(table_id, now, timing.set_deadline, checked(expect, body))
    if t is None:
        with change(table_id, now, expect) as t:
            body(t)
    return t


def checked(expect: Expected | None, body: Callable[[Change], None]) -> Callable[[Change], None]:
    """`body` after the version check (`check_version`), for a change made without the lock."""

    def run(t: Change) -> None:
        if expect is not None:
            check_version(t, expect)
        body(t)

    return run


def check_version(t: Change, expect: Expected) -> None:
    """Fresh: the version shown now (or the one the pause runs up to, which no frame showed yet);
    for hand actions any version since the decision began."""
    table = t.table
    current, decided, shown = table.version, table.decision_version, timing.shown_version(t)
    version = expect.version
    fresh = version in (shown, current) or (expect.same_decision and 0 < decided <= version <= current)
    if not fresh:
        raise ServiceError("stale_version", f"the table is at version {shown}, not {version}")
