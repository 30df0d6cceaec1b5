"""The clubs' JSON API (docs/protocol.md, "Clubs"): join by invite, list a club's tables."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import create_api_token
from games.clubs import services
from games.clubs.models import ClubMember
from tests.games.clubs.helpers import club_of

pytestmark = pytest.mark.django_db


def call(method: str, path: str, user: User | None, body: object = None) -> tuple[int, dict]:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {create_api_token(user)}"} if user else {}
    client = Client()
    if method == "POST":
        response = client.post(path, json.dumps(body), content_type="application/json", **headers)
    else:
        response = client.get(path, **headers)
    return response.status_code, response.json()


def test_join_by_invite_and_list_the_tables(alice: User, bob: User) -> None:
    club = club_of(alice)
    table = services.open_table(alice, club, bots=1)
    status, body = call("POST", "/api/clubs/join", bob, {"invite": club.invite_code})
    assert (status, body) == (201, {"club": club.pk, "name": "Friday club", "status": "active"})
    status, body = call("GET", f"/api/clubs/{club.pk}/tables", bob)
    assert status == 200 and [t["id"] for t in body["tables"]] == [table.pk]
    seats = body["tables"][0]["seats"]
    assert seats[0] == {"index": 0, "user": "alice", "is_bot": False} and seats[1]["is_bot"]
    assert body["tables"][0]["ws"] == f"/ws/tables/{table.pk}/"


@pytest.mark.parametrize(
    ("body", "code"),
    [({"invite": "forged"}, "bad_invite"), ({}, "bad_invite"), ({"invite": 5}, "bad_invite")],
)
def test_a_bad_invite_is_a_400_with_its_code(alice: User, bob: User, body: dict, code: str) -> None:
    club_of(alice)
    status, answer = call("POST", "/api/clubs/join", bob, body)
    assert status == 400 and answer["error"] == code and answer["message"]
    assert not ClubMember.objects.filter(user=bob).exists()


def test_a_second_join_and_a_banned_player_change_nothing(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob, carol)
    assert call("POST", "/api/clubs/join", bob, {"invite": club.invite_code})[1]["error"] == "already_member"
    services.ban(alice, ClubMember.objects.get(club=club, user=carol))
    assert call("POST", "/api/clubs/join", carol, {"invite": club.invite_code})[1]["error"] == "banned"
    assert ClubMember.objects.get(club=club, user=carol).status == "banned"


def test_tables_are_404_for_non_members_and_401_without_a_token(alice: User, bob: User) -> None:
    club = club_of(alice)
    assert call("GET", f"/api/clubs/{club.pk}/tables", bob)[0] == 404
    assert call("GET", f"/api/clubs/{club.pk + 99}/tables", alice)[0] == 404
    assert call("GET", f"/api/clubs/{club.pk}/tables", None)[0] == 401
    assert call("POST", "/api/clubs/join", None, {"invite": club.invite_code})[0] == 401


def test_joining_a_club_that_approves_makes_a_request(alice: User, bob: User) -> None:
    club = club_of(alice, policy="approval")
    status, body = call("POST", "/api/clubs/join", bob, {"invite": club.invite_code})
    assert (status, body["status"]) == (201, "pending")
    assert call("GET", f"/api/clubs/{club.pk}/tables", bob)[0] == 404  # not a member yet
    again = call("POST", "/api/clubs/join", bob, {"invite": club.invite_code})
    assert again[1]["error"] == "already_requested"
