"""A table's rows and hand states at one version, shared by the sockets of a process.

Every change is committed by one process, which then knows exactly what the table looks like
at the new version. It packs that (`pack`) into the broadcast that announces the version, so
the other processes render the new version for their sockets without reading the database (only
when another process watches the table: games.table.travel), and
keeps it for its own sockets and for the next change at that table (`games.table.store.change` reuses
the seats instead of reading them again). Everything a change writes bumps the version, so a
snapshot at the version the database holds is what a fresh load would read (docs/benchmarks.md).
One exception: a seat's count of open sockets is kept exactly in the database by atomic
updates and only its sign (connected or not) is shown or decided on; a change of sign is a
new version, so a snapshot's copy always has the right sign (`games.table.store.Change.count_sockets`).

The bytes travel only between server processes (through the private Redis), never to a client;
users in a snapshot carry their id, name and balance and nothing else.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Model

from accounts.models import Profile
from common import caches
from games.engine.state import HandState
from games.models import Hand, Seat, Table
from games.table import packing

StateKey = tuple[int, int]  # (hand id, actions applied)
M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class Snapshot:
    """Read-only: a renderer copies nothing from it, a change unpacks its own copy."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    states: dict[StateKey, HandState]  # the hand's current state and, when known, the one before
    packed: bytes | None  # None: not packed yet (`blob` packs it when it is first asked for)

    @property
    def version(self) -> int:
        """The table's revision (every change bumps it; `Table.version` only those all see)."""
        return self.table.revision

    @property
    def blob(self) -> bytes:
        """The snapshot's bytes. A hand action's snapshot that no other process asked for is
        kept unpacked (games.table.travel); a change under the lock that starts from it packs it then."""
        if self.packed is None:
            object.__setattr__(self, "packed", pack(self.table, self.seats, self.hand, self.states, False))
        assert self.packed is not None
        return self.packed


_LATEST: dict[int, Snapshot] = caches.registered({})  # table id -> the newest snapshot this process knows
_LIMIT = 5000


def pack(
    table: Table,
    seats: list[Seat],
    hand: Hand | None,
    states: dict[StateKey, HandState],
    fresh_balances: bool,
) -> bytes:
    """The bytes of a snapshot; `fresh_balances` reads the seated users' balances again (after
    a settlement or a penalty changed them in this transaction).

    Plain field values, not model instances: pickling a model copies its dict and looks its
    class up again on loading, which made packing and unpacking a third of an action's CPU."""
    balances = _balances(seats) if fresh_balances else None
    owner = None
    if table.owner_id is not None:  # (read from the row's cache: the descriptors are Python calls)
        known = table._state.fields_cache.get("owner")
        owner = (table.owner_id, known.get_username() if known else "")
    rows = (
        packing.row_values(table),
        owner,
        [(packing.row_values(seat), _seat_user(seat, balances)) for seat in seats],
        packing.row_values(hand) if hand is not None else None,
    )
    # The states pickled apart: loading them is most of the unpacking, and a process that
    # already holds them (the one that made the change, or a change reusing a kept snapshot)
    # never needs to. Only the newest travels: a process receiving it has the one before in
    # its previous snapshot of the table (`keep`).
    newest = {
        key: state
        for key, state in states.items()
        if hand is not None and key == (hand.pk, hand.actions_count)
    }
    return pickle.dumps((rows, packing.states_bytes(newest)), protocol=pickle.HIGHEST_PROTOCOL)


Rows = tuple[Table, list[Seat], Hand | None]


def unpack(blob: bytes) -> tuple[Table, list[Seat], Hand | None, dict[StateKey, HandState]]:
    """A fresh, private copy: the caller may change it."""
    rows, states_blob = pickle.loads(blob)  # noqa: S301 - our own processes' bytes, never a client's
    return (*_build_rows(rows), packing.states_from(states_blob))


def unpack_rows(blob: bytes) -> Rows:
    """The table, seats and hand of a snapshot, a fresh private copy (states are immutable: a
    change takes them from the kept snapshot)."""
    rows, _states = pickle.loads(blob)  # noqa: S301 - our own processes' bytes, never a client's
    return _build_rows(rows)


def private_rows(snapshot: Snapshot) -> Rows:
    """The table, seats and hand of a kept snapshot, a private copy a change may alter (as
    `unpack_rows` gives, without unpickling): each row copied, its mutable values (JSON fields'
    dicts and lists) copied too; the values nobody alters in place (numbers, strings, dates) and
    the light users shared. Unpacking the bytes again (and building every seat's user anew) cost
    a hand action twice as much (docs/benchmarks.md, "Cost per action: the hand action's path,
    part 2")."""
    table = _private(snapshot.table)
    seats = [_private(seat) for seat in snapshot.seats]
    hand = _private(snapshot.hand) if snapshot.hand is not None else None
    return table, seats, hand


