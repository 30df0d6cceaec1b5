"""Who may watch a table (games/table/access.py): one rule for the page and the socket."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games.models import Table
from games.table import access, commands, opening, presence
from games.table.errors import ServiceError

pytestmark = pytest.mark.django_db


def test_public_tables_are_open_private_ones_to_their_people_and_invitees(alice: User, bob: User) -> None:
    public = opening.create_table(alice, "shanghai")
    private = opening.create_table(alice, "shanghai", public=False)
    nobody, session = AnonymousUser(), {}
    assert access.may_watch(public, nobody, session)
    assert not access.may_watch(private, nobody, session) and not access.may_watch(private, bob, session)
    assert access.may_watch(private, alice, session)  # the owner
    access.remember_invite(private, session, "not-the-token")
    assert not access.may_watch(private, bob, session)
    access.remember_invite(private, session, private.invite_token)
    assert access.may_watch(private, bob, session) and access.may_watch(private, nobody, session)


def test_a_seated_player_may_watch_a_private_table(alice: User, bob: User) -> None:
    private = opening.create_table(alice, "two_player", public=False)
    commands.sit(private.pk, bob, 1)
    assert access.may_watch(private, bob, None)
    seats = list(private.seats.all())
    assert access.may_watch(private, bob, None, seats=seats)  # the loaded seats: no query
    assert not access.may_watch(private, AnonymousUser(), None, seats=seats)


def test_a_socket_s_invite_token_opens_a_private_table(alice: User) -> None:
    private = opening.create_table(alice, "shanghai", public=False)
    assert access.may_watch(private, AnonymousUser(), None, invite=private.invite_token)
    assert not access.may_watch(private, AnonymousUser(), None, invite="guess")


def test_the_socket_s_connect_decides_who_may_watch_and_counts_nothing_when_refused(
    alice: User, bob: User
) -> None:
    """One locked read of the table both admits the socket and counts it."""
    private = opening.create_table(alice, "shanghai", public=False)
    before = Table.objects.get(pk=private.pk)
    with pytest.raises(ServiceError) as refused:
        presence.connect(private.pk, bob)
    assert refused.value.code == "no_table"
    after = Table.objects.get(pk=private.pk)
    assert (after.spectators, after.revision) == (before.spectators, before.revision)
    with pytest.raises(ServiceError) as missing:
        presence.connect(private.pk + 999, bob)
    assert missing.value.code == "no_table"
    presence.connect(private.pk, bob, invite=private.invite_token)
    assert Table.objects.get(pk=private.pk).spectators == before.spectators + 1
