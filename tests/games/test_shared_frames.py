"""Anonymous viewers of a table share one render per version (games.sockets.shared): the context
is built once, each dialect's frame encoded once, and every such socket is sent the same text.
A signed-in viewer's frame stays its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User

from games.sockets import shared
from games.sockets import table as table_socket
from games.table import commands
from tests.conftest import make_user
from tests.games.conftest import bot_table
from tests.games.test_consumers import latest_state, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def test_anonymous_viewers_share_one_render_of_each_version(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await sync_to_async(bot_table)(alice, "shanghai", 2, 2)
    json_sockets = [await open_socket(table.pk) for _ in range(3)]
    html_sockets = [await open_socket(table.pk, None, "") for _ in range(2)]
    carol = await sync_to_async(make_user)("carolyn")
    signed_in = await open_socket(table.pk, carol)
    for socket in [*json_sockets, *html_sockets, signed_in]:
        while not await socket.receive_nothing(timeout=0.2):
            await socket.receive_from()
    renders: list[Any] = []
    original = shared.snapshot_context

    def counted(snapshot: Any, user: Any) -> Any:
        renders.append(user)
        return original(snapshot, user)

    monkeypatch.setattr(shared, "snapshot_context", counted)
    html_renders: list[str] = []
    original_html = table_socket.render_table_html

    def counted_html(context: dict[str, Any], language: str) -> str:
        html_renders.append(language)
        return original_html(context, language)

    monkeypatch.setattr(table_socket, "render_table_html", counted_html)
    await sync_to_async(commands.add_bot)(table.pk, alice, 3)  # one new version
    texts = [await socket.receive_from() for socket in json_sockets]
    assert len(set(texts)) == 1 and json.loads(texts[0])["view"]["viewer"] == {"user": None, "seat": None}
    pages = [await socket.receive_from() for socket in html_sockets]
    assert len(set(pages)) == 1 and "board" in pages[0]
    assert renders == [None] and len(html_renders) == 1  # one context, one page, for all five
    own = await latest_state(signed_in)  # the signed-in spectator's own frame: its name in it
    assert own["view"]["viewer"] == {"user": "carolyn", "seat": None}
    assert own["version"] == json.loads(texts[0])["version"]
    for socket in [*json_sockets, *html_sockets, signed_in]:
        await socket.disconnect()