def _private(row: M) -> M:
    copy = _detached(row)
    values = copy.__dict__
    for name in _mutable_attnames(type(row)):
        value = values.get(name)
        if value is not None:
            values[name] = packing.own(value)
    return copy


_MUTABLE: dict[type[Model], tuple[str, ...]] = {}


def _mutable_attnames(model: type[Model]) -> tuple[str, ...]:
    """The fields whose values may be altered in place (a notice added to a table's dict)."""
    names = _MUTABLE.get(model)
    if names is None:
        names = _MUTABLE[model] = tuple(
            f.attname for f in model._meta.concrete_fields if f.get_internal_type() == "JSONField"
        )
    return names


def _build_rows(rows: tuple[Any, ...], users: Callable[[int, str, int | None], Any] | None = None) -> Rows:
    """`users`: what makes a light user (a new one each by default)."""
    users = users or light_user
    table_values, owner, seat_rows, hand_values = rows
    table = packing.row(Table, table_values)
    if owner is not None:
        _cache(table, "owner", users(owner[0], owner[1], None))
    seats = []
    for values, user in seat_rows:
        seat = packing.row(Seat, values)
        if user is not None:
            _cache(seat, "user", users(*user))
        seats.append(seat)
    hand = packing.row(Hand, hand_values) if hand_values is not None else None
    return table, seats, hand


def _cache(row: Model, name: str, related: Model) -> None:
    """Set a loaded foreign-key object (its id field is already set from the row's values)."""
    row._state.fields_cache[name] = related


def keep(
    blob: bytes | None, states: dict[StateKey, HandState] | None = None, made: Rows | None = None
) -> Snapshot:
    """Remember a snapshot as this process's newest for its table (unless a newer one is known);
    `states`: the ones it was packed with, when the caller holds them; `made`: the rows it was
    packed from, when they are what unpacking would give — a change made on a private copy of a
    snapshot (games.table.unlocked), whose users are the light ones unpacked from it. Kept as
    detached copies instead of unpacking what was just packed (a tenth of such a change's CPU).
    `blob` None (with `made` and `states`): not packed, as no other process needs it
    (games.table.travel)."""
    if made is None:  # (its light users shared with the process's other snapshots: read-only)
        assert blob is not None, "a snapshot is kept from its bytes or from the rows it was made of"
        rows, states_blob = pickle.loads(blob)  # noqa: S301 - our own processes' bytes, never a client's
        table, seats, hand = _build_rows(rows, shared_light_user)
        if states is None:
            states = packing.states_from(states_blob)
            _add_state_before(table.pk, hand, states)
    else:
        table, seats = _detached(made[0]), [_detached(seat) for seat in made[1]]
        hand = _detached(made[2]) if made[2] is not None else None
    return _remember(Snapshot(table, seats, hand, states, blob))


def _remember(snapshot: Snapshot) -> Snapshot:
    table = snapshot.table
    known = _LATEST.get(table.pk)
    if known is None or known.version < snapshot.version or known.table.created != table.created:
        caches.put(_LATEST, table.pk, snapshot, _LIMIT)
    return snapshot


def _detached(row: M) -> M:
    """A copy of a row with its own fields and state (the values and the cached related objects
    are shared: nobody changes them in place once the change is written)."""
    copy = type(row).__new__(type(row))
    copy.__dict__.update(row.__dict__)
    copy._state = packing.saved_state(row._state.db)
    copy._state.fields_cache = dict(row._state.fields_cache)
    return copy


def _add_state_before(table_id: int, hand: Hand | None, states: dict[StateKey, HandState]) -> None:
    """The state one action before the newest, from this process's previous snapshot of the
    table, when it has it (the pause after a discard shows the board as it was then)."""
    previous = _LATEST.get(table_id)
    if hand is None or previous is None:
        return
    key = (hand.pk, hand.actions_count - 1)
    state = previous.states.get(key)
    if state is not None:
        states.setdefault(key, state)


def at(table_id: int, version: int | None, created: Any = None) -> Snapshot | None:
    """The snapshot of `table_id` at exactly `version` (of the table `created` then, when
    given: a database rebuilt under a running process may reuse ids), if this process has it."""
    snapshot = _LATEST.get(table_id)
    if snapshot is None or version is None or snapshot.version != version:
        return None
    if created is not None and snapshot.table.created != created:
        return None
    return snapshot


def newest(table_id: int) -> Snapshot | None:
    """The newest snapshot of `table_id` this process has, if any."""
    return _LATEST.get(table_id)


def newest_version(table_id: int) -> int:
    """The version of the newest snapshot of `table_id` this process has (-1: none)."""
    snapshot = _LATEST.get(table_id)
    return snapshot.version if snapshot is not None else -1


