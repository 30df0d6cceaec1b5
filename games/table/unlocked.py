"""A hand action without the table's lock: made on this process's newest snapshot of the table
and written in one compare-and-set statement, in autocommit (docs/benchmarks.md, "Cost per
action: one statement per hand action").

Under the lock an action costs BEGIN, the locked read of the table, the write and COMMIT: four
round trips and four statements for PostgreSQL to parse and run. The snapshot this process keeps
of a table (games.table.snapshots) is what the database holds while the table's revision is
the snapshot's — every change bumps it — so a change worked out on a private copy of it needs
no read, and its writes (the table's row with the revision bumped, the log row, the hand's count,
a checkpoint, seat fields) can go in one statement that applies only if the row is still at that
revision (games.table.rows.statement_if_current). When it is not, nothing was written and the change
is made again under the lock, which answers as it always did; so does anything the snapshot
cannot decide on its own: a refusal (the snapshot may be old), a statement the command needs
(it is stopped before it runs), the hand's end.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.utils import timezone

from common.rows import run_if_first
from games.models import Hand
from games.table import snapshots
from games.table.errors import NeedsLock, ServiceError
from games.table.store import Change


def _no_statements(*_args: Any) -> Any:
    raise NeedsLock("a statement")


def try_unlocked(
    table_id: int, now: datetime | None, finish: Callable[[Change], None], body: Callable[[Change], None]
) -> Change | None:
    """Run `body` on the newest snapshot of a table whose hand is in play and write what it
    changed if the table is still at the snapshot's revision (`finish`: as for a locked change).
    None when it could not be done so: nothing was written or kept, do it under the lock."""
    made = made_unlocked(table_id, now, finish, body)
    if made is None:
        return None
    t, statement = made
    return t if t.written(run_if_first(*statement)) else None


def made_unlocked(
    table_id: int, now: datetime | None, finish: Callable[[Change], None], body: Callable[[Change], None]
) -> tuple[Change, tuple[str, list[Any]]] | None:
    """`body` made on the newest snapshot, and the one statement that writes it if the table is
    still at the snapshot's revision, to be sent in autocommit and its result handed to
    `Change.written`. None when it cannot be made so (nothing kept)."""
    connection = connections["default"]
    snapshot = snapshots.newest(table_id)
    if connection.vendor != "postgresql" or connection.in_atomic_block or snapshot is None:
        return None  # (inside a transaction the lock costs no round trip of its own)
    hand = snapshot.hand
    if hand is None or hand.status != Hand.Status.PLAYING:
        return None
    state = snapshot.states.get((hand.pk, hand.actions_count))
    if state is None:
        return None
    table, seats, hand = snapshots.private_rows(snapshot)
    t = Change(table, seats, hand, state, now or timezone.now())
    t.hold_back(snapshot.states)
    try:
        with connection.execute_wrapper(_no_statements):
            body(t)
        statement = t.statement_if_current(finish)
    except (NeedsLock, ServiceError, SynchronousOnlyOperation):  # (the last: a statement on the loop)
        return None
    return (t, statement) if statement is not None else None
