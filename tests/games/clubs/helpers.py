"""A club of people for the clubs' tests."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games.clubs import services
from games.clubs.models import Club
from tests.conftest import logged_in_client


def club_of(owner: User, *members: User, policy: str = Club.Policy.OPEN, name: str = "Friday club") -> Club:
    """`owner`'s Shanghai club (base 2), `members` joined through its invite."""
    club = services.create_club(owner, name, "shanghai", 2, description="We play on Fridays.", policy=policy)
    for user in members:
        services.join_by_invite(user, club.invite_code)
    return club


def client_of(user: User, language: str = "en") -> Client:
    """`user` signed in, reading the site in `language` (the site's default is Chinese)."""
    client = logged_in_client(user)
    client.cookies["django_language"] = language
    return client
