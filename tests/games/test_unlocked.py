"""A hand action made on this process's snapshot without the table's lock (games/table/unlocked.py):
one statement when the snapshot is what the database holds; when the table moved on meanwhile,
nothing of it is written or kept and the change is made under the lock, as before."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from games.engine.view import legal_json
from games.models import Hand, HandAction, Table
from games.table import commands, hand_log, opening, snapshots, store, travel
from games.table.errors import ServiceError

pytestmark = [
    pytest.mark.django_db(transaction=True),  # snapshots are kept on commit; no test transaction
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the compare-and-set is PostgreSQL's"),
]


@pytest.fixture(autouse=True)
def _fresh_snapshots() -> None:
    snapshots.forget()


def started_table(alice: User) -> tuple[Table, User]:
    """Four people at a table in play (no pause, no undo window), and the dealer, who discards first."""
    people = [alice, *(User.objects.create_user(username=f"player{i}") for i in (1, 2, 3))]
    table = opening.create_table(alice, "shanghai", undo_ms=0, min_pause_ms=0)
    for index, user in enumerate(people):
        commands.sit(table.pk, user, index)
    commands.set_stake(table.pk, alice, 1)
    for user in people[1:]:
        commands.accept_stake(table.pk, user)
    commands.start_hand(table.pk, alice)
    table = Table.objects.get(pk=table.pk)
    state = store.load(table).state
    assert state is not None and state.phase == "turn"
    return table, people[state.turn]


def dealer_discards(table: Table) -> list[dict[str, Any]]:
    """The dealer's discards, one per tile."""
    state = store.load(table).state
    assert state is not None
    moves = [a for a in legal_json(state, state.turn) if a["type"] == "discard"]
    return list({str(a["tile"]): a for a in moves}.values())


@contextmanager
def _statements() -> Iterator[list[str]]:
    """The SQL of every statement sent (the compare-and-set's text too: it is prepared, which the
    debug cursor's log of executed queries cannot show)."""
    sent: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield sent


def _replayed(hand_id: int, count: int) -> Any:
    hand = Hand.objects.get(pk=hand_id)
    hand.actions_count = count
    return hand_log.replay_hand(hand, "shanghai")


def test_a_hand_action_on_a_current_snapshot_is_one_statement(alice: User) -> None:
    table, dealer = started_table(alice)
    assert snapshots.at(table.pk, table.revision) is not None
    discard = dealer_discards(table)[0]
    with _statements() as statements:
        done = commands.perform(table.pk, dealer, table.version, discard)
    # no BEGIN, no locked read, no COMMIT: the compare-and-set alone
    assert len(statements) == 1 and "SELECT 1 / count(*)" in statements[0]
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.revision == done.revision == table.revision + 1
    assert fresh.deadline_version == fresh.revision and fresh.version > table.version
    hand = Hand.objects.get(pk=fresh.hand_id)
    seqs = list(HandAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, hand.actions_count + 1)) and hand.actions_count >= 1  # (bots answer too)
    kept = snapshots.at(table.pk, fresh.revision, fresh.created)  # kept and announced
    assert kept is not None
    assert kept.states[(hand.pk, hand.actions_count)] == _replayed(hand.pk, hand.actions_count)


def test_a_snapshot_the_table_moved_past_writes_nothing_and_the_lock_decides(alice: User) -> None:
    table, dealer = started_table(alice)
    first, second = dealer_discards(table)[:2]
    old = snapshots.newest(table.pk)
    assert old is not None
    commands.act(table.pk, dealer, first)  # as another process would: under the lock
    moved = Table.objects.get(pk=table.pk)
    logged = list(HandAction.objects.filter(hand_id=table.hand_id).values_list("seq", "action"))
    snapshots.forget(table.pk)
    snapshots.keep(old.blob, old.states)  # … and this process never heard of it
    with _statements() as statements, pytest.raises(ServiceError):
        commands.perform(table.pk, dealer, table.version, second)  # her second discard: refused
    assert "SELECT 1 / count(*)" in statements[0]  # tried on the snapshot: nothing written …
    assert any("FOR UPDATE" in sql for sql in statements[1:])  # … then under the lock
    assert list(HandAction.objects.filter(hand_id=table.hand_id).values_list("seq", "action")) == logged
    assert Table.objects.get(pk=table.pk).revision == moved.revision
    # the states worked out on the old snapshot were never kept as the log's
    for count in range(1, len(logged) + 1):
        cached = hand_log.cached_states([(table.hand_id, count)])
        assert cached == {(table.hand_id, count): _replayed(table.hand_id, count)}


