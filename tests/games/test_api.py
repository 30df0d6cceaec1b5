"""The JSON HTTP API, the api_token command, profile tokens, and a client that knows no mahjong."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import ApiToken
from accounts.services import create_api_token, user_for_token
from games.models import Hand, Seat, Table
from games.sockets.routing import websocket_urlpatterns
from games.table import timers

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_player", ROOT / "scripts" / "api_player.py")
assert _spec is not None and _spec.loader is not None
api_player = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_player)


def post(client: Client, body: Any, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post("/api/tables/", data=data, content_type="application/json", headers=headers)


@pytest.fixture
def token(alice: User) -> str:
    return create_api_token(alice)


@pytest.mark.django_db
def test_create_table_seats_the_caller_and_bots(alice: User, token: str) -> None:
    client = Client(enforce_csrf_checks=True)  # token views need no CSRF token
    response = post(client, {"variant": "tianjin", "base": 3, "bots": 3}, token)
    assert response.status_code == 201
    data = response.json()
    assert data["ws"] == f"/ws/tables/{data['id']}/"
    table = Table.objects.get(pk=data["id"])
    assert (table.base, table.stake_state, table.owner) == (3, "fixed", alice)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert seats[0].user == alice and all(s.is_bot and s.accepted for s in seats[1:])


@pytest.mark.django_db
def test_create_table_with_the_self_draw_multiplier_house_rule(alice: User, token: str) -> None:
    body = {"variant": "two_player", "base": 1, "bots": 1, "options": {"self_draw_multiplier": 1}}
    response = post(Client(), body, token)
    assert response.status_code == 201
    assert Table.objects.get(pk=response.json()["id"]).options == {"self_draw_multiplier": 1}


@pytest.mark.django_db
def test_create_table_with_free_seats_leaves_the_stake_proposed(alice: User, token: str) -> None:
    response = post(Client(), {"variant": "shanghai", "base": 1, "bots": 1}, token)
    table = Table.objects.get(pk=response.json()["id"])
    assert table.stake_state == "proposed"


_TWO = {"variant": "two_player", "base": 1, "bots": 1}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "poker", "base": 1, "bots": 3}, "unknown_variant"),
        ({"variant": "yihua", "base": 3, "bots": 3}, "bad_stake"),
        ({"variant": "shanghai", "base": 0, "bots": 3}, "bad_stake"),
        ({"variant": "shanghai", "base": "lots", "bots": 3}, "bad_stake"),
        ({"variant": "two_player", "base": 1, "bots": 2}, "bad_bots"),
        ({"variant": "shanghai", "base": 1, "bots": -1}, "bad_bots"),
        ({"variant": "shanghai", "base": 1, "bots": "3"}, "bad_bots"),
        ({"variant": "shanghai", "base": 1, "bots": 3, "options": {"x": 1}}, "bad_option"),
        ({**_TWO, "options": {"self_draw_multiplier": 4}}, "bad_option"),
        ({**_TWO, "options": {"self_draw_multiplier": 0}}, "bad_option"),
        ({**_TWO, "options": {"self_draw_multiplier": "1"}}, "bad_option"),
        ({**_TWO, "options": [1]}, "bad_option"),
        ("{not json", "bad_json"),
        ("[1]", "bad_json"),
    ],
)
def test_bad_input_is_a_400(alice: User, token: str, body: Any, code: str) -> None:
    response = post(Client(), body, token)
    assert response.status_code == 400
    assert response.json()["error"] == code and response.json()["message"]
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variant", "options", "option"),
    [
        ("two_player", {"cap": 0}, "cap"),
        ("two_player", {"cap": -3}, "cap"),
        ("two_player", {"reserve": True, "reserve_n": 72}, "reserve_n"),
        ("two_player", {"cuopai_p": 2.0}, "cuopai_p"),
        ("cantonese", {"rounds": 3}, "rounds"),
        ("shanghai", {"escape_penalty": -100000}, "escape_penalty"),
        ("yihua", {"escape_penalty": 0}, "escape_penalty"),
    ],
)
def test_an_option_out_of_its_declared_range_is_a_400_naming_it(
    alice: User, token: str, variant: str, options: dict[str, Any], option: str
) -> None:
    """`{"cap": 0}` used to be accepted and made the clock's timeout raise for ever."""
    body = {"variant": variant, "base": 2, "bots": 1, "options": options}
    response = post(Client(), body, token)
    assert response.status_code == 400 and response.json()["error"] == "bad_option"
    assert f"'{option}'" in response.json()["message"]
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_api_and_the_form_share_one_highest_base_stake(alice: User, token: str) -> None:
    """Two limits disagreed: the form allowed 1000, the API 10,000."""
    from games.engine.rulesets import MAX_BASE
    from games.web.forms import CreateTableForm

    assert CreateTableForm().fields["base"].max_value == MAX_BASE
    response = post(Client(), {"variant": "shanghai", "base": MAX_BASE + 1, "bots": 3}, token)
    assert response.status_code == 400 and response.json()["error"] == "bad_stake"


