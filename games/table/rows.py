"""The live table's statements: the store's precompiled rows (common.rows) and how a change is
written — the one place beside the store that knows SQL (it keeps the store a protocol of
loading, locking and announcing)."""

from __future__ import annotations

import pickle
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connections

from common.row_shape import RowShape
from common.rows import RowSql, in_one_statement, statement_if_first
from games.engine.state import HandState
from games.models import Hand, HandAction, HandCheckpoint, Seat, Table
from games.sockets.models import OpenSocket
from games.table.checkpoints import ENGINE_FORMAT
from games.table.hand_log import save_checkpoint

TABLE_ROWS = RowSql(Table)
SEAT_ROWS = RowSql(Seat)
HAND_ROWS = RowSql(Hand)
ACTION_ROWS = RowSql(HandAction)
CHECKPOINT_ROWS = RowSql(HandCheckpoint)
SOCKET_ROWS = RowSql(OpenSocket)  # every socket's connect, sit-down over it and close

TABLE_SHAPE, SEAT_SHAPE = RowShape(Table), RowShape(Seat)
TABLE_FIELDS, SEAT_FIELDS = TABLE_SHAPE.names, SEAT_SHAPE.names


def log_parts(logged: HandAction, hand: Hand, count: int, checkpoint: HandState | None) -> list[Any]:
    """An appended action's writes: the hand's count, the checkpoint when due, the log row."""
    parts = [_count_part(hand, count)]
    if checkpoint is not None:
        parts.append(_checkpoint_part(hand, count, checkpoint))
    return [*parts, ACTION_ROWS.insert_part(logged)]


def _count_part(hand: Hand, count: int) -> tuple[str, list[Any]]:
    return HAND_ROWS.set_part(hand.pk, {"actions_count": count})


def _checkpoint_part(hand: Hand, count: int, checkpoint: HandState) -> tuple[str, list[Any]]:
    """As games.checkpoints.save: one row per hand, the newest kept."""
    state = pickle.dumps(checkpoint, pickle.HIGHEST_PROTOCOL)
    row = HandCheckpoint(hand_id=hand.pk, actions=count, engine_format=ENGINE_FORMAT, state=state)
    return CHECKPOINT_ROWS.upsert_part(row)


def save_table(table: Table, before: tuple[Any, ...], log: tuple[Any, ...] | None) -> None:
    """The table's changed fields and the log's writes as one statement, one round trip (SQLite,
    with no data-modifying WITH: one by one) — docs/benchmarks.md, "What keeps an action cheap"."""
    names = changed_names(TABLE_FIELDS, before, TABLE_SHAPE.values(table))
    if connections["default"].vendor == "postgresql":
        writes = (log_parts(*log) if log else []) + ([TABLE_ROWS.update_part(table, names)] if names else [])
        return in_one_statement(writes) if writes else None
    if log is not None:
        ACTION_ROWS.insert(log[0])
        HAND_ROWS.update(log[1], ["actions_count"])
        if log[3] is not None:
            save_checkpoint(log[1], log[3])
    if names:
        TABLE_ROWS.update(table, names)


# The table fields a change compares and sets whose value in a snapshot may be older than the
# database's: the clock moves its deadline on quietly (no new revision), so a change made on a
# snapshot writes them whether or not they differ from the snapshot's.
QUIET_FIELDS = frozenset({"deadline", "deadline_version"})
# What a change made on a snapshot finds unchanged in the table's row, or nothing is written: its
# revision (every change bumps it), the row's birth (a rebuilt database reuses ids) and its status
# (the clock closes a broken table without a new revision).
GUARD_FIELDS = ("revision", "created", "status")
# Written without a new revision (a spectator's socket, the clock's failures): a snapshot's may
# be behind the row's, so the statement returns them and the new snapshot shows the row's.
FRESH_FIELDS = ("spectators", "clock_failures")
FRESH_COLUMNS = tuple(Table._meta.get_field(name).column for name in FRESH_FIELDS)

LogEntry = tuple[HandAction, Hand, int, "HandState | None"]  # the action, its hand, count, checkpoint
HeldBack = tuple[list[LogEntry], dict[tuple[int, int], HandState]]  # a change's log rows, its new states


def statement_if_current(
    table: Table, before: tuple[Any, ...], logs: list[LogEntry], seats: list[Seat], seats_before: list[Any]
) -> tuple[str, list[Any]]:
    """A change made on a snapshot, without the table's lock: its table fields, log rows and
    seat fields in one statement (common.rows.statement_if_first), which writes only if the
    table's row is still what the snapshot held (`GUARD_FIELDS`, as in `before`). PostgreSQL
    only. What it returns when it wrote goes to `set_fresh`."""
    was = dict(zip(TABLE_FIELDS, before, strict=True))
    changed = set(changed_names(TABLE_FIELDS, before, TABLE_SHAPE.values(table))) | QUIET_FIELDS
    names = [name for name in TABLE_FIELDS if name in changed]
    guard = {name: was[name] for name in GUARD_FIELDS}
    parts = [TABLE_ROWS.update_if_part(table, names, guard, returning=FRESH_FIELDS)]
    if logs:  # the hand's count and its newest checkpoint once (a row is written once a statement)
        _logged, hand, count, _state = logs[-1]
        parts.append(_count_part(hand, count))
        kept = [(n, state) for _logged, _hand, n, state in logs if state is not None]
        if kept:
            parts.append(_checkpoint_part(hand, *kept[-1]))
        parts += [ACTION_ROWS.insert_part(entry[0]) for entry in logs]
    for seat, loaded in zip(seats, seats_before, strict=True):
        if changed := changed_names(SEAT_FIELDS, loaded, SEAT_SHAPE.values(seat)):
            parts.append(SEAT_ROWS.update_part(seat, changed))
    return statement_if_first(parts, returned=FRESH_COLUMNS)


def set_fresh(table: Table, fresh: tuple[Any, ...]) -> None:
    """`table` gets the row's fields kept outside the revision (`FRESH_FIELDS`) as the
    statement of `statement_if_current` returned them."""
    for name, value in zip(FRESH_FIELDS, fresh, strict=True):
        setattr(table, name, value)


def changed_names(names: tuple[str, ...], before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
    return [n for n, a, b in zip(names, after, before, strict=True) if a != b]


def save_changes(row: Any, shape: RowShape, sql: RowSql[Any], before: tuple[Any, ...]) -> None:
    """Write the fields changed since the row was loaded."""
    after = shape.values(row)
    if after != before:
        sql.update(row, changed_names(shape.names, before, after))


# --- sockets' rows (games.sockets.presence) ----------------------------------------------------------
# Every counted socket has an OpenSocket row naming the server process that holds it, written in
# the same transaction as the count: when a process dies without closing its sockets, the clock
# takes them out of the counts. A row already gone means the clock did so.


def open_socket(
    table_id: int, now: datetime, process_id: int, user: AbstractBaseUser | None, seated: bool
) -> int:
    row = OpenSocket(
        process_id=process_id,
        table_id=table_id,
        user_id=user.pk if user is not None and user.is_authenticated else None,
        seated=seated,
        opened=now,
    )
    return SOCKET_ROWS.insert(row).pk


def mark_socket(socket_id: int, seated: bool) -> bool:
    """Record whether a socket counts for a seat; False if its row is gone (the clock dropped it)."""
    return bool(SOCKET_ROWS.update(OpenSocket(pk=socket_id, seated=seated), ["seated"]))


def close_socket(socket_id: int) -> bool:
    """Delete a socket's row; False if it was gone already."""
    return SOCKET_ROWS.delete(socket_id)
