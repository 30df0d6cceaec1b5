"""The ASGI application: importing it touches no database; the first call records the start."""

from __future__ import annotations

import pytest

from games.sockets.models import ServerStart
from mahjong_site.asgi import RecordsServerStart


@pytest.mark.django_db(transaction=True)
async def test_the_first_call_records_the_server_start_once() -> None:
    calls: list[str] = []

    async def app(scope: dict, receive: object, send: object) -> None:
        calls.append(scope["type"])

    wrapped = RecordsServerStart(app)
    before = await ServerStart.objects.acount()
    await wrapped({"type": "http"}, None, None)
    await wrapped({"type": "websocket"}, None, None)
    assert await ServerStart.objects.acount() == before + 1
    assert calls == ["http", "websocket"]
