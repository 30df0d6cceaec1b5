"""A snapshot's bytes (games/table/packing.py): rows and hand states as plain values come back as
what pickling them whole gave, a JSON value's private copy is a copy, and the seated users are
shared only between kept snapshots."""

from __future__ import annotations

import dataclasses
import datetime
import pickle
import random
from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User

from games.engine.actions import apply, legal_actions, new_hand, seats_to_act
from games.engine.state import HandState, memo
from games.models import Table
from games.table import commands, packing, snapshots
from tests.games.conftest import bot_table


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "PLAIN", True)


def _fields(row: Any) -> dict[str, Any]:
    return {name: value for name, value in vars(row).items() if name != "_state"}


def test_a_row_travels_with_its_datetimes_as_bytes_and_its_status_as_its_value(plain: None) -> None:
    created = datetime.datetime(2026, 11, 28, 9, 30, 1, 250, tzinfo=datetime.UTC)
    table = Table(pk=7, variant="shanghai", status=Table.Status.PLAYING, created=created)
    values = packing.row_values(table)
    assert not any(isinstance(v, datetime.datetime | Table.Status) for v in values)
    back = packing.row(Table, pickle.loads(pickle.dumps(values)))  # noqa: S301 - the test's own bytes
    assert _fields(back) == _fields(table)
    assert (
        back.created.tzinfo is datetime.UTC and type(back.status) is str
    )  # (as a row read from the database)
    assert back._state.adding is False and back._state.db == "default"


def test_a_datetime_in_another_zone_or_naive_travels_as_it_is(plain: None) -> None:
    for created in (
        datetime.datetime(2026, 11, 28, 9, 30, tzinfo=ZoneInfo("Asia/Shanghai")),
        datetime.datetime(2026, 11, 28, 9, 30),
        None,
    ):
        table = Table(pk=7, variant="shanghai", created=created)
        values = packing.row_values(table)
        assert created in values
        back = packing.row(Table, values)
        assert back.created == created and getattr(back.created, "tzinfo", None) == getattr(
            created, "tzinfo", None
        )


def test_rows_pickled_whole_are_still_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "PLAIN", False)
    table = Table(
        pk=7,
        variant="shanghai",
        status=Table.Status.PLAYING,
        created=datetime.datetime.now(datetime.UTC),
    )
    values = packing.row_values(table)
    assert table.created in values and Table.Status.PLAYING in values
    assert _fields(packing.row(Table, values)) == _fields(table)


def _hands() -> Iterator[HandState]:
    """Every state of a few hands played at random, claims preferred (melds, windows, results)."""
    rng = random.Random(5)
    for variant, seed in (("shanghai", 1), ("cantonese", 2), ("tianjin", 3), ("two_player", 4)):
        state = new_hand(variant, seed)
        yield state
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            actions = legal_actions(state, seat)
            claims = [a for a in actions if a.type not in ("pass", "discard")]
            state, _events = apply(state, seat, rng.choice(claims or actions))
            yield state


def _state(state: Any) -> Any:
    """A state's attributes as they compare (its players' and melds' with their types)."""
    fields = {k: v for k, v in vars(state).items() if k != "_memo"}
    fields["players"] = [
        (type(p), {k: v for k, v in vars(p).items() if k != "_memo"}, [(type(m), vars(m)) for m in p.melds])
        for p in state.players
    ]
    return type(state), fields


def test_states_as_plain_values_come_back_as_pickling_them_gave(plain: None) -> None:
    seen = 0
    for state in _hands():
        memo(state)["seen"] = True  # (what a process memoised stays in it)
        memo(state.players[0])["seen"] = True
        key = (1, state.step)
        blob = packing.states_bytes({key: state})
        back = packing.states_from(blob)
        whole = pickle.loads(pickle.dumps({key: state}))  # noqa: S301 - the test's own bytes
        assert _state(back[key]) == _state(whole[key]) and back[key] == state
        assert "_memo" not in vars(back[key]) and "_memo" not in vars(back[key].players[0])
        seen += 1
    assert seen > 100


