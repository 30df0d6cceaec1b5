"""Logging out closes the session's sockets; /ws/ping/ is bounded and never
logs a traceback; the Origin must match scheme, host and port; anonymous sockets are capped per
address. Through the whole ASGI application (its middleware is what is tested)."""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from games.sockets.frames import BURST, CLOSE_FLOOD, CLOSE_LOGGED_OUT, CLOSE_TOO_BIG, MAX_REFUSED
from mahjong_site.asgi import application
from tests.conftest import logged_in_client
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db(transaction=True)

HOST = [(b"host", b"testserver")]
ORIGIN = [(b"origin", b"http://testserver")]


def socket(
    path: str, headers: list[tuple[bytes, bytes]] | None = None, client: str = "203.0.113.1"
) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=HOST + ORIGIN + (headers or []))
    comm.scope["client"] = (client, 5000)
    return comm


async def frames_until_close(comm: WebsocketCommunicator) -> tuple[list[dict], int]:
    frames = []
    while True:
        message = await comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return frames, message.get("code", 1000)
        frames.append(json.loads(message["text"]) if message["text"].startswith("{") else message["text"])


# --- logout ----------------------------------------------------------------------------------


async def test_logout_closes_that_sessions_sockets_only(alice: User) -> None:
    table = await sync_to_async(bot_table)(alice, "shanghai", 2, None)
    client = await sync_to_async(logged_in_client)(alice)
    other = await sync_to_async(logged_in_client)(alice)  # the same user on another device

    def cookie(c: Client) -> list[tuple[bytes, bytes]]:
        return [
            (
                b"cookie",
                f"{settings.SESSION_COOKIE_NAME}={c.cookies[settings.SESSION_COOKIE_NAME].value}".encode(),
            )
        ]

    mine = socket(f"/ws/tables/{table.pk}/?format=json", cookie(client))
    theirs = socket(f"/ws/tables/{table.pk}/?format=json", cookie(other))
    for comm in (mine, theirs):
        assert (await comm.connect())[0]
        assert json.loads(await comm.receive_from(timeout=5))["view"]["viewer"]["user"] == "alice"
    await sync_to_async(client.post)("/accounts/logout/")
    frames, code = await frames_until_close(mine)
    assert frames[-1]["code"] == "logged_out" and code == CLOSE_LOGGED_OUT
    assert await theirs.receive_nothing(timeout=0.3)  # the other session is still logged in
    await theirs.disconnect()


# --- /ws/ping/ ------------------------------------------------------------------------------


async def test_ping_echoes_small_json() -> None:
    comm = socket("/ws/ping/")
    assert (await comm.connect())[0]
    await comm.send_to(text_data='{"type": "ping", "n": [1, {"a": 2}]}')
    assert json.loads(await comm.receive_from(timeout=5)) == {"type": "ping", "n": [1, {"a": 2}]}
    await comm.disconnect()


async def test_ping_refuses_a_big_frame_and_closes() -> None:
    comm = socket("/ws/ping/")
    assert (await comm.connect())[0]
    await comm.send_to(text_data=json.dumps({"x": "a" * 512 * 1024}))
    frames, code = await frames_until_close(comm)
    assert frames == [{"type": "error", "code": "too_big", "message": frames[0]["message"]}]
    assert code == CLOSE_TOO_BIG


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("{", "bad_json"),
        ("[" * 500 + "]" * 500, "too_deep"),
        ('{"a":' * 100 + "1" + "}" * 100, "too_deep"),
    ],
)
async def test_ping_answers_bad_input_with_an_error_frame_not_a_traceback(
    text: str, code: str, caplog: pytest.LogCaptureFixture
) -> None:
    comm = socket("/ws/ping/")
    assert (await comm.connect())[0]
    with caplog.at_level(logging.WARNING):
        await comm.send_to(text_data=text)
        frame = json.loads(await comm.receive_from(timeout=5))
        assert frame["type"] == "error" and frame["code"] == code
        await comm.send_to(text_data='{"still": "alive"}')
        assert json.loads(await comm.receive_from(timeout=5)) == {"still": "alive"}
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    await comm.disconnect()


async def test_ping_is_rate_limited_then_closed() -> None:
    comm = socket("/ws/ping/")
    assert (await comm.connect())[0]
    for n in range(BURST + MAX_REFUSED + 5):
        await comm.send_to(text_data=json.dumps({"n": n}))
    frames, code = await frames_until_close(comm)
    assert [f for f in frames if f.get("code") == "rate_limited"]
    assert code == CLOSE_FLOOD
    assert len([f for f in frames if "n" in f]) <= BURST + 2  # not everything echoed


# --- the Origin, anonymous sockets -------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (b"http://testserver", b"testserver", True),
        (b"http://testserver:80", b"testserver", True),
        (b"https://testserver", b"testserver", False),  # scheme differs
        (b"http://testserver:8080", b"testserver", False),  # port differs
        (b"http://testserver", b"testserver:8000", False),
        (b"http://testserver:8000", b"testserver:8000", True),
        (b"http://evil.example", b"evil.example", False),  # a host not in ALLOWED_HOSTS
        (b"null", b"testserver", False),
    ],
)
async def test_origin_must_match_scheme_host_and_port(origin: bytes, host: bytes, allowed: bool) -> None:
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"host", host), (b"origin", origin)])
    assert (await comm.connect())[0] is allowed
    await comm.disconnect()


async def test_origin_behind_a_tls_proxy(settings: object) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = [(b"host", b"testserver"), (b"x-forwarded-proto", b"https")]
    for origin, allowed in ((b"https://testserver", True), (b"http://testserver", False)):
        comm = WebsocketCommunicator(application, "/ws/ping/", headers=[*proxied, (b"origin", origin)])
        assert (await comm.connect())[0] is allowed, origin
        await comm.disconnect()


async def test_trusted_origins_are_accepted(settings: object) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com"]
    comm = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"host", b"testserver"), (b"origin", b"https://play.example.com")]
    )
    assert (await comm.connect())[0]
    await comm.disconnect()


async def test_anonymous_sockets_are_capped_per_address(settings: object, alice: User) -> None:
    settings.ANONYMOUS_SOCKETS_PER_ADDRESS = 3
    held = []
    for _ in range(3):
        comm = socket("/ws/ping/", client="203.0.113.5")
        assert (await comm.connect())[0]
        held.append(comm)
    refused = socket("/ws/ping/", client="203.0.113.5")
    assert not (await refused.connect())[0]
    elsewhere = socket("/ws/ping/", client="198.51.100.5")  # another address is not held up
    assert (await elsewhere.connect())[0]
    client = await sync_to_async(logged_in_client)(alice)  # nor a logged-in user from the same one
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    logged_in = socket(
        "/ws/ping/", [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())], "203.0.113.5"
    )
    assert (await logged_in.connect())[0]
    await held.pop().disconnect()  # a closed socket frees its place
    again = socket("/ws/ping/", client="203.0.113.5")
    assert (await again.connect())[0]
    for comm in (*held, elsewhere, logged_in, again):
        await comm.disconnect()
