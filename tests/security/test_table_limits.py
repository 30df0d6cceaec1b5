"""One account cannot take over the lobby: it may own so many open tables, make so many an hour
and sit at so many at once (settings, docs/operations.md "Security"), and the lobby lists at most
a few tables of any one owner, so everybody else's stay in view."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from games.models import Table
from games.table import commands, errors, opening
from games.web.views import lobby_tables
from tests.conftest import logged_in_client, make_user

pytestmark = pytest.mark.django_db


@override_settings(OPEN_TABLES_PER_USER=3, TABLES_PER_USER_PER_HOUR=100, SEATS_PER_USER=100)
def test_an_account_owns_at_most_so_many_open_tables(alice: User) -> None:
    for _ in range(3):
        table = opening.create_table(alice, "shanghai")
        commands.sit(table.pk, alice, 0)
    with pytest.raises(errors.ServiceError) as refused:
        opening.create_table(alice, "shanghai")
    assert refused.value.code == "too_many_tables"
    assert Table.objects.filter(owner=alice).count() == 3  # nothing was made
    commands.stand(table.pk, alice)  # a table nobody sits at any more is no longer open
    opening.create_table(alice, "shanghai")


@override_settings(OPEN_TABLES_PER_USER=100, TABLES_PER_USER_PER_HOUR=4, SEATS_PER_USER=100)
def test_an_account_makes_at_most_so_many_tables_an_hour(alice: User) -> None:
    for _ in range(4):
        opening.create_table(alice, "shanghai")  # (left empty: not open, yet made)
    with pytest.raises(errors.ServiceError) as refused:
        opening.create_table(alice, "shanghai")
    assert refused.value.code == "too_many_tables"


@override_settings(OPEN_TABLES_PER_USER=100, TABLES_PER_USER_PER_HOUR=100, SEATS_PER_USER=2)
def test_an_account_sits_at_so_many_tables_at_once(alice: User, bob: User) -> None:
    tables = [opening.create_table(bob, "shanghai") for _ in range(3)]
    commands.sit(tables[0].pk, alice, 0)
    commands.sit(tables[1].pk, alice, 0)
    with pytest.raises(errors.ServiceError) as refused:
        commands.sit(tables[2].pk, alice, 0)
    assert refused.value.code == "too_many_seats"
    assert Table.objects.get(pk=tables[2].pk).seats.filter(user=alice).count() == 0


@override_settings(OPEN_TABLES_PER_USER=10, TABLES_PER_USER_PER_HOUR=100, SEATS_PER_USER=100)
def test_the_create_page_says_why(alice: User) -> None:
    client = logged_in_client(alice)
    client.cookies["django_language"] = "en"
    form = {
        "variant": "shanghai",
        "public": "on",
        "base": 1,
        "bots": 0,
        "turn_seconds": 15,
        "claim_seconds": 8,
        "pause_ms": 1000,
        "bot_level": "normal",
    }
    for _ in range(10):
        assert client.post("/tables/new/", form).status_code == 302
    response = client.post("/tables/new/", form)
    assert response.status_code == 200 and Table.objects.filter(owner=alice).count() == 10
    assert "at most 10 open tables" in response.content.decode()


@override_settings(LOBBY_TABLES_PER_OWNER=2, OPEN_TABLES_PER_USER=100, TABLES_PER_USER_PER_HOUR=100)
def test_the_lobby_shows_a_few_tables_of_each_owner(alice: User) -> None:
    others = [opening.create_table(make_user(f"o{i}"), "shanghai") for i in range(3)]
    for _ in range(20):
        opening.create_table(alice, "shanghai")  # the newest twenty, all alice's
    rows = lobby_tables(None)
    assert {t.pk for t in others} <= {row["id"] for row in rows}
    assert [row["owner"] for row in rows].count("alice") == 2
