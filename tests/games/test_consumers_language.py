"""Every frame a table socket sends is in its viewer's language, as the page was."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from games.table import commands
from tests.games.test_consumers import APP, setup_table
from tests.i18n_helpers import chinese_only_in

pytestmark = pytest.mark.django_db(transaction=True)


async def html_socket(table_id: int, user: User, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table_id}/", headers=headers)
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


async def frames(comm: WebsocketCommunicator) -> list[str]:
    out = []
    while not await comm.receive_nothing(timeout=0.3):
        out.append(await comm.receive_from(timeout=5))
    return out


def visible_text(html: str) -> str:
    """The text a reader sees (tags and attribute values dropped, tile art alt text kept)."""
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize(
    ("headers", "english"),
    [
        ([(b"cookie", b"django_language=en"), (b"accept-language", b"zh-CN")], True),
        ([(b"accept-language", b"en-US,en;q=0.9")], True),
        ([(b"accept-language", b"zh-CN,zh;q=0.9")], False),
    ],
)
async def test_player_and_spectator_frames_keep_the_pages_language(
    alice: User, bob: User, headers: list[tuple[bytes, bytes]], english: bool
) -> None:
    table = await setup_table(alice)
    player = await html_socket(table.pk, alice, headers)
    spectator = await html_socket(table.pk, bob, headers)
    await frames(player), await frames(spectator)
    await sync_to_async(commands.start_hand)(table.pk, alice)
    sent: list[str] = await frames(player) + await frames(spectator)
    await player.send_json_to({"type": "act", "version": 0, "action": '{"type":"pass"}', "HEADERS": {}})
    sent += await frames(player)  # an error frame (stale version) in the same language
    assert len(sent) >= 3
    text = " ".join(visible_text(f) for f in sent)
    if english:
        assert not chinese_only_in(text), (chinese_only_in(text), text[:2000])
    else:
        assert chinese_only_in(text)
    await player.disconnect()
    await spectator.disconnect()


async def test_an_error_frame_is_in_the_viewers_language(alice: User) -> None:
    table = await setup_table(alice)
    for headers, expected in (
        ([(b"accept-language", b"zh-CN")], "牌桌已有变化"),
        ([(b"accept-language", b"en")], "The table moved on"),
    ):
        player = await html_socket(table.pk, alice, headers)
        await frames(player)
        stale = {"type": "act", "version": 999, "action": '{"type":"start"}', "HEADERS": {}}
        await player.send_json_to(stale)
        sent = " ".join(await frames(player))
        assert 'data-code="stale_version"' in sent and expected in sent, sent[:500]
        await player.disconnect()
