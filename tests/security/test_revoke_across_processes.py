"""Revocation across processes: a token revoked through one daphne closes its socket on another
(the message goes through Redis). Skipped locally without PostgreSQL and Redis; runs in CI."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
import websockets
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User

from accounts.services import create_api_token, user_for_token
from tests.servers import create_table

pytestmark = pytest.mark.django_db(transaction=True)


def _delete_current(url: str, token: str) -> int:
    request = urllib.request.Request(
        url + "/api/tokens/current", method="DELETE", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


async def test_revoking_on_one_process_closes_the_socket_on_another(alice: User, stack: list[str]) -> None:
    url_a, url_b = stack
    token = await sync_to_async(create_api_token)(alice)
    table_id = await asyncio.to_thread(create_table, url_a, token)
    ws_url = url_a.replace("http", "ws") + f"/ws/tables/{table_id}/?token={token}"
    async with websockets.connect(ws_url, origin=url_a) as socket:  # type: ignore[arg-type]
        assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "state"
        assert await asyncio.to_thread(_delete_current, url_b, token) == 204  # through the other process
        frames = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                frames.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
        assert frames[-1]["code"] == "token_revoked"
        assert closed.value.rcvd.code == 4001
    assert await sync_to_async(user_for_token)(token) is None
