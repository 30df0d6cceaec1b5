"""A table's rows and hand states at one version, shared by the sockets of a process.

Every change is committed by one process, which then knows exactly what the table looks like
at the new version. It packs that (`pack`) into the broadcast that announces the version, so
the other processes render the new version for their sockets without reading the database, and
keeps it for its own sockets and for the next change at that table (`services.locked` reuses
the seats instead of reading them again). Everything a change writes bumps the version, so a
snapshot at the version the database holds is what a fresh load would read (docs/benchmarks.md).

The bytes travel only between server processes (through the private Redis), never to a client;
users in a snapshot carry their id, name and balance and nothing else.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from accounts.models import Profile
from games.engine.state import HandState
from games.models import Hand, Seat, Table

StateKey = tuple[int, int]  # (hand id, actions applied)


@dataclass(frozen=True)
class Snapshot:
    """Read-only: a renderer copies nothing from it, a change unpacks its own copy."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    states: dict[StateKey, HandState]  # the hand's current state and, when known, the one before
    blob: bytes

    @property
    def version(self) -> int:
        return self.table.version


_LATEST: dict[int, Snapshot] = {}  # table id -> the newest snapshot this process knows
_LIMIT = 5000


def pack(
    table: Table,
    seats: list[Seat],
    hand: Hand | None,
    states: dict[StateKey, HandState],
    fresh_balances: bool,
) -> bytes:
    """The bytes of a snapshot; `fresh_balances` reads the seated users' balances again (after
    a settlement or a penalty changed them in this transaction)."""
    balances = _balances(seats) if fresh_balances else None
    light_table = _copy(table)
    if table.owner_id is not None:
        owner = table.owner if Table.owner.is_cached(table) else None
        light_table.owner = _light_user(table.owner_id, owner.get_username() if owner else "", None)
    light_seats = [_light_seat(seat, balances) for seat in seats]
    light_hand = _copy(hand) if hand is not None else None
    return pickle.dumps((light_table, light_seats, light_hand, states), protocol=pickle.HIGHEST_PROTOCOL)


def unpack(blob: bytes) -> tuple[Table, list[Seat], Hand | None, dict[StateKey, HandState]]:
    """A fresh, private copy: the caller may change it."""
    table, seats, hand, states = pickle.loads(blob)  # noqa: S301 - our own processes' bytes, never a client's
    return table, seats, hand, states


def keep(blob: bytes) -> Snapshot:
    """Remember a snapshot as this process's newest for its table (unless a newer one is known)."""
    table, seats, hand, states = unpack(blob)
    snapshot = Snapshot(table, seats, hand, states, blob)
    known = _LATEST.get(table.pk)
    if known is None or known.version < snapshot.version or known.table.created != table.created:
        if len(_LATEST) >= _LIMIT:
            _LATEST.clear()
        _LATEST[table.pk] = snapshot
    return snapshot


def at(table_id: int, version: int | None, created: Any = None) -> Snapshot | None:
    """The snapshot of `table_id` at exactly `version` (of the table `created` then, when
    given: a database rebuilt under a running process may reuse ids), if this process has it."""
    snapshot = _LATEST.get(table_id)
    if snapshot is None or version is None or snapshot.version != version:
        return None
    if created is not None and snapshot.table.created != created:
        return None
    return snapshot


def forget(table_id: int | None = None) -> None:
    """Drop one table's snapshot (or all: tests)."""
    if table_id is None:
        _LATEST.clear()
    else:
        _LATEST.pop(table_id, None)


def _copy(row: Any) -> Any:
    """A detached copy of a model row: its field values only, no cached relations."""
    model = type(row)
    copy = model(**{f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields})
    copy._state.adding = False
    copy._state.db = row._state.db
    return copy


def _light_user(pk: int, username: str, balance: int | None) -> Any:
    user = get_user_model()(pk=pk, username=username)
    user._state.adding = False
    # Cached either way, so reading `user.profile` never queries (None: no profile; the
    # accessor then raises RelatedObjectDoesNotExist, an AttributeError, as a real user would).
    profile = Profile(user_id=pk, balance=balance) if balance is not None else None
    user._state.fields_cache["profile"] = profile
    return user


def _light_seat(seat: Seat, balances: dict[int, int] | None) -> Seat:
    light = _copy(seat)
    if seat.user_id is not None:
        user = seat.user
        profile = getattr(user, "profile", None)
        balance = balances.get(seat.user_id) if balances is not None else None
        if balance is None and profile is not None:
            balance = profile.balance
        light.user = _light_user(seat.user_id, user.get_username(), balance)
    return light


def _balances(seats: list[Seat]) -> dict[int, int]:
    ids = [s.user_id for s in seats if s.user_id is not None]
    return dict(Profile.objects.filter(user_id__in=ids).values_list("user_id", "balance"))
