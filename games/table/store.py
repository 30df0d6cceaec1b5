"""The one seam between a live table's rules and its persistence.

Only this module (with its statements, rows.py) knows how a table is read and written: those of
`common.rows`, which fields a change touched (compared with what was loaded), this process's
snapshots, the hand-state cache and the announcement sent once a change commits. The command
modules beside it (seating, stake, play, presence, timers, settlement) see a `Change`:

    with store.change(table_id, now, finish=...) as t:   # lock, load (or take the snapshot)
        t.seats[1].accepted = True                      # plain field changes …
        t.append(seat, action, actor)                   # … and the log, through `t`

On leaving the block the store works out for itself whether anything changed (fields, the hand,
the log, a seat's connected sign) and whether everybody may see it (a new `Table.version`) or
only the seats in a claim window (a new `revision` only); then it writes the changed fields,
packs the snapshot and announces the revision to the table's group after commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connections, transaction
from django.utils import timezone

from common.row_shape import frozen
from games.engine.actions import Action, apply
from games.engine.errors import EngineError
from games.engine.state import HandState
from games.models import Hand, HandAction, Seat, Table
from games.table import snapshots
from games.table.checkpoints import due
from games.table.errors import NeedsLock, ServiceError
from games.table.hand_log import cached_states, hand_state, remember_state, save_checkpoint
from games.table.loaded import Loaded
from games.table.rows import (
    SEAT_FIELDS,
    SEAT_ROWS,
    SEAT_SHAPE,
    TABLE_FIELDS,
    TABLE_ROWS,
    TABLE_SHAPE,
    HeldBack,
    changed_names,
    save_changes,
    save_table,
    set_fresh,
    statement_if_current,
)
from games.table.statements import install_from_env
from games.table.travel import announce_here, announcement, broadcast, travels
from games.table.visibility import seen_by_all

install_from_env()  # the load test counts every server process's statements (off by default)


@dataclass(eq=False)
class Change(Loaded):
    """A locked table being changed. What was loaded is kept to compare with at commit."""

    read: bool = False  # read from the database (no snapshot at its version in this process)
    _table_before: tuple[Any, ...] = field(default=(), init=False)
    _seats_before: list[tuple[Any, ...]] = field(default_factory=list, init=False)
    _hand_before: tuple[Any, ...] | None = field(default=None, init=False)
    _public: bool = field(default=False, init=False)  # something everybody sees happened
    _in_window: bool = field(default=False, init=False)  # an answer logged within a claim window
    _decision: bool = field(default=False, init=False)  # the hand waits for something new
    _pause: bool = field(default=False, init=False)  # a discard (or added kong) began the pause
    _balances: bool = field(default=False, init=False)  # balances changed in this transaction
    # The log row appended last, written with the table's row at the commit (or before_sql)
    _unwritten: tuple[HandAction, Hand, int, HandState | None] | None = field(default=None, init=False)
    # Made on a snapshot without the lock (`hold_back`): its log rows and new states, held back
    _unlocked: HeldBack | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._table_before = TABLE_SHAPE.values(self.table)
        self._seats_before = [SEAT_SHAPE.values(seat) for seat in self.seats]
        self._hand_before = _hand_key(self.hand)

    # --- what a command tells the store -----------------------------------------------------

    def append(self, seat: int, action: Action, actor: str) -> HandState:
        """Apply one hand action through the engine and append it to the log; returns the state
        before it (the new one is `t.state`). An answer within a claim window is seen only by
        the seats in it; any other action by everybody."""
        assert self.hand is not None and self.state is not None
        before = self.state
        try:
            after, _events = apply(before, seat, action)
        except EngineError as e:
            raise ServiceError(e.code, e.message) from None
        if self._unlocked is not None and after.phase == "over":
            raise NeedsLock("the hand's end")  # (its settlement reads and writes more rows)
        if before.phase == "claim":
            self._in_window = True
        else:
            self._public = True
        hand = self.hand
        hand.actions_count += 1
        logged = HandAction(
            hand=hand, seq=hand.actions_count, seat=seat, action=action.to_json(), actor=actor
        )
        kept = after.phase != "over" and due(hand.actions_count)
        entry = (logged, hand, hand.actions_count, after if kept else None)
        if self._unlocked is not None:
            self._unlocked[0].append(entry)
            self._unlocked[1][(hand.pk, hand.actions_count)] = after  # (another may be logged)
        else:
            self.write_log()  # (a second action in one change: the first goes out now)
            self._unwritten = entry
            remember_state((hand.pk, hand.actions_count), after)
            if not kept:
                save_checkpoint(hand, after)  # (a hand's end drops its checkpoint)
        self.state = after
        return before

    def new_decision(self, pause: bool = False) -> None:
        """The hand now waits for something else (`Table.decision_version`); `pause`: a discard
        began the minimum pause, which counts one version of its own (`shown_version`)."""
        self._decision = True
        self._pause = self._pause or pause

    def balances_changed(self) -> None:
        """Points moved in this transaction (settlement, penalty): the snapshot reads them again."""
        self._balances = True

    def count_sockets(self, seat: Seat, delta: int) -> bool:
        """Add `delta` to a seat's open sockets, atomically in the database (not written back
        from this copy). Returns whether the seat's connected sign flipped: only that is a change
        anybody sees (a second tab, or a socket coming back while a dead process's one still
        counts, changes nothing)."""
        was_connected = seat.connected
        seat.connections = SEAT_ROWS.add(seat, "connections", delta)
        self._rebase_seat(seat, "connections")
        if seat.connected != was_connected:
            self._public = True
            return True
        return False

    def count_spectators(self, delta: int) -> None:
        """The spectator count of the locked row, written at once (kept outside the version)."""
        self.table.spectators = max(0, self.table.spectators + delta)
        self.write_quietly(["spectators"])

    def write_quietly(self, names: list[str]) -> None:
        """Write these table fields now, with no new revision (the clock moving its deadline on)."""
        TABLE_ROWS.update(self.table, names)
        before = dict(zip(TABLE_FIELDS, self._table_before, strict=True))
        before.update({name: frozen(getattr(self.table, name)) for name in names})
        self._table_before = tuple(before[name] for name in TABLE_FIELDS)

    def _rebase_seat(self, seat: Seat, name: str) -> None:
        position = SEAT_FIELDS.index(name)
        loaded = self._seats_before[seat.index]
        value = frozen(getattr(seat, name))
        self._seats_before[seat.index] = (*loaded[:position], value, *loaded[position + 1 :])

    # --- what the store works out -----------------------------------------------------------

    @property
    def changed(self) -> bool:
        """Whether anything was changed that the next version must show."""
        return self._changed_given(self._changed_fields())

    def _changed_given(self, fields: list[tuple[str, str]]) -> bool:
        return self._public or self._in_window or bool(fields) or self._hand_changed()

    def _hand_changed(self) -> bool:
        return _hand_key(self.hand) != self._hand_before

    def _changed_fields(self) -> list[tuple[str, str]]:
        """(row, field) of every table or seat field changed since loading."""
        out = [
            ("table", name)
            for name in changed_names(TABLE_FIELDS, self._table_before, TABLE_SHAPE.values(self.table))
        ]
        for seat, before in zip(self.seats, self._seats_before, strict=True):
            out += [("seat", name) for name in changed_names(SEAT_FIELDS, before, SEAT_SHAPE.values(seat))]
        return out

    def seen_by_all(self, fields: list[tuple[str, str]]) -> bool:
        """Whether everybody sees the change (games.table.visibility)."""
        return seen_by_all(self._public or self._hand_changed(), self._in_window, fields)

    def write_log(self) -> None:  # the log row still held back, if any
        if self._unwritten is not None:
            unwritten, self._unwritten = self._unwritten, None
            save_table(self.table, TABLE_SHAPE.values(self.table), unwritten)

    def before_sql(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Any other statement of the change finds the log row written first (a read sees it)."""
        self.write_log()
        return execute(sql, params, many, context)

    def commit(self, finish: Callable[[Change], None], fields: list[tuple[str, str]]) -> None:
        """Bump the revision (and the version if everybody sees the change), let `finish` set the
        clock's deadline, write the changed fields, announce after commit."""
        self._bump(finish, fields)
        log, self._unwritten = self._unwritten, None  # (written with the table's row)
        save_table(self.table, self._table_before, log)
        for seat, before in zip(self.seats, self._seats_before, strict=True):
            save_changes(seat, SEAT_SHAPE, SEAT_ROWS, before)
        transaction.on_commit(self._announcer())

    def hold_back(self, states: dict[tuple[int, int], HandState]) -> None:
        """Made on a snapshot (with its `states`) without the lock (games.table.unlocked): log rows
        and new states are held back for `statement_if_current`."""
        self._unlocked = ([], dict(states))

    def statement_if_current(self, finish: Callable[[Change], None]) -> tuple[str, list[Any]] | None:
        """`commit` of a change made on a snapshot: one statement written only if the table's row is still
        at its revision (rows.statement_if_current), sent in autocommit, its result to `written`."""
        fields, logs = self._changed_fields(), self._unlocked[0] if self._unlocked is not None else []
        if not self._changed_given(fields):
            return None
        self._bump(finish, fields)
        return statement_if_current(self.table, self._table_before, logs, self.seats, self._seats_before)

    def written(self, fresh: tuple[Any, ...] | None) -> bool:
        """Keep and announce the change once its statement wrote (`fresh`: what it returned, or None)."""
        if fresh is None or self._unlocked is None:  # (not written)
            return False
        set_fresh(self.table, fresh)
        for key, state in self._unlocked[1].items():  # (only now: they are the log's from here on)
            remember_state(key, state)
        self._announcer()()
        return True

    def _bump(self, finish: Callable[[Change], None], fields: list[tuple[str, str]]) -> None:
        table = self.table
        table.revision += 1
        if self.seen_by_all(fields):
            # A discard counts two versions: the one shown during its pause (and its claim
            # window, if one opened), and the next, shown when play moves on — whether a window
            # was answered in between or not, everybody outside it sees the same numbers.
            table.version += 2 if self._pause else 1
            if self._decision:
                table.decision_version = table.version - (1 if self._pause else 0)
        finish(self)

    def _announcer(self) -> Callable[[], None]:
        """What to do once the change is committed: keep its snapshot, announce its revision."""
        table, states = self.table, self.states_to_keep()
        version, table_id = table.revision, table.pk
        made = (table, self.seats, self.hand) if self._unlocked is not None else None  # (a snapshot's copy)
        through_layer = travels(table_id)
        blob = None
        if made is None or through_layer:  # (else kept unpacked: nobody else needs it)
            blob = snapshots.pack(table, self.seats, self.hand, states, self._balances)

        def announce() -> None:
            snapshots.keep(blob, states, made)
            if through_layer or not announce_here(table_id, announcement(table_id, version)):
                broadcast(table_id, version, blob)

        return announce

    def keep_read(self) -> None:
        """A table read under its lock and left unchanged (a socket connecting, say) is what the
        database holds at its version: keep it as this process's snapshot, so that the next
        socket or change of that version reads nothing again (four sockets at a new table)."""
        states = self.states_to_keep()
        blob = snapshots.pack(self.table, self.seats, self.hand, states, False)
        transaction.on_commit(lambda: snapshots.keep(blob, states))

    def states_to_keep(self) -> dict[tuple[int, int], HandState]:
        """The hand's states a renderer needs: now and one action before (the pause after a
        discard shows the board as it was before the draw)."""
        hand = self.hand
        if hand is None:
            return {}
        keys = [(hand.pk, hand.actions_count), (hand.pk, hand.actions_count - 1)]
        known = self._unlocked[1] if self._unlocked is not None else {}  # (held back, the snapshot's)
        return {k: known[k] for k in keys if k in known} | cached_states([k for k in keys if k not in known])


