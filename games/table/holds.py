"""Points at stake held while a hand runs (docs/operations.md "Stakes and escapes").

Every running hand holds, of each person seated in it, the table's minimum balance: 50 × its base
stake, what RULES §1.6 asks a player to have before a hand. While it runs nothing at ANOTHER table
(a hand's result, an escape penalty) may take their balance below what their running hands hold,
and no other hand may start on the same points. So a loss at a table is always backed as far as
its hold goes: a player cannot make a hand risk-free by moving their points out through a second
table (an escape share or a lost hand to an account of their own) while it runs.

Nothing is written: a hold is read from the running hands themselves, so it ends the moment a hand
is settled (or an admin closes its table) and can never be left behind by a crash.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from accounts.models import Profile
from games.engine.errors import EngineError
from games.engine.scoring.two_player import cap_of, self_draw_multiplier_of
from games.models import Hand, Seat, Table


def held_elsewhere(user: AbstractBaseUser, table_id: int | None) -> int:
    """What `user`'s running hands at tables other than `table_id` hold (None: at every table).
    One statement written out once, not built by the ORM each time (building it cost more CPU
    than PostgreSQL spent running it)."""
    with connection.cursor() as cursor:
        cursor.execute(_held_sql(), _held_params(user, table_id))
        return _held_of([base for (base,) in cursor.fetchall()])


def _held_params(user: AbstractBaseUser, table_id: int | None) -> list[Any]:
    return [user.pk, Hand.Status.PLAYING, -1 if table_id is None else table_id]


def _held_of(bases: list[int | None]) -> int:
    return sum(Table.minimum_for(base or 1) for base in bases)


# The statements below run on PostgreSQL (the site) and SQLite (`make run`, the browser tests), so
# they keep to SQL both speak: no ARRAY(...) or = ANY(...), and FOR UPDATE only where there is one
# (SQLite locks the whole database for a write transaction instead).
def _for_update() -> str:
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def _placeholders(count: int) -> str:
    return ", ".join(["%s"] * count)


def _one_then_held(first: str) -> str:
    """One statement for a value and the bases `_held_sql` reads: the value in the row marked 0,
    each base in a row marked 1 (`_first_and_bases` splits them)."""
    return f"SELECT 0, ({first}) UNION ALL SELECT 1, held.* FROM ({_held_sql()}) held"


def _first_and_bases(rows: list[tuple[int, Any]]) -> tuple[Any, list[int | None]]:
    first = next((value for mark, value in rows if mark == 0), None)
    return first, [value for mark, value in rows if mark == 1]


@functools.cache
def _columns() -> dict[tuple[str, str], str]:
    """The quoted column names of the statements below: (model's table, field) -> name."""
    q = connection.ops.quote_name
    metas = (Seat._meta, Table._meta, Hand._meta, Profile._meta)
    return {
        (meta.db_table, field.name): q(field.column)
        for meta in metas
        for field in meta.get_fields()
        if field.concrete
    }


@functools.cache
def _held_sql() -> str:
    """The bases of the tables, other than one (-1: none), where a user's seat is in a running hand."""
    return _running_seats("", "= %s")


@functools.cache
def _available_sql() -> str:
    """A user's balance (NULL: no profile) and the bases their running hands elsewhere hold."""
    q = connection.ops.quote_name
    profile = Profile._meta.db_table
    c = _columns()
    balance = f"SELECT {c[profile, 'balance']} FROM {q(profile)} WHERE {c[profile, 'user']} = %s"
    return _one_then_held(balance)


@functools.cache
def _seats_and_held_sql() -> str:
    """A user's seats at tables not closed, and the bases their running hands elsewhere hold."""
    q = connection.ops.quote_name
    seat, table = Seat._meta.db_table, Table._meta.db_table
    c = _columns()
    seats = (
        f"SELECT count(*) FROM {q(seat)} s JOIN {q(table)} t ON t.{c[table, 'id']} = s.{c[seat, 'table']}"
        f" WHERE s.{c[seat, 'user']} = %s AND t.{c[table, 'status']} <> %s"
    )
    return _one_then_held(seats)


@functools.cache
def _lock_balance_sql() -> str:
    q = connection.ops.quote_name
    profile = Profile._meta.db_table
    c = _columns()
    return f"SELECT {c[profile, 'balance']} FROM {q(profile)} WHERE {c[profile, 'user']} = %s{_for_update()}"


@functools.cache
def _lock_balances_sql(count: int) -> str:
    """Lock `count` users' profile rows in one order (by user id) and read their balances."""
    q = connection.ops.quote_name
    profile = Profile._meta.db_table
    c = _columns()
    user, balance = c[profile, "user"], c[profile, "balance"]
    return (
        f"SELECT {user}, {balance} FROM {q(profile)} WHERE {user} IN ({_placeholders(count)})"
        f" ORDER BY {user}{_for_update()}"
    )


@functools.cache
def _held_by_each_sql(count: int) -> str:
    """`_held_sql` for `count` users at once: (user, base) of each seat in a running hand."""
    return _running_seats(f"s.{_columns()[Seat._meta.db_table, 'user']}, ", f"IN ({_placeholders(count)})")


def _running_seats(user_column: str, users: str) -> str:
    """The bases (after `user_column`, if any) of the seats of `users` (a condition on the seat's
    user) in running hands at tables other than one (-1: none)."""
    q = connection.ops.quote_name
    seat, table, hand = Seat._meta.db_table, Table._meta.db_table, Hand._meta.db_table
    c = _columns()
    return (
        f"SELECT {user_column}t.{c[table, 'base']} FROM {q(seat)} s"
        f" JOIN {q(table)} t ON t.{c[table, 'id']} = s.{c[seat, 'table']}"
        f" JOIN {q(hand)} h ON h.{c[hand, 'id']} = t.{c[table, 'hand']}"
        f" WHERE s.{c[seat, 'user']} {users} AND h.{c[hand, 'status']} = %s"
        f" AND s.{c[seat, 'table']} <> %s"
    )


def available(user: AbstractBaseUser, table_id: int | None) -> int:
    """The part of the balance that play at `table_id` may use or lose: all but what running hands
    elsewhere hold (never below 0). One statement (asked at every stake accepted)."""
    with connection.cursor() as cursor:
        cursor.execute(_available_sql(), [user.pk, *_held_params(user, table_id)])
        balance, bases = _first_and_bases(cursor.fetchall())
    return max(0, (balance or 0) - _held_of(bases))


def lock_balance(user: AbstractBaseUser) -> int | None:
    """Lock the user's profile row (in the caller's transaction) and return its balance (None:
    no profile). Precompiled: asked at every sit-down."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_balance_sql(), [user.pk])
        row = cursor.fetchone()
    return row[0] if row is not None else None


def seats_and_held(user: AbstractBaseUser, table_id: int) -> tuple[int, int]:
    """How many seats `user` has at tables not closed, and what their running hands at tables
    other than `table_id` hold (`held_elsewhere`): one statement, at every sit-down."""
    with connection.cursor() as cursor:
        cursor.execute(_seats_and_held_sql(), [user.pk, Table.Status.CLOSED, *_held_params(user, table_id)])
        seats, bases = _first_and_bases(cursor.fetchall())
    return seats or 0, _held_of(bases)


def lock_accounts(users: list[AbstractBaseUser]) -> dict[int, int]:
    """Serialise two tables starting a hand on the same player's points at once (each would see
    the other not running yet): lock their profile rows, in one order, inside the change's
    transaction. The later start then reads the earlier one's hold. Returns their balances as
    the lock read them (user id -> balance; no profile, no entry)."""
    ids = sorted({u.pk for u in users})
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_lock_balances_sql(len(ids)), ids)
        return dict(cursor.fetchall())


def available_after_lock(users: list[AbstractBaseUser], table_id: int) -> dict[int, int]:
    """`available` of each of `users` (user id -> points) with their accounts locked first
    (`lock_accounts`): two precompiled statements for a table's people, not two per person."""
    if not users:  # an all-bot table: nobody's points to hold (and `IN ()` is no SQL)
        return {}
    balances = lock_accounts(users)
    held: dict[int, int] = {}
    with connection.cursor() as cursor:
        ids = [u.pk for u in users]
        cursor.execute(_held_by_each_sql(len(ids)), [*ids, Hand.Status.PLAYING, table_id])
        rows = cursor.fetchall()
    for user_id, base in rows:
        held[user_id] = held.get(user_id, 0) + Table.minimum_for(base or 1)
    return {u.pk: max(0, balances.get(u.pk, 0) - held.get(u.pk, 0)) for u in users}


def most_a_hand_costs(table: Table) -> int:
    """The most one hand at `table` can cost a seat, as far as the site counts it: the hold (50 ×
    base), or less where the rules cap a hand's value — two-player: the fan cap × the self-draw
    multiplier × base (13 × 3 by default). An escape share never exceeds it."""
    base = table.base or 1
    most = Table.minimum_for(base)
    if table.variant == "two_player":
        options = table.options or {}
        try:
            capped = cap_of(options) * self_draw_multiplier_of(options) * base
        except EngineError:  # options are checked when the table is made; never fail a settlement
            capped = most
        most = min(most, capped)
    return most
