"""mahjong_site/ws_sessions.py: sessions and users for sockets, frames sent unwrapped."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from mahjong_site.ws_sessions import SocketAuthMiddlewareStack

pytestmark = pytest.mark.django_db(transaction=True)


def _inner(seen: dict[str, Any]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["user"] = scope["user"]
        seen["session"] = scope["session"]
        seen["send"] = send

    return app


def _session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def test_a_socket_gets_the_logged_in_user_and_the_servers_own_send() -> None:
    user = await User.objects.acreate(username="ws-session-user")
    cookie = await sync_to_async(_session_cookie)(user)
    seen: dict[str, Any] = {}

    async def server_send(message: dict[str, Any]) -> None:
        pass

    scope = {"type": "websocket", "path": "/ws/x/", "headers": [(b"cookie", cookie)]}
    await SocketAuthMiddlewareStack(_inner(seen))(scope, None, server_send)
    assert seen["send"] is server_send  # no session check per frame
    assert await sync_to_async(lambda: seen["user"].pk)() == user.pk
    assert seen["session"].session_key is not None


async def test_a_socket_without_a_cookie_is_anonymous() -> None:
    seen: dict[str, Any] = {}
    scope = {"type": "websocket", "path": "/ws/x/", "headers": []}
    await SocketAuthMiddlewareStack(_inner(seen))(scope, None, None)
    assert await sync_to_async(lambda: seen["user"].is_authenticated)() is False


async def test_a_socket_without_a_cookie_is_told_anonymous_without_a_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No session cookie: no hop to channels' database thread (a token socket's handshake)."""
    from channels import auth

    def looked_up(scope: Any) -> None:
        raise AssertionError("the user was looked up")

    monkeypatch.setattr(auth, "get_user", looked_up)
    seen: dict[str, Any] = {}
    scope = {"type": "websocket", "path": "/ws/x/", "headers": []}
    await SocketAuthMiddlewareStack(_inner(seen))(scope, None, None)
    assert seen["user"].is_authenticated is False  # resolved already: no database work to read it
    cookie = (b"cookie", f"{settings.SESSION_COOKIE_NAME}=whatever".encode())
    with pytest.raises(AssertionError, match="looked up"):  # a cookie: looked up as before
        await SocketAuthMiddlewareStack(_inner(seen))(
            {"type": "websocket", "path": "/", "headers": [cookie]}, None, None
        )