def test_states_with_anything_but_their_fields_are_pickled_whole(plain: None) -> None:
    state = new_hand("shanghai", 1)
    odd = dataclasses.replace(state)
    object.__setattr__(odd, "extra", 1)
    assert isinstance(pickle.loads(packing.states_bytes({(1, 0): odd})), dict)  # noqa: S301
    assert packing.states_from(packing.states_bytes({(1, 0): odd}))[(1, 0)].extra == 1  # type: ignore[attr-defined]
    assert isinstance(pickle.loads(packing.states_bytes({(1, 0): state})), tuple)  # noqa: S301
    assert packing.states_from(packing.states_bytes({})) == {}


def test_states_pickled_whole_are_still_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "PLAIN", False)
    state = new_hand("shanghai", 1)
    blob = packing.states_bytes({(1, 0): state})
    assert isinstance(pickle.loads(blob), dict)  # noqa: S301
    assert packing.states_from(blob) == {(1, 0): state}


def test_a_json_values_private_copy_shares_nothing_it_could_alter() -> None:
    inner: dict[str, Any] = {"a": 1}
    for value in ({}, {"x": 1, "y": "z"}, [1, "a", None], {"options": {"k": [1, 2]}, "n": 3}, [{"a": [1]}]):
        copied = packing.own(value)
        assert copied == value and copied is not value and type(copied) is type(value)
    nested = {"options": {"k": [1, 2]}}
    packing.own(nested)["options"]["k"].append(3)
    assert nested == {"options": {"k": [1, 2]}}
    aliased = packing.own({"one": inner, "two": inner})  # (through pickle: the two stay one object)
    assert aliased == {"one": {"a": 1}, "two": {"a": 1}} and aliased["one"] is aliased["two"]
    assert aliased["one"] is not inner
    odd = packing.own({"t": (1, 2)})
    assert odd == {"t": (1, 2)} and type(odd["t"]) is tuple
    assert packing.own("text") == "text" and packing.own(5) == 5


@pytest.mark.django_db(transaction=True)
def test_kept_snapshots_share_their_seated_users_and_unpacking_does_not(alice: User) -> None:
    snapshots.forget()
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    snapshot = snapshots.newest(table.pk)
    assert snapshot is not None
    snapshots.forget(table.pk)
    first = snapshots.keep(snapshot.blob)  # (taken in as another process does)
    snapshots.forget(table.pk)
    second = snapshots.keep(snapshot.blob)
    assert first.seats[0].user is second.seats[0].user
    assert first.seats[0].user.profile.balance == snapshot.seats[0].user.profile.balance
    _table, seats, _hand, _states = snapshots.unpack(snapshot.blob)
    assert seats[0].user is not first.seats[0].user
    assert _fields(seats[0].user) == _fields(first.seats[0].user)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("plain_packing", [True, False])
def test_a_snapshot_unpacks_to_the_same_rows_in_either_form(
    alice: User, monkeypatch: pytest.MonkeyPatch, plain_packing: bool
) -> None:
    snapshots.forget()
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    snapshot = snapshots.newest(table.pk)
    assert snapshot is not None and snapshot.hand is not None
    monkeypatch.setattr(packing, "PLAIN", plain_packing)
    blob = snapshots.pack(snapshot.table, snapshot.seats, snapshot.hand, snapshot.states, False)
    got, seats, hand, states = snapshots.unpack(blob)
    assert _fields(got) == _fields(snapshot.table)
    assert [_fields(s) for s in seats] == [_fields(s) for s in snapshot.seats]
    assert hand is not None and _fields(hand) == _fields(snapshot.hand)
    newest = (snapshot.hand.pk, snapshot.hand.actions_count)
    assert states == {newest: snapshot.states[newest]}
    assert [s.user.username if s.user_id else None for s in seats] == [
        s.user.username if s.user_id else None for s in snapshot.seats
    ]