def forget(table_id: int | None = None) -> None:
    """Drop one table's snapshot (or all: tests)."""
    if table_id is None:
        _LATEST.clear()
    else:
        _LATEST.pop(table_id, None)


def owner_copy(snapshot: Snapshot) -> Any:
    """A private light copy of the snapshot table's owner (id and name: all a change needs)."""
    owner = snapshot.table.owner
    return light_user(owner.pk, owner.get_username(), None)


_DEFAULTS: dict[type[Model], dict[str, Any]] = {}


def _defaults(model: type[Model]) -> dict[str, Any]:
    """Every field's default (None for a callable one, such as a join date: not shown)."""
    known = _DEFAULTS.get(model)
    if known is None:
        fields = model._meta.concrete_fields
        known = {f.attname: _default(f) for f in fields}
        _DEFAULTS[model] = known
    return known


def _default(field: Any) -> Any:
    return None if field.has_default() and callable(field.default) else field.get_default()


@functools.cache
def _user_model() -> type[Model]:
    return get_user_model()  # looked up once: a light user is made for every seat of every snapshot


def light_user(pk: int, username: str, balance: int | None) -> Any:
    """A user with an id, a name and (cached) a profile with a balance: every other field at its
    default, never the password hash or the e-mail address."""
    model = _user_model()
    user = packing.row(model, {**_defaults(model), "id": pk, model.USERNAME_FIELD: username})
    # Cached either way, so reading `user.profile` never queries (None: no profile; the
    # accessor then raises RelatedObjectDoesNotExist, an AttributeError, as a real user would).
    profile = None
    if balance is not None:
        profile = packing.row(Profile, {**_defaults(Profile), "user_id": pk, "balance": balance})
    user._state.fields_cache["profile"] = profile
    return user


_SHARED_USERS: dict[tuple[int, str, int | None], Any] = caches.registered({})
_SHARED_LIMIT = 20000


def shared_light_user(pk: int, username: str, balance: int | None) -> Any:
    """The light user of this id, name and balance this process's snapshots share (read-only,
    as every snapshot is): taking in another process's snapshot builds none while the seated
    users are the same."""
    key = (pk, username, balance)
    user = _SHARED_USERS.get(key)
    if user is None:
        user = caches.put(_SHARED_USERS, key, light_user(pk, username, balance), _SHARED_LIMIT)
    return user


def light_users(ids: list[int]) -> dict[int, Any]:
    """Light users (see `light_user`) of these ids with their balances, in one statement: the
    seats of a table read without a snapshot (a restarted process, the clock) need no more."""
    if not ids:
        return {}
    model, connection = _user_model(), connections["default"]
    q = connection.ops.quote_name
    pk = q(model._meta.pk.column)
    name = q(model._meta.get_field(model.USERNAME_FIELD).column)
    owner, balance = (q(Profile._meta.get_field(f).column) for f in ("user", "balance"))
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT u.{pk}, u.{name}, p.{balance} FROM {q(model._meta.db_table)} u "
        f"LEFT JOIN {q(Profile._meta.db_table)} p ON p.{owner} = u.{pk} WHERE u.{pk} IN ({marks})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(ids))
        return {pk_: light_user(pk_, username, money) for pk_, username, money in cursor.fetchall()}


def attach_users(seats: list[Seat]) -> None:
    """Give seats read from the database their light users (one statement for all of them)."""
    users = light_users([seat.user_id for seat in seats if seat.user_id is not None])
    for seat in seats:
        if seat.user_id in users:
            _cache(seat, "user", users[seat.user_id])


def attach_owner(table: Table) -> None:
    """Give a table read from the database its owner as a light user (a snapshot names it)."""
    owner = light_users([table.owner_id]).get(table.owner_id) if table.owner_id is not None else None
    if owner is not None:
        _cache(table, "owner", owner)


def _seat_user(seat: Seat, balances: dict[int, int] | None) -> tuple[int, str, int | None] | None:
    """A seated user's id, name and balance: read from the seat's and the user's caches of
    related rows when they hold them (a light user always does), the descriptors otherwise."""
    if seat.user_id is None:
        return None
    user = seat._state.fields_cache.get("user")
    if user is None:
        user = seat.user
    profile = user._state.fields_cache.get("profile", _UNCACHED)
    if profile is _UNCACHED:
        profile = getattr(user, "profile", None)
    balance = balances.get(seat.user_id) if balances is not None else None
    if balance is None and profile is not None:
        balance = profile.balance
    return seat.user_id, user.get_username(), balance


_UNCACHED = object()


def _balances(seats: list[Seat]) -> dict[int, int]:
    ids = [s.user_id for s in seats if s.user_id is not None]
    return dict(Profile.objects.filter(user_id__in=ids).values_list("user_id", "balance"))
