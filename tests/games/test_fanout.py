"""games/sockets/fanout.py: a table's group messages received once per process, through one
channel per table, and handed to each of its sockets there."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer

from games.sockets import fanout
from games.sockets.fanout import TableFanout
from games.table import travel


class Socket:
    def __init__(self, table_id: int, fail: bool = False) -> None:
        self.table_id = table_id
        self.fail = fail
        self.got: list[dict[str, Any]] = []

    async def dispatch(self, message: dict[str, Any]) -> None:
        await self.table_changed(message)

    async def table_changed(self, message: dict[str, Any]) -> None:
        if self.fail:
            raise RuntimeError("this socket's render failed")
        self.got.append(message)


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> InMemoryChannelLayer:
    memory = InMemoryChannelLayer()
    monkeypatch.setattr(fanout, "get_channel_layer", lambda: memory)
    return memory


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_one_channel_per_table_hands_each_message_to_every_socket(layer: InMemoryChannelLayer) -> None:
    async def run() -> None:
        hub = TableFanout()
        a, b, elsewhere = Socket(1), Socket(1), Socket(2)
        for socket, group in ((a, "table-1"), (b, "table-1"), (elsewhere, "table-2")):
            await hub.join(socket, group)
        assert len(layer.groups["table-1"]) == 1  # the process's one channel, not one per socket
        await layer.group_send("table-1", {"type": "table.changed", "version": 4})
        await _settle()
        assert [m["version"] for m in a.got] == [4] and [m["version"] for m in b.got] == [4]
        assert elsewhere.got == []
        for socket in (a, b, elsewhere):
            await hub.leave(socket)

    asyncio.run(run())


def test_the_last_socket_leaving_leaves_the_group(layer: InMemoryChannelLayer) -> None:
    async def run() -> None:
        hub = TableFanout()
        a, b = Socket(1), Socket(1)
        await hub.join(a, "table-1")
        await hub.join(b, "table-1")
        await hub.leave(a)
        await layer.group_send("table-1", {"type": "table.changed", "version": 5})
        await _settle()
        assert a.got == [] and [m["version"] for m in b.got] == [5]
        await hub.leave(b)
        assert not layer.groups.get("table-1") and 1 not in hub.tables
        again = Socket(1)  # a socket arriving afterwards opens a channel of its own
        await hub.join(again, "table-1")
        await layer.group_send("table-1", {"type": "table.changed", "version": 6})
        await _settle()
        assert [m["version"] for m in again.got] == [6] and [m["version"] for m in b.got] == [5]
        await hub.leave(again)

    asyncio.run(run())


def test_one_sockets_failure_is_not_its_neighbours(layer: InMemoryChannelLayer) -> None:
    async def run() -> None:
        hub = TableFanout()
        broken, fine = Socket(1, fail=True), Socket(1)
        await hub.join(broken, "table-1")
        await hub.join(fine, "table-1")
        await layer.group_send("table-1", {"type": "table.changed", "version": 7})
        await layer.group_send("table-1", {"type": "table.changed", "version": 8})
        await _settle()
        assert [m["version"] for m in fine.got] == [7, 8]
        await hub.leave(broken)
        await hub.leave(fine)

    asyncio.run(run())


def test_a_message_type_a_socket_has_no_handler_for_is_skipped(layer: InMemoryChannelLayer) -> None:
    async def run() -> None:
        hub = TableFanout()
        socket = Socket(1)
        await hub.join(socket, "table-1")
        await layer.group_send("table-1", {"type": "chat.message", "text": "hi"})
        await layer.group_send("table-1", {"type": "table.changed", "version": 9})
        await _settle()
        assert [m["type"] for m in socket.got] == ["table.changed"]
        await hub.leave(socket)

    asyncio.run(run())


def test_an_announcement_handed_here_reaches_the_tables_sockets_without_the_layer(
    layer: InMemoryChannelLayer,
) -> None:
    """A change made where its table's sockets are (games.table.snapshots, `announce_here`) is
    handed to them on their loop, from the loop itself or from a database thread."""

    async def run() -> None:
        hub = TableFanout()
        a, b, elsewhere = Socket(1), Socket(1), Socket(2)
        for socket, group in ((a, "table-1"), (b, "table-1"), (elsewhere, "table-2")):
            await hub.join(socket, group)
        await _settle()
        sent_before = layer.groups["table-1"].copy()
        assert hub.hand_here(1, {"type": "table.changed", "version": 4})
        await asyncio.to_thread(hub.hand_here, 1, {"type": "table.changed", "version": 5})
        await _settle()
        assert [m["version"] for m in a.got] == [4, 5] and [m["version"] for m in b.got] == [4, 5]
        assert elsewhere.got == [] and layer.groups["table-1"] == sent_before
        assert not hub.hand_here(3, {"type": "table.changed", "version": 1})  # no socket of it here
        assert hub.watches(1) and not hub.watches(3)
        for socket in (a, b, elsewhere):
            await hub.leave(socket)
        assert not hub.hand_here(1, {"type": "table.changed", "version": 6})

    asyncio.run(run())


def test_joining_a_table_asks_the_processes_changing_it_for_its_changes(
    layer: InMemoryChannelLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[dict[str, Any]] = []
    send = layer.group_send

    async def record(group: str, message: dict[str, Any]) -> None:
        heard.append(message)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", record)

    async def run() -> None:
        hub = TableFanout()
        a, b = Socket(7), Socket(7)
        await hub.join(a, "table-7")
        await hub.join(b, "table-7")  # (the process's second socket there: it has asked already)
        assert heard == [travel.wanted_message(7)]
        for socket in (a, b):
            await hub.leave(socket)

    asyncio.run(run())


def test_a_lost_ask_does_not_keep_a_socket_from_its_table(
    layer: InMemoryChannelLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def lost(group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("Redis restarting")

    async def run() -> None:
        hub = TableFanout()
        socket = Socket(8)
        with monkeypatch.context() as patched:
            patched.setattr(layer, "group_send", lost)
            await hub.join(socket, "table-8")
        await layer.group_send("table-8", {"type": "table.changed", "version": 3})
        await _settle()
        assert [m["version"] for m in socket.got] == [3]
        await hub.leave(socket)

    asyncio.run(run())


def test_an_asking_for_a_tables_changes_is_the_processs_not_its_sockets(
    layer: InMemoryChannelLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(travel, "_watched_here", lambda table_id: True)  # this process's sockets watch it
    asked_back: list[str] = []
    monkeypatch.setattr(travel.broadcaster, "send", lambda group, message: asked_back.append(group))

    async def run() -> None:
        hub = TableFanout()
        socket = Socket(9)
        await hub.join(socket, "table-9")
        await _settle()
        assert not travel.travels(9)  # its own asking, heard back, asks nothing of it
        await layer.group_send("table-9", {"type": travel.WANTED, "table": 9, "by": "another process"})
        await _settle()
        assert travel.travels(9) and not travel.travels(10)
        assert socket.got == []  # (handled once for the process, not handed to the sockets)
        assert asked_back == ["table-9"]  # (the other may have joined first: asked back once)
        await hub.leave(socket)

    asyncio.run(run())