def _hand_key(hand: Hand | None) -> tuple[Any, ...] | None:
    """A new hand, or its end, is a change everybody sees (its log: `Change.append`)."""
    return None if hand is None else (hand.pk, hand.status)


# --- reading and locking -------------------------------------------------------------------


def load(
    table: Table, now: datetime | None = None, seats: list[Seat] | None = None, hand: Hand | None = None
) -> Loaded:
    """Seats, hand and replayed state of a table (read-only: `change` for a locked one).

    `seats` and `hand`: already known (a snapshot at the table's version), not read again."""
    seats, hand, state = _rows(table, seats, hand)
    return Loaded(table, seats, hand, state, now or timezone.now())


def _rows(
    table: Table, seats: list[Seat] | None, hand: Hand | None
) -> tuple[list[Seat], Hand | None, HandState | None]:
    if seats is None:  # two precompiled reads, not the ORM's three-table join
        seats = SEAT_ROWS.select([("table_id", "=", table.pk)], order=("index", "ASC"))
        snapshots.attach_users(seats)
    if hand is None and table.hand_id:
        hand = Hand.objects.get(pk=table.hand_id)
    playing = hand is not None and hand.status == Hand.Status.PLAYING
    state = hand_state(hand, table.variant) if playing else None
    return seats, hand, state


