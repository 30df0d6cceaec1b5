"""A quick-match table's spectators are kept `spectator_delay_seconds` behind: no other path may
show a non-seated viewer what they will only see later — the replay (page and API), the hand and
match records, the history page and its API all wait until the delay has passed since the hand
ended. The hand's own players (and staff) see it at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.clock import drive_table_until_idle
from games.models import Hand, Table
from tests.conftest import logged_in_client, make_user
from tests.games.test_spectator_delay import quick_table


def finished_quick_hand(ended_ago: float) -> Hand:
    """A two-person quick-match hand, played to the end, that ended `ended_ago` seconds ago."""
    table = quick_table()
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.status == "over")
    hand = Hand.objects.get(table=table)
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=ended_ago))
    return Hand.objects.get(pk=hand.pk)


def paths(hand: Hand) -> dict[str, str]:
    return {
        "replay_api": f"/api/hands/{hand.pk}/replay",
        "hand_record": f"/api/hands/{hand.pk}/record",
        "match_record": f"/api/matches/{hand.match_id}/record",
        "replay_page": f"/hands/{hand.pk}/replay/",
    }


def shows_hand(client: Client, hand: Hand) -> dict[str, bool]:
    """Which paths reveal the hand (its replay, its record, or its row in the player's history)."""
    out = {name: client.get(url).status_code == 200 for name, url in paths(hand).items()}
    matches = client.get("/api/users/east/matches").json()["matches"]
    out["history_api"] = any(h["id"] == hand.pk for m in matches for h in m["hands"])
    page = client.get("/users/east/history/").content.decode()
    out["history_page"] = f"/hands/{hand.pk}/replay/" in page
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", ["anonymous", "stranger"])
def test_a_hand_still_behind_the_spectator_delay_is_shown_on_no_path(viewer: str) -> None:
    hand = finished_quick_hand(ended_ago=5)
    client = Client() if viewer == "anonymous" else logged_in_client(make_user("stranger"))
    assert not any(shows_hand(client, hand).values()), shows_hand(client, hand)
    assert client.get(paths(hand)["replay_api"]).json()["error"] == "hand_in_progress"  # as if still playing


@pytest.mark.django_db
def test_once_the_delay_has_passed_every_path_shows_it() -> None:
    hand = finished_quick_hand(ended_ago=181)
    assert all(shows_hand(Client(), hand).values())


@pytest.mark.django_db
def test_its_players_see_it_at_once() -> None:
    hand = finished_quick_hand(ended_ago=5)
    east = User.objects.get(username="east")
    assert all(shows_hand(logged_in_client(east), hand).values())


@pytest.mark.django_db
def test_other_tables_are_not_delayed(alice: User) -> None:
    from tests.games.history_helpers import finished_hand

    hand = finished_hand(alice)
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now())
    assert Client().get(f"/api/hands/{hand.pk}/replay").status_code == 200
    assert Table.objects.get(pk=hand.table_id).public
