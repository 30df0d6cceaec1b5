"""Announcements (games.social.announcements): every page, the boards at once, expiry, the admin."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.moderation.models import AdminAuditLog
from games.social import announcements
from games.social.models import Announcement
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import bot_table
from tests.games.test_chat import next_frame, next_html
from tests.games.test_consumers import open_socket, receive


def announce(zh: str = "今晚22:00维护", en: str = "Maintenance at 22:00", **times: object) -> Announcement:
    now = timezone.now()
    fields = {"starts": now - timedelta(minutes=1), "ends": now + timedelta(hours=1), **times}
    return Announcement.objects.create(text_zh=zh, text_en=en, **fields)


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def staff(db: None) -> User:
    user = make_user("boss")
    User.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    user.refresh_from_db()
    return user


@pytest.mark.django_db
def test_every_page_shows_the_announcement_in_the_readers_language(anon_client: Client) -> None:
    announce()
    for url in ("/", "/lobby/", "/rules/", "/leaderboard/"):
        html = anon_client.get(url).content.decode()  # the site's default language: Chinese
        assert "今晚22:00维护" in html and 'id="announcements"' in html, url
    assert "Maintenance at 22:00" in english(Client()).get("/lobby/").content.decode()


@pytest.mark.django_db
def test_one_language_only_is_shown_to_both_and_markup_is_text(anon_client: Client) -> None:
    announce(zh="", en="<script>alert(1)</script> new rule set")
    html = anon_client.get("/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; new rule set" in html and "<script>alert(1)" not in html


@pytest.mark.django_db
def test_expired_and_future_announcements_are_not_shown(anon_client: Client) -> None:
    now = timezone.now()
    announce(en="old news", zh="", starts=now - timedelta(hours=2), ends=now - timedelta(seconds=1))
    announce(en="tomorrow", zh="", starts=now + timedelta(hours=1), ends=now + timedelta(hours=2))
    html = english(Client()).get("/").content.decode()
    assert "old news" not in html and "tomorrow" not in html


@pytest.mark.django_db(transaction=True)
async def test_an_admin_announcement_reaches_open_boards_at_once(staff: User, alice: User) -> None:
    table = await sync_to_async(bot_table)(alice)
    json_socket = await open_socket(table.pk, alice)
    html_socket = await open_socket(table.pk, None, query="")
    await receive(json_socket)
    await html_socket.receive_from(timeout=5)
    client = await sync_to_async(logged_in_client)(staff)
    now = timezone.now()
    form = {
        "text_zh": "新玩法上线",
        "text_en": "A new rule set <b>is live</b>",
        "starts_0": now.strftime("%Y-%m-%d"),
        "starts_1": (now - timedelta(minutes=1)).strftime("%H:%M:%S"),
        "ends_0": (now + timedelta(days=1)).strftime("%Y-%m-%d"),
        "ends_1": now.strftime("%H:%M:%S"),
    }
    response = await sync_to_async(client.post)(reverse("admin:games_announcement_add"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    frame = await next_frame(json_socket, lambda f: f["type"] == "announcement")
    assert frame["announcements"][0]["en"] == "A new rule set <b>is live</b>"
    html = await next_html(html_socket, lambda h: 'id="announcements"' in h)
    assert 'id="announcements"' in html and 'hx-swap-oob="true"' in html
    assert "新玩法上线" in html and "<b>" not in html  # Chinese by default; the other text escaped
    log = await sync_to_async(AdminAuditLog.objects.get)(model="games.Announcement")
    assert log.action == "add" and log.user_id == staff.pk
    await json_socket.disconnect()
    await html_socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_clock_takes_an_expired_announcement_off_the_boards(alice: User) -> None:
    table = await sync_to_async(bot_table)(alice)
    socket = await open_socket(table.pk, alice)
    await receive(socket)
    now = timezone.now()
    await sync_to_async(announce)(ends=now + timedelta(seconds=30), start_announced=True)
    assert await sync_to_async(announcements.sweep)(now) == 0
    assert await sync_to_async(announcements.sweep)(now + timedelta(seconds=31)) == 1
    frame = await next_frame(socket, lambda f: f["type"] == "announcement")
    assert frame == {"type": "announcement", "announcements": []}
    assert await sync_to_async(announcements.sweep)(now + timedelta(seconds=32)) == 0
    await socket.disconnect()


@pytest.mark.django_db
def test_the_admin_refuses_an_empty_or_backwards_announcement(staff: User) -> None:
    client = logged_in_client(staff)
    client.cookies["django_language"] = "en"
    now = timezone.now()
    base = {"starts_0": now.strftime("%Y-%m-%d"), "starts_1": "10:00:00", "ends_0": now.strftime("%Y-%m-%d")}
    empty = client.post(reverse("admin:games_announcement_add"), {**base, "ends_1": "12:00:00"})
    assert "at least one language" in empty.content.decode()
    backwards = client.post(
        reverse("admin:games_announcement_add"), {**base, "text_en": "x", "ends_1": "09:00:00"}
    )
    assert "expire after it starts" in backwards.content.decode()
    assert not Announcement.objects.exists()


def test_json_shape() -> None:
    item = Announcement(
        pk=3, text_zh="维护", text_en="Maintenance", starts=timezone.now(), ends=timezone.now()
    )
    assert json.loads(json.dumps(announcements.as_json([item])))[0]["zh"] == "维护"
