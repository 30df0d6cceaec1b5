"""Anonymous viewers of a table share one render per version (games.sockets.shared): the context
is built once, each dialect's frame encoded once, and every such socket is sent the same text.
A signed-in viewer's frame stays its own."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User

from games.models import Table
from games.sockets import shared
from games.sockets import table as table_socket
from games.table import commands
from tests.conftest import make_user
from tests.games.conftest import bot_table, two_seated
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


def _two_players_started(alice: User, bob: User) -> Any:
    """A two-player hand under way, and the snapshot of its current version."""
    from games.table import snapshots

    snapshots.forget()
    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    revision = Table.objects.values_list("revision", flat=True).get(pk=table.pk)
    snapshot = snapshots.at(table.pk, revision)
    assert snapshot is not None
    return snapshot


@pytest.mark.django_db(transaction=True)
def test_the_sockets_of_a_process_share_one_read_of_a_snapshot(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = _two_players_started(alice, bob)
    first = shared.loaded(snapshot)
    assert first is not None and shared.loaded(snapshot) is first  # the next socket's: the same read
    other = dataclasses.replace(snapshot)  # another snapshot of the table (say, a newer version)
    assert shared.loaded(other) is not first
    clock = iter([1000.0, 1000.0 + shared.SHARE_FOR + 0.01])
    monkeypatch.setattr(shared.time, "monotonic", lambda: next(clock))
    kept = shared.loaded(snapshot)  # read at 1000.0
    assert shared.loaded(snapshot) is not kept  # past SHARE_FOR: its clock would be stale


@pytest.mark.django_db(transaction=True)
def test_a_shared_read_carries_no_seat_s_tiles_to_another_viewer(alice: User, bob: User) -> None:
    """Hidden information: each viewer's context from the one shared read opens its own hand only."""
    snapshot = _two_players_started(alice, bob)
    mine = {user.username: shared.own_context(snapshot, user) for user in (alice, bob)}
    for index, name in enumerate(("alice", "bob")):
        context = mine[name]
        assert context is not None
        seats = context["view"]["seats"]
        assert seats[index].get("hand")  # its own tiles, face up
        assert seats[1 - index].get("hand") is None  # never the other seat's
        assert context["view"]["me"] == index
    assert shared.loaded(snapshot) is not None
    assert shared.own_context(snapshot, alice) == mine["alice"]  # read again from the shared one: the same
