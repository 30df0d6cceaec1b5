"""Snapshots (games/table/snapshots.py): what a change announces, what a socket renders from, and the
seats a change reuses — always what the database holds at that version, and nothing private."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import change_balance
from games.models import Table
from games.rendering.presenters import snapshot_context, table_context
from games.table import commands, opening, snapshots, store
from tests.games.conftest import balance, bot_table

pytestmark = pytest.mark.django_db(transaction=True)  # snapshots are kept on commit


@pytest.fixture(autouse=True)
def _fresh_snapshots() -> None:
    snapshots.forget()


def _started(alice: User) -> Table:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    return Table.objects.get(pk=table.pk)


def test_a_change_keeps_a_snapshot_of_its_own_version(alice: User) -> None:
    table = _started(alice)
    snapshot = snapshots.at(table.pk, table.revision, table.created)
    assert snapshot is not None and snapshot.version == table.revision
    assert snapshots.at(table.pk, table.revision - 1) is None
    assert snapshots.at(table.pk, table.revision, table.created.replace(year=2000)) is None


def test_users_in_a_snapshot_carry_id_name_and_balance_only(alice: User) -> None:
    table = _started(alice)
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    owner = snapshot.table.owner
    assert (owner.pk, owner.username, owner.password, owner.email) == (alice.pk, "alice", "", "")
    seat = snapshot.seats[0]
    assert (seat.user.pk, seat.user.username, seat.user.password) == (alice.pk, "alice", "")
    assert seat.user.profile.balance == alice.profile.balance
    assert b"pbkdf2" not in snapshot.blob and alice.password.encode() not in snapshot.blob


def test_a_snapshot_renders_what_a_load_renders(alice: User, bob: User) -> None:
    table = _started(alice)
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    for viewer in (alice, bob, None):
        fresh = table_context(table.pk, viewer)
        kept = snapshot_context(snapshot, viewer)
        assert kept is not None
        for part in ("table", "view"):
            fresh[part].pop("deadline_ms", None), kept[part].pop("deadline_ms", None)  # the time moves on
        assert kept == fresh


def test_unpacking_gives_a_private_copy(alice: User) -> None:
    table = _started(alice)
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    _table, seats, _hand, _states = snapshots.unpack(snapshot.blob)
    seats[0].accepted = not seats[0].accepted
    assert snapshot.seats[0].accepted != seats[0].accepted


def test_the_next_change_reuses_the_seats_and_hand_of_the_snapshot(alice: User) -> None:
    table = _started(alice)
    with CaptureQueriesContext(connection) as queries:
        commands.set_auto(table.pk, alice, True)
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not any('FROM "games_seat"' in sql or 'FROM "games_hand"' in sql for sql in reads), reads
    snapshots.forget(table.pk)
    with CaptureQueriesContext(connection) as queries:
        commands.set_auto(table.pk, alice, False)
    assert any('FROM "games_seat"' in q["sql"] for q in queries.captured_queries)


def test_a_snapshot_at_another_version_is_not_used(alice: User) -> None:
    table = _started(alice)
    Table.objects.filter(pk=table.pk).update(revision=table.revision + 1)  # a change it did not see
    with CaptureQueriesContext(connection) as queries:
        commands.set_auto(table.pk, alice, True)
    assert any('FROM "games_seat"' in q["sql"] for q in queries.captured_queries)


def test_balances_are_read_again_after_they_change(alice: User) -> None:
    table = _started(alice)
    ctx = store.load(Table.objects.get(pk=table.pk))
    change_balance(alice, -5, "hand")  # e.g. a settlement in the same transaction
    believed = snapshots.unpack(snapshots.pack(ctx.table, ctx.seats, ctx.hand, {}, fresh_balances=False))
    fresh = snapshots.unpack(snapshots.pack(ctx.table, ctx.seats, ctx.hand, {}, fresh_balances=True))
    assert fresh[1][0].user.profile.balance == balance(alice)
    assert believed[1][0].user.profile.balance == balance(alice) + 5


def test_keep_prefers_the_newer_version_and_a_rebuilt_table(alice: User) -> None:
    table = _started(alice)
    newest = snapshots.at(table.pk, table.revision)
    assert newest is not None
    ctx = store.load(Table.objects.get(pk=table.pk))
    ctx.table.revision -= 1
    older = snapshots.pack(ctx.table, ctx.seats, ctx.hand, {}, fresh_balances=False)
    snapshots.keep(older)
    assert snapshots.at(table.pk, table.revision) is newest
    ctx.table.created = ctx.table.created.replace(year=2000)  # the same id, another table
    snapshots.keep(snapshots.pack(ctx.table, ctx.seats, ctx.hand, {}, fresh_balances=False))
    assert snapshots.at(table.pk, table.revision - 1) is not None


def test_seats_read_without_a_snapshot_get_light_users_with_balances(alice: User, bob: User) -> None:
    from accounts.models import Profile
    from games.models import Seat

    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, alice, 0)
    commands.sit(table.pk, bob, 1)
    Profile.objects.filter(user=bob).delete()  # an account never opened: no balance
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    with CaptureQueriesContext(connection) as queries:
        snapshots.attach_users(seats)
        names = [seat.user.get_username() for seat in seats]
        first_balance = seats[0].user.profile.balance
    assert len(queries) == 1 and names == ["alice", "bob"]
    assert first_balance == balance(alice)
    assert seats[0].user.password == "" and seats[0].user.email == ""  # never the secrets
    with pytest.raises(AttributeError):
        seats[1].user.profile  # noqa: B018 - no profile, as for the real user
    snapshots.attach_owner(table)
    assert table.owner.get_username() == "alice"


def _values(row: Any) -> tuple[Any, ...]:
    return tuple(getattr(row, f.attname) for f in type(row)._meta.concrete_fields)


def test_private_rows_are_what_unpacking_gives_and_altering_them_leaves_the_snapshot(alice: User) -> None:
    """A change made on a snapshot works on `private_rows`: the same values as unpacking the
    bytes, and nothing it alters in place (a notice, a nested JSON value) reaches the snapshot."""
    table = _started(alice)
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None and snapshot.hand is not None
    mine, seats, hand = snapshots.private_rows(snapshot)
    unpacked, unpacked_seats, unpacked_hand = snapshots.unpack_rows(snapshot.blob)
    assert _values(mine) == _values(unpacked)
    assert [_values(s) for s in seats] == [_values(s) for s in unpacked_seats]
    assert hand is not None and unpacked_hand is not None
    assert _values(hand) == _values(unpacked_hand)
    assert [s.user.username if s.user_id else None for s in seats] == [
        s.user.username if s.user_id else None for s in snapshot.seats
    ]
    mine.notices["1"] = "a notice"
    mine.version += 5
    hand.setup.setdefault("options", {})["nested"] = True
    seats[0].pending = {"type": "pong"}
    if seats[0].rank is not None:
        seats[0].rank["tier"] = 99
    assert "1" not in snapshot.table.notices and snapshot.table.version == table.version
    assert "nested" not in snapshot.hand.setup.get("options", {})
    assert snapshot.seats[0].pending is None
    assert snapshot.seats[0].rank is None or snapshot.seats[0].rank.get("tier") != 99
    assert snapshots.private_rows(snapshot)[0] is not snapshot.table
