"""common/rows.py: the hot path's statements read and write what the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from common.rows import RowSql
from games.models import Hand, HandAction, Seat, Table
from games.table import commands, opening
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db

TABLES, SEATS, ACTIONS = RowSql(Table), RowSql(Seat), RowSql(HandAction)


def _fields(row: object, model: type) -> dict[str, object]:
    return {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields}


def test_lock_reads_every_field_as_the_orm_does(alice: User) -> None:
    table = bot_table(alice)
    Table.objects.filter(pk=table.pk).update(notices={"7": "消息"}, pause_until=timezone.now())
    with transaction.atomic():
        locked = TABLES.lock(table.pk)
    assert locked is not None and not locked._state.adding
    assert _fields(locked, Table) == _fields(Table.objects.get(pk=table.pk), Table)
    assert TABLES.lock(10**9) is None


def test_update_writes_the_named_fields_only(alice: User) -> None:
    table = bot_table(alice)
    stale = Table.objects.get(pk=table.pk)
    Table.objects.filter(pk=table.pk).update(spectators=5)  # someone else's change
    stale.version += 1
    stale.notices = {"1": "a"}
    stale.deadline = timezone.now() + timedelta(seconds=3)
    assert TABLES.update(stale, ["version", "notices", "deadline"]) == 1
    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.version, fresh.notices, fresh.deadline) == (stale.version, {"1": "a"}, stale.deadline)
    assert fresh.spectators == 5


def test_update_and_delete_tell_whether_the_row_was_there(alice: User) -> None:
    table = bot_table(alice)
    seat = Seat.objects.filter(table=table).first()
    assert seat is not None
    assert SEATS.delete(seat.pk) is True
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert SEATS.delete(seat.pk) is False
    assert SEATS.update(seat, ["accepted"]) == 0


def test_insert_fills_automatic_fields_and_the_key(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    hand = Hand.objects.get(table=table)
    before = timezone.now()
    row = ACTIONS.insert(HandAction(hand=hand, seq=999, seat=1, action={"type": "pass"}, actor="human"))
    stored = HandAction.objects.get(pk=row.pk)
    assert (stored.seq, stored.action, stored.actor) == (999, {"type": "pass"}, "human")
    assert stored.created >= before


def test_add_is_atomic_and_never_below_zero(alice: User) -> None:
    table = bot_table(alice)
    seat = Seat.objects.get(table=table, index=0)
    stale = Seat.objects.get(pk=seat.pk)
    assert SEATS.add(seat, "connections", 2) == 2
    assert SEATS.add(stale, "connections", 1) == 3  # counts from the database, not the copy
    assert SEATS.add(seat, "connections", -5) == 0
    assert Seat.objects.get(pk=seat.pk).connections == 0


def test_column_reads_one_column_of_the_rows_that_exist(alice: User) -> None:
    first, second = bot_table(alice), bot_table(alice)
    Table.objects.filter(pk=second.pk).update(version=7)
    expected = dict(Table.objects.filter(pk__in=[first.pk, second.pk]).values_list("pk", "version"))
    assert TABLES.column([first.pk, second.pk, 10**9], "version") == expected
    assert expected[second.pk] == 7
    assert TABLES.column([], "version") == {}


def test_find_reads_a_row_by_a_unique_field_as_the_orm_does(alice: User) -> None:
    table = bot_table(alice)
    Table.objects.filter(pk=table.pk).update(notices={"3": "你好"})
    found = TABLES.find("id", table.pk)
    assert found is not None and not found._state.adding
    assert _fields(found, Table) == _fields(Table.objects.get(pk=table.pk), Table)
    assert TABLES.find("id", 10**9) is None
    assert RowSql(User).find("username", "alice") == alice


def test_first_matches_every_condition_in_order_as_the_orm_does(alice: User) -> None:
    from games.moderation.models import Ban

    now = timezone.now()
    spans = [(-3, 1), (-1, 5), (-9, -2), (2, 9)]  # (starts, ends) in hours from now
    for starts, ends in spans:
        Ban.objects.create(user=alice, starts=now + timedelta(hours=starts), ends=now + timedelta(hours=ends))
    rows = RowSql(Ban)
    where = [("user_id", "=", alice.pk), ("starts", "<=", now), ("ends", ">", now)]
    orm = Ban.objects.filter(user=alice, starts__lte=now, ends__gt=now)
    assert rows.first(where, order=("ends", "DESC")) == orm.order_by("-ends").first()
    assert rows.first(where, order=("ends", "ASC")) == orm.order_by("ends").first()
    assert rows.first([("user_id", "=", alice.pk), ("ends", ">", now + timedelta(hours=10))]) is None
    with pytest.raises(ValueError):
        rows.first([("user_id", "; DROP", 1)])


def test_select_returns_every_match_in_order_up_to_the_limit(alice: User) -> None:
    table = opening.create_table(alice, "shanghai")
    rows = RowSql(Seat)
    seats = rows.select([("table_id", "=", table.pk)], order=("index", "DESC"))
    assert [s.index for s in seats] == [3, 2, 1, 0]
    assert [_fields(s, Seat) for s in seats] == [
        _fields(s, Seat) for s in Seat.objects.filter(table=table).order_by("-index")
    ]
    assert len(rows.select([("table_id", "=", table.pk)], limit=2)) == 2
    assert rows.select([("table_id", "=", 10**9)]) == []


def test_set_part_is_the_update_part_of_a_row_known_by_its_key(db: None) -> None:
    rows = RowSql(Hand)
    assert rows.set_part(7, {"actions_count": 42}) == rows.update_part(
        Hand(pk=7, actions_count=42), ["actions_count"]
    )
    sql, params = rows.set_part(7, {"actions_count": 42})
    assert sql.startswith("UPDATE") and params == [42, 7]


def test_a_row_shape_reads_every_field_as_its_attributes_do_a_deferred_one_too(alice: User) -> None:
    import operator

    from common.row_shape import RowShape

    table = bot_table(alice)
    Table.objects.filter(pk=table.pk).update(notices={"7": "消息"})
    shape = RowShape(Table)
    row = Table.objects.get(pk=table.pk)
    frozen_notices = shape.values(row)[shape.names.index("notices")]
    row.notices["8"] = "another"  # (a JSON value is frozen: changed in place, it compares unequal)
    assert shape.values(row)[shape.names.index("notices")] != frozen_notices
    expected = operator.attrgetter(*shape.names)(Table.objects.get(pk=table.pk))
    deferred = Table.objects.only("id").get(pk=table.pk)
    assert "owner_id" not in vars(deferred)
    read = shape.values(deferred)  # (the missing fields loaded through their descriptors)
    json = {shape.names.index(n) for n in ("options", "counters", "notices")}
    assert [v for i, v in enumerate(read) if i not in json] == [
        v for i, v in enumerate(expected) if i not in json
    ]
