"""API tokens are listed and revoked (profile page, admin, command, the API itself, a
password change), and a revoked token's open sockets are closed."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.core.management import call_command
from django.test import Client

from accounts.models import ApiToken
from accounts.services import create_api_token, revoke_all_tokens, user_for_token
from games.sockets import table as table_socket
from games.sockets.frames import CLOSE_BAD_TOKEN
from games.sockets.routing import websocket_urlpatterns
from tests.conftest import PASSWORD, logged_in_client
from tests.games.conftest import bot_table

APP = URLRouter(websocket_urlpatterns)


def bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_profile_lists_and_revokes_own_tokens_only(alice: User, bob: User) -> None:
    key = create_api_token(alice)
    bobs_key = create_api_token(bob)
    client = logged_in_client(alice)
    page = client.get("/accounts/profile/").content.decode()
    token = ApiToken.objects.get(user=alice)
    assert token.prefix in page and f"/accounts/profile/token/{token.pk}/revoke/" in page
    bobs = ApiToken.objects.get(user=bob)
    client.post(f"/accounts/profile/token/{bobs.pk}/revoke/")  # not alice's: nothing happens
    assert user_for_token(bobs_key) == bob
    assert client.post(f"/accounts/profile/token/{token.pk}/revoke/").status_code == 302
    assert user_for_token(key) is None
    assert token.prefix not in client.get("/accounts/profile/").content.decode()  # listed: active ones
    assert client.get(f"/accounts/profile/token/{token.pk}/revoke/").status_code == 405  # POST only


def test_profile_revokes_all(alice: User) -> None:
    keys = [create_api_token(alice) for _ in range(3)]
    logged_in_client(alice).post("/accounts/profile/tokens/revoke/")
    assert [user_for_token(key) for key in keys] == [None, None, None]


def test_password_change_revokes_every_token(alice: User) -> None:
    key = create_api_token(alice)
    client = logged_in_client(alice)
    new = "quiet-bamboo-913"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    assert client.post("/accounts/password/", data).status_code == 302
    assert user_for_token(key) is None
    alice.refresh_from_db()
    alice.set_password("another-bamboo-914")  # any path that sets a password (admin, command)
    later = create_api_token(alice)
    alice.save()
    assert user_for_token(later) is None


def test_saving_a_user_without_a_new_password_keeps_tokens(alice: User) -> None:
    key = create_api_token(alice)
    alice.first_name = "Alice"
    alice.save()
    assert user_for_token(key) == alice


def test_delete_current_token(alice: User) -> None:
    key = create_api_token(alice)
    other = create_api_token(alice)
    client = Client()
    assert client.delete("/api/tokens/current", **bearer(key)).status_code == 204
    assert user_for_token(key) is None and user_for_token(other) == alice  # only the one used
    again = client.delete("/api/tokens/current", **bearer(key))
    assert again.status_code == 401 and again.json()["error"] == "unauthorized"
    assert client.delete("/api/tokens/current").status_code == 401
    wrong = client.get("/api/tokens/current", **bearer(other))
    assert wrong.status_code == 405 and user_for_token(other) == alice
    refused = client.post(
        "/api/tables/", json.dumps({"variant": "shanghai", "base": 1}), "application/json", **bearer(key)
    )
    assert refused.status_code == 401  # a revoked token opens nothing


def test_command_revokes_all_and_lists(alice: User) -> None:
    key = create_api_token(alice)
    out = StringIO()
    call_command("api_token", "alice", "--list", stdout=out)
    assert ApiToken.objects.get(user=alice).prefix in out.getvalue()
    out = StringIO()
    call_command("api_token", "alice", "--revoke-all", stdout=out)
    assert "revoked 1 token" in out.getvalue() and user_for_token(key) is None


def test_admin_lists_and_revokes(alice: User) -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    key = create_api_token(alice)
    client = logged_in_client(admin)
    listing = client.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and ApiToken.objects.get(user=alice).prefix in listing.content.decode()
    token = ApiToken.objects.get(user=alice)
    client.post("/admin/accounts/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    assert user_for_token(key) is None
    assert (
        client.post(f"/admin/accounts/apitoken/{token.pk}/delete/").status_code == 403
    )  # revoke, not delete


@pytest.mark.django_db(transaction=True)
async def test_revoking_closes_the_tokens_open_sockets(alice: User, bob: User) -> None:
    table = await sync_to_async(bot_table)(alice, "shanghai", 2, None)
    key = await sync_to_async(create_api_token)(alice)
    bobs_key = await sync_to_async(create_api_token)(bob)
    sockets = []
    for token in (key, key, bobs_key):
        comm = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/?token={token}")
        comm.scope["user"] = AnonymousUser()
        assert (await comm.connect())[0]
        assert json.loads(await comm.receive_from(timeout=5))["type"] == "state"
        sockets.append(comm)
    await sync_to_async(revoke_all_tokens)(alice)
    for comm in sockets[:2]:  # both of alice's sockets
        frames = []
        while True:
            message = await comm.receive_output(timeout=5)
            if message["type"] == "websocket.close":
                break
            frames.append(json.loads(message["text"]))
        assert {"type": "error", "code": "token_revoked"}.items() <= frames[-1].items()
        assert message["code"] == CLOSE_BAD_TOKEN
    assert await sockets[2].receive_nothing(timeout=0.3)  # bob's stays open
    await sockets[2].send_json_to({"type": "ping"})
    assert json.loads(await sockets[2].receive_from(timeout=5)) == {"type": "pong"}
    await sockets[2].disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_revocation_just_after_the_sockets_token_check_still_closes_it(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket listens for its token's revocation before it checks the token: a revocation
    committed between the check and the socket's first frame is not missed."""
    table = await sync_to_async(bot_table)(alice, "shanghai", 2, None)
    key = await sync_to_async(create_api_token)(alice)
    checked = table_socket.user_for_token

    def check_then_revoke(token: str) -> User | None:
        user = checked(token)
        revoke_all_tokens(alice)  # another request revokes it right then
        return user

    monkeypatch.setattr(table_socket, "user_for_token", check_then_revoke)
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/?token={key}")
    comm.scope["user"] = AnonymousUser()
    await comm.connect()
    codes = []
    while True:
        message = await comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            break
        codes.append(json.loads(message["text"]).get("code"))
    assert "token_revoked" in codes and message["code"] == CLOSE_BAD_TOKEN