@contextmanager
def change(
    table_id: int, now: datetime | None = None, finish: Callable[[Change], None] | None = None
) -> Iterator[Change]:
    """Lock and load a table; on leaving, commit whatever was changed (`Change.commit`, with
    `finish` run just before the rows are written: the clock's deadline)."""
    with transaction.atomic():
        try:
            # Only the owner is joined: under READ COMMITTED a joined row that is not locked may
            # be older than the locked row (PostgreSQL re-reads only locked rows after waiting),
            # which is harmless for a name but not for the hand.
            table = TABLE_ROWS.lock(int(table_id))  # the same statement the ORM would send, precompiled
        except (TypeError, ValueError):
            table = None
        if table is None:
            raise ServiceError("no_table", "there is no such table")
        t = _load_locked(table, now)
        # A log row held back for the commit's statement is written before any other one.
        with connections["default"].execute_wrapper(t.before_sql):
            yield t
            fields = t._changed_fields()
            if t._changed_given(fields):
                t.commit(finish or (lambda _t: None), fields)
            elif t.read:
                t.keep_read()


def _load_locked(table: Table, now: datetime | None) -> Change:
    """`load` for a locked table row. When this process's snapshot is at the row's version, its
    seats and hand are what the database holds (every change bumps the version), so a private
    copy of them is used instead of reading them again."""
    snapshot = snapshots.at(table.pk, table.revision, table.created)
    seats = hand = None
    if snapshot is None:
        snapshots.attach_owner(table)  # the snapshot of the change names the owner
    else:
        if table.owner_id is not None and table.owner_id == snapshot.table.owner_id:
            table.owner = snapshots.owner_copy(snapshot)
        _table, seats, hand = snapshots.unpack_rows(snapshot.blob)
        for key, state in snapshot.states.items():
            remember_state(key, state)
    seats, hand, state = _rows(table, seats, hand)
    return Change(table, seats, hand, state, now or timezone.now(), read=snapshot is None)


