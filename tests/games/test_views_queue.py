"""The quick-match pages: the lobby button, /play/, its polled status and leaving."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.matchmaking import queue
from games.matchmaking.models import QueueEntry
from games.models import Table
from tests.conftest import logged_in_client
from tests.games.conftest import bot_table


@pytest.fixture
def alice_client(alice: User) -> Client:
    """Alice, reading English (the site's default language is Chinese)."""
    client = logged_in_client(alice)
    client.cookies["django_language"] = "en"
    return client


def test_the_lobby_has_the_quick_match_button(alice_client: Client) -> None:
    html = alice_client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'action="/play/"' in html and "Quick match" in html and 'name="level"' in html
    alice_client.cookies["django_language"] = "zh-hans"
    chinese = alice_client.get("/play/").content.decode()
    assert "<h1>快速匹配</h1>" in chinese and "Quick match" not in chinese  # no English on a Chinese page


def test_press_wait_and_land_at_the_table(alice_client: Client, alice: User, bob: User) -> None:
    response = alice_client.post("/play/", {"variant": "two_player", "level": "bronze", "bot_wait": "30"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    page = alice_client.get("/play/").content.decode()
    assert 'id="queue-status"' in page and 'hx-get="/play/status/"' in page and "Leave the queue" in page
    fragment = alice_client.get("/play/status/", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "players waiting" in fragment.content.decode()
    queue.join(bob, "two_player", "bronze")
    table = Table.objects.get()
    seated = alice_client.get("/play/status/", headers={"HX-Request": "true"})
    assert seated["HX-Redirect"] == f"/tables/{table.pk}/"
    assert alice_client.get("/play/")["Location"] == f"/tables/{table.pk}/"


def test_bad_form_input_is_shown_and_queues_nobody(alice_client: Client) -> None:
    response = alice_client.post("/play/", {"variant": "mars", "level": "bronze", "bot_wait": "30"})
    assert response.status_code == 400 and not QueueEntry.objects.exists()
    response = alice_client.post("/play/", {"variant": "shanghai", "level": "bronze", "bot_wait": "7"})
    assert response.status_code == 400 and not QueueEntry.objects.exists()


def test_a_seated_player_is_told_to_leave_first(alice: User, alice_client: Client) -> None:
    table = bot_table(alice)
    response = alice_client.post(
        "/play/", {"variant": "shanghai", "level": "bronze", "bot_wait": "30"}, follow=True
    )
    assert f"seat at table {table.pk}" in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_leaving_the_queue_page(alice_client: Client, alice: User) -> None:
    alice_client.post("/play/", {"variant": "shanghai", "level": "gold", "bot_wait": "0"})
    assert QueueEntry.objects.filter(user=alice, base=20).exists()
    response = alice_client.post("/play/leave/")
    assert response["Location"] == "/lobby/" and not QueueEntry.objects.exists()
    assert alice_client.get("/play/status/", headers={"HX-Request": "true"})["HX-Redirect"] == "/play/"


def test_anonymous_visitors_are_sent_to_log_in(anon_client: Client) -> None:
    assert "/accounts/login/" in anon_client.get("/play/")["Location"]
    assert "/accounts/login/" in anon_client.post("/play/", {})["Location"]


def test_the_page_speaks_chinese(alice: User) -> None:
    client = logged_in_client(alice)
    client.cookies["django_language"] = "zh-hans"
    html = client.get("/play/").content.decode()
    assert "开始匹配" in html and "场次" in html and "Find a game" not in html
