"""Who may watch a table (games/access.py): one rule for the page and the socket."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games import access, services

pytestmark = pytest.mark.django_db


def test_public_tables_are_open_private_ones_to_their_people_and_invitees(alice: User, bob: User) -> None:
    public = services.create_table(alice, "shanghai")
    private = services.create_table(alice, "shanghai", public=False)
    nobody, session = AnonymousUser(), {}
    assert access.may_watch(public, nobody, session)
    assert not access.may_watch(private, nobody, session) and not access.may_watch(private, bob, session)
    assert access.may_watch(private, alice, session)  # the owner
    access.remember_invite(private, session, "not-the-token")
    assert not access.may_watch(private, bob, session)
    access.remember_invite(private, session, private.invite_token)
    assert access.may_watch(private, bob, session) and access.may_watch(private, nobody, session)


def test_a_seated_player_may_watch_a_private_table(alice: User, bob: User) -> None:
    private = services.create_table(alice, "two_player", public=False)
    services.sit(private.pk, bob, 1)
    assert access.may_watch(private, bob, None)