def loaded_from(snapshot: snapshots.Snapshot) -> Loaded | None:
    """A read-only Loaded for rendering a snapshot without the database; None when a state
    it needs is missing (then render from a load)."""
    table, hand = snapshot.table, snapshot.hand
    state = None
    if hand is not None:
        key = (hand.pk, hand.actions_count)
        state = snapshot.states.get(key)
        if state is None:
            return None
        paused_turn = table.pause_until is not None and state.phase == "turn" and hand.actions_count > 0
        if paused_turn and (hand.pk, hand.actions_count - 1) not in snapshot.states:
            return None
        if hand.status != Hand.Status.PLAYING:
            state = None
    return Loaded(table, snapshot.seats, hand, state, timezone.now(), states=snapshot.states)


def find_table(table_id: int) -> Table | None:
    """The table row, unlocked (every socket's first read: precompiled)."""
    return TABLE_ROWS.find("id", table_id)


def revisions(ids: list[int]) -> dict[int, int]:
    """The revision of each table (the version watcher, a few times a second)."""
    return TABLE_ROWS.column(ids, "revision")


def create(**fields: Any) -> Table:
    """A new table with its empty seats, announced at version 0 once committed."""
    with transaction.atomic():
        table = Table.objects.create(**fields)
        Seat.objects.bulk_create(Seat(table=table, index=i) for i in range(table.players))
        table_id = table.pk
        transaction.on_commit(lambda: broadcast(table_id, 0))
    return table