@pytest.mark.django_db
@pytest.mark.parametrize("header", [None, "Bearer nope", "Token x", "Bearer "])
def test_no_or_bad_token_is_a_401(alice: User, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    response = Client().post("/api/tables/", data="{}", content_type="application/json", headers=headers)
    assert response.status_code == 401 and response.json()["error"] == "unauthorized"


@pytest.mark.django_db
def test_session_login_is_not_enough_for_the_api(alice_client: Client) -> None:
    response = alice_client.post("/api/tables/", data="{}", content_type="application/json")
    assert response.status_code == 401


@pytest.mark.django_db
def test_get_is_not_allowed(token: str) -> None:
    assert Client().get("/api/tables/", headers={"Authorization": f"Bearer {token}"}).status_code == 405


@pytest.mark.django_db
def test_api_token_command_prints_the_token_last(alice: User, capsys: pytest.CaptureFixture[str]) -> None:
    call_command("api_token", "alice")
    key = capsys.readouterr().out.strip().splitlines()[-1]
    assert user_for_token(key) == alice
    assert ApiToken.objects.get(user=alice).key_hash != key  # only the hash is stored
    with pytest.raises(CommandError):
        call_command("api_token", "nobody")
    call_command("api_token", "newbot", "--create")
    key = capsys.readouterr().out.strip().splitlines()[-1]
    assert user_for_token(key).username == "newbot"


def test_profile_creates_a_token_shown_once(alice_client: Client, alice: User) -> None:
    html = alice_client.post("/accounts/profile/token/").content.decode()
    token = ApiToken.objects.get(user=alice)
    key = html.split('class="api-token">')[1].split("<")[0]
    assert user_for_token(key) == alice and key.startswith(token.prefix)
    assert key not in alice_client.get("/accounts/profile/").content.decode()


# --- a client that knows nothing of mahjong --------------------------------------------------


def advance(table_id: int) -> None:
    """The fake clock: jump to the table's next deadline (bots, pauses, timers)."""
    table = Table.objects.get(pk=table_id)
    if table.deadline is not None:
        timers.timeout(table_id, table.deadline_version, table.deadline)


async def play_hands(table_id: int, token: str, hands: int, seed: int) -> dict[str, Any]:
    """api_player's policy over a WebsocketCommunicator, with the fake clock instead of time."""
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table_id}/?token={token}")
    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    rng = random.Random(seed)
    frame: dict[str, Any] = {}
    sent = 0
    for _ in range(5000):
        if await comm.receive_nothing(timeout=0.02):
            await sync_to_async(advance)(table_id)
            continue
        frame = json.loads(await comm.receive_from())
        if frame["type"] == "error":
            # Sending only `legal` can still race a change (a bot moved first, the fake clock ran
            # on): the table answers that the version is stale, or — where play moved on into the
            # pause after a discard — what it answers every seat with nothing to do then, so that
            # an early action reveals no claim window. Those are the errors such a client may see.
            assert frame["code"] in {"stale_version", "not_your_turn"}, frame
            continue
        if api_player.hands_settled(frame) >= hands:
            break
        action = api_player.choose(frame, rng)
        if action is not None:
            assert action in frame["legal"]
            await comm.send_json_to({"type": "act", "version": frame["version"], "action": action})
            sent += 1
    await comm.disconnect()
    assert sent > 0
    return frame


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", ["shanghai", "yihua", "cantonese", "tianjin", "two_player"])
async def test_a_client_that_knows_no_mahjong_plays_every_variant(alice: User, variant: str) -> None:
    key = await sync_to_async(create_api_token)(alice)
    bots = 1 if variant == "two_player" else 3
    response = await sync_to_async(post)(Client(), {"variant": variant, "base": 2, "bots": bots}, key)
    table_id = response.json()["id"]
    frame = await play_hands(table_id, key, hands=2, seed=7)
    assert api_player.hands_settled(frame) >= 2
    assert frame["view"]["phase"] in ("hand_over", "playing")
    result = frame["view"]["last_result"] or {}
    assert len(result.get("payments") or []) in (0, 2, 4)
    assert await sync_to_async(Hand.objects.filter(table_id=table_id, status="over").count)() >= 2
