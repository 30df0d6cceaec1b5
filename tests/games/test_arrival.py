"""A table socket's arrival in one database call (games.sockets.arrival)."""

from __future__ import annotations

import pytest
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import User

from common import settings_store
from games.models import Seat, Table
from games.sockets.arrival import arrive
from tests.games.conftest import two_seated
from tests.games.test_spectator_delay import quick_table

pytestmark = pytest.mark.django_db


def connections(table: Table, index: int) -> int:
    return Seat.objects.get(table=table, index=index).connections


def test_a_player_arriving_is_counted_for_the_seat_and_sees_the_table_live(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    arrived = arrive(table.pk, alice, None, None, "", False)
    assert arrived is not None
    assert arrived.version == Table.objects.get(pk=table.pk).revision
    assert (arrived.socket_id, arrived.spectator_delay) == (None, 0)
    assert connections(table, 0) == 1


def test_a_quick_matchs_spectator_is_told_the_delay() -> None:
    table = quick_table()
    arrived = arrive(table.pk, None, None, None, "", False)
    assert arrived is not None
    assert arrived.spectator_delay == settings_store.current().spectator_delay_seconds > 0
    assert Table.objects.get(pk=table.pk).spectators == 1


def test_a_closed_account_arrives_nowhere_and_is_not_counted(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert arrive(table.pk, alice, None, None, "", False) is None
    assert connections(table, 0) == 0


def test_a_session_made_before_a_password_change_arrives_nowhere(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    session = {HASH_SESSION_KEY: alice.get_session_auth_hash()}
    alice.set_password("a new password 7f3k")
    alice.save()
    assert arrive(table.pk, alice, None, session, "", True) is None
    assert connections(table, 0) == 0
    # A token's socket carries no session: its password is not what it was signed in with.
    assert arrive(table.pk, alice, None, session, "", False) is not None
    assert connections(table, 0) == 1
