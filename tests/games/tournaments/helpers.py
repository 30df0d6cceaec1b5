"""A tournament for tests: a staff organiser, players signed up and checked in, a fake clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games.clock.ticks import drive_table_until_idle
from games.models import Table
from games.tournaments import creating, services
from games.tournaments.models import Tournament, TournamentTable
from tests.conftest import make_user


def organiser() -> User:
    user = make_user("organiser")
    user.is_staff = True
    user.save()
    return user


def new_tournament(by: User, now: datetime | None = None, **settings: Any) -> Tournament:
    now = now or timezone.now()
    data = {
        "name": "Friday cup",
        "variant": "shanghai",
        "base": 2,
        "rounds": 2,
        "hands_per_round": 2,
        "seating": "swiss",
        "duplicate": True,
        "starts_at": now + timedelta(minutes=20),
        "signup_opens": now - timedelta(minutes=1),
        "signup_closes": now + timedelta(minutes=20),
        "max_players": 8,
        "checkin_minutes": 30,
        **settings,
    }
    return creating.create(by, data, now)


def entrants(tournament: Tournament, count: int, checked_in: int | None = None) -> list[User]:
    people = [make_user(f"player{i}") for i in range(count)]
    for i, user in enumerate(people):
        services.sign_up(tournament.pk, user)
        if checked_in is None or i < checked_in:
            services.check_in(tournament.pk, user)
    return people


def play_round(tournament: Tournament, now: datetime) -> datetime:
    """Every open table of the tournament played to its round's end on the fake clock."""
    latest = now
    for tt in TournamentTable.objects.filter(round__tournament=tournament, ended__isnull=True):
        reached = drive_table_until_idle(tt.table_id, now, until=lambda t: t.status == Table.Status.CLOSED)
        latest = max(latest, reached)
    return latest