def test_a_spectator_counted_without_a_new_revision_shows_in_the_next_snapshot(alice: User) -> None:
    """The count is written quietly (no new revision), so the snapshot an action is made on may
    hold an older one; the new snapshot shows the row's, not the old snapshot's."""
    table, dealer = started_table(alice)
    assert snapshots.newest(table.pk) is not None
    discard = dealer_discards(table)[0]
    Table.objects.filter(pk=table.pk).update(spectators=3)  # another process's spectators
    with _statements() as statements:
        done = commands.perform(table.pk, dealer, table.version, discard)
    assert len(statements) == 1  # made on the snapshot
    newest = snapshots.newest(table.pk)
    assert newest is not None and newest.table.revision == done.revision
    kept, _seats, _hand = snapshots.unpack_rows(newest.blob)
    assert kept.spectators == 3


def test_an_action_inside_a_transaction_takes_the_lock(alice: User) -> None:
    table, dealer = started_table(alice)
    discard = dealer_discards(table)[0]
    with _statements() as sent, transaction.atomic():
        commands.perform(table.pk, dealer, table.version, discard)
    statements = [sql for sql in sent if '"games_table"' in sql]
    assert "FOR UPDATE" in statements[0] and not any(sql.endswith("count(*) FROM w0") for sql in statements)


def _fields(row: Any) -> dict[str, Any]:
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def test_the_snapshot_kept_from_its_own_rows_is_what_its_blob_holds(alice: User) -> None:
    """Kept from the change's rows, not unpacked from the bytes it announced: the same fields and
    light users as unpacking gives, and nothing the caller does to the table it got back reaches it."""
    table, dealer = started_table(alice)
    discard = dealer_discards(table)[0]
    with _statements() as statements:
        done = commands.perform(table.pk, dealer, table.version, discard)
    assert len(statements) == 1  # made on the snapshot
    kept = snapshots.at(table.pk, done.revision)
    assert kept is not None and kept.table is not done
    unpacked, seats, hand = snapshots.unpack_rows(kept.blob)
    assert _fields(kept.table) == _fields(unpacked)
    assert [_fields(s) for s in kept.seats] == [_fields(s) for s in seats]
    assert kept.hand is not None and hand is not None and _fields(kept.hand) == _fields(hand)
    for mine, theirs in zip(kept.seats, seats, strict=True):
        assert (mine.user.pk, mine.user.username) == (theirs.user.pk, theirs.user.username)
        assert mine.user.password == ""
        assert mine.user.profile.balance == theirs.user.profile.balance
    assert kept.table.owner.password == "" and kept.table.owner.pk == alice.pk
    done.revision += 7
    done.spectators = 99
    assert kept.table.revision == unpacked.revision and kept.table.spectators == unpacked.spectators


@pytest.mark.parametrize(
    ("watched_here", "wanted", "carried"),
    [(True, False, False), (True, True, True), (False, False, True)],
)
def test_a_hand_action_goes_through_the_layer_with_its_snapshot_only_when_another_process_needs_it(
    alice: User, monkeypatch: pytest.MonkeyPatch, watched_here: bool, wanted: bool, carried: bool
) -> None:
    """Where this process's sockets watch the table and no other process asked, the snapshot
    is kept unpacked and the announcement handed to them here, bare; packed on demand, it is what
    packing its rows gives. Asked for, or made where no socket of the table is (the clock), it
    goes through the channel layer with the snapshot."""
    table, dealer = started_table(alice)
    through_layer: list[bytes | None] = []
    handed_here: list[dict[str, Any]] = []

    def hand_here(table_id: int, message: dict[str, Any]) -> bool:
        handed_here.append(message)
        return watched_here

    monkeypatch.setattr(
        store, "broadcast", lambda table_id, version, snapshot=None: through_layer.append(snapshot)
    )
    monkeypatch.setattr(travel, "_watched_here", lambda table_id: watched_here)
    monkeypatch.setattr(travel, "_hand_here", hand_here)
    if wanted:
        travel.heard(table.pk, {"type": travel.WANTED, "table": table.pk, "by": "another process"})
    done = commands.perform(table.pk, dealer, table.version, dealer_discards(table)[0])
    kept = snapshots.at(table.pk, done.revision)
    assert kept is not None and (kept.packed is not None) is carried
    assert kept.blob == snapshots.pack(kept.table, kept.seats, kept.hand, kept.states, False)
    if carried:
        assert through_layer == [kept.blob] and handed_here == []
    else:
        assert through_layer == []
        assert handed_here == [{"type": "table.changed", "table": table.pk, "version": done.revision}]
