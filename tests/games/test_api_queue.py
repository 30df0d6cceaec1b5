"""`/api/queue/`: POST joins (202), GET tells the place or the table, DELETE leaves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import create_api_token
from games.matchmaking.models import QueueEntry
from games.models import Table
from games.moderation.penalties import ban_user
from tests.conftest import make_user
from tests.games.conftest import bot_table


def call(method: str, token: str | None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = Client(enforce_csrf_checks=True)  # token views need no CSRF token
    data = body if isinstance(body, str | bytes) else json.dumps(body) if body is not None else ""
    return getattr(client, method)("/api/queue/", data=data, content_type="application/json", headers=headers)


@pytest.fixture
def token(alice: User) -> str:
    return create_api_token(alice)


def test_join_look_and_leave(alice: User, token: str) -> None:
    response = call("post", token, {"variant": "shanghai", "level": "bronze", "ranked": True})
    assert response.status_code == 202 and response.json() == {"queued": True, "position": 1}
    status = call("get", token).json()
    assert status["queued"] is True and status["position"] == 1 and status["ranked"] is True
    assert status["waiting"] == 1 and status["players"] == 4 and status["bot_wait"] == 30
    assert call("delete", token).json() == {"queued": False}
    assert call("delete", token).status_code == 404
    assert call("get", token).json() == {"queued": False}


def test_get_gives_the_table_once_seated(alice: User, bob: User, token: str) -> None:
    call("post", token, {"variant": "two_player", "level": 3})
    second = call("post", create_api_token(bob), {"variant": "two_player", "level": 3})
    assert second.json() == {"queued": True, "position": 2}
    table = Table.objects.get()
    assert table.base == 3
    assert call("get", token).json() == {"table": table.pk, "ws": f"/ws/tables/{table.pk}/"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("not json", 400, "bad_json"),
        ([1, 2], 400, "bad_json"),
        ({"variant": "mars", "level": "bronze"}, 400, "unknown_variant"),
        ({"variant": "shanghai"}, 400, "bad_level"),
        ({"variant": "shanghai", "level": "bronze", "ranked": 1}, 400, "bad_ranked"),
        ({"variant": "shanghai", "level": "bronze", "bot_wait": 9999}, 400, "bad_bot_wait"),
    ],
)
def test_bad_bodies_are_refused(alice: User, token: str, body: Any, status: int, code: str) -> None:
    response = call("post", token, body)
    assert response.status_code == status and response.json()["error"] == code
    assert not QueueEntry.objects.exists()


def test_twice_seated_and_banned_are_refused(alice: User, token: str) -> None:
    call("post", token, {"variant": "shanghai", "level": "bronze"})
    again = call("post", token, {"variant": "shanghai", "level": "bronze"})
    assert again.status_code == 409 and again.json()["error"] == "already_queued"
    carol = make_user("carol")
    bot_table(carol)
    seated = call("post", create_api_token(carol), {"variant": "shanghai", "level": "bronze"})
    assert seated.status_code == 409 and seated.json()["error"] == "already_seated"
    dave = make_user("dave")
    ban_user(dave, 10, None)
    banned = call("post", create_api_token(dave), {"variant": "shanghai", "level": "bronze"})
    assert banned.status_code == 403 and banned.json()["error"] == "banned"


def test_a_token_is_required(alice_client: Client) -> None:
    assert call("get", None).status_code == 401
    assert alice_client.get("/api/queue/").status_code == 401  # a session is not enough
    assert Client().put("/api/queue/").status_code == 405
