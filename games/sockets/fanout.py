"""A table's group messages received once per process and handed to its sockets there.

Every table socket used to join its table's group itself: the channel layer then put each
announcement into every socket's own queue, and each socket read it back, decoded it (msgpack:
the message carries the packed snapshot) and went through Channels' dispatch with a new task
for its next read — four times per change on a process holding a table's four players. Here
the process joins the group once per table with one channel of its own (`TableFanout`), reads
and decodes each message once and calls each socket's handler of the message's type
(`table_changed`, `chat_message` …) in turn, as the version watcher and the pause's timer
already call `table_changed` (games.sockets.watchers).

A socket joins before its connect reads the table (so no version committed after it is
missed) and leaves at its disconnect. Its handlers may now run while another of its own
messages is being handled (its act, its connect): the table socket's frames are ordered by
revision (`TableConsumer._is_news`), and a version announced before its connect admitted it
is kept for the connect to send (`missed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.consumer import get_handler_name
from channels.layers import get_channel_layer

from common import broadcaster
from games.table import travel

log = logging.getLogger(__name__)


class TableSocket(Protocol):
    """What the fanout needs of a table socket (games.sockets.table.TableConsumer)."""

    table_id: int

    async def dispatch(self, message: dict[str, Any]) -> None: ...


@dataclass
class _Table:
    """One table's channel in this process and the sockets it hands messages to."""

    loop: asyncio.AbstractEventLoop
    table_id: int
    group: str
    sockets: set[TableSocket] = field(default_factory=set)
    channel: str = ""
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # set once the group is joined
    task: asyncio.Task[None] | None = None


class TableFanout:
    """One per process: per table, one channel in its group and one task reading it."""

    def __init__(self) -> None:
        self.tables: dict[int, _Table] = {}

    async def join(self, socket: TableSocket, group: str) -> None:
        """`socket` is handed the group's messages from now on (once this returns)."""
        loop = asyncio.get_running_loop()
        entry = self.tables.get(socket.table_id)
        if entry is None or entry.loop is not loop:  # (another loop's: a test's, long gone)
            entry = self.tables[socket.table_id] = _Table(loop, socket.table_id, group)
            entry.sockets.add(socket)
            await self._open(entry)
        else:
            entry.sockets.add(socket)
            await entry.ready.wait()

    async def _open(self, entry: _Table) -> None:
        layer = get_channel_layer()
        try:
            entry.channel = await layer.new_channel()
            await layer.group_add(entry.group, entry.channel)
        finally:
            entry.ready.set()  # (a failed join: its sockets go on; the version watcher heals)
        try:  # the processes changing the table send its changes through the group from now on
            await layer.group_send(entry.group, travel.wanted_message(entry.table_id))
        except Exception as e:  # (unheard: this process's sockets ask again at the first change they miss)
            log.warning("asking for the changes of %s failed: %r", entry.group, e)
        entry.task = entry.loop.create_task(self._read(entry, layer))

    async def leave(self, socket: TableSocket) -> None:
        """`socket` is handed nothing more; the last socket of a table leaves its group."""
        table_id = socket.table_id
        entry = self.tables.get(table_id)
        if entry is None or socket not in entry.sockets:
            return
        entry.sockets.discard(socket)
        if entry.sockets:
            return
        del self.tables[table_id]  # (a socket joining now opens a channel of its own)
        await entry.ready.wait()
        if entry.task is not None:
            entry.task.cancel()  # (the layer drops the channel when its read is cancelled)
        if entry.channel:
            with contextlib.suppress(Exception):  # Redis restarting: its subscription dies with it
                await get_channel_layer().group_discard(entry.group, entry.channel)

    async def _read(self, entry: _Table, layer: Any) -> None:
        while True:
            try:
                message = await layer.receive(entry.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer's connection lost: it reconnects; so does this read
                log.exception("reading the group %s failed", entry.group)
                await asyncio.sleep(1)
                continue
            await self._hand_out(entry, message)

    async def _hand_out(self, entry: _Table, message: dict[str, Any]) -> None:
        """Each socket's handler of the message's type, in turn; one socket's failure is not
        its neighbours'."""
        try:
            name = get_handler_name(message)
        except ValueError:
            log.warning("a message without a type on %s", entry.group)
            return
        if message["type"] == travel.WANTED:  # (the process's business, not its sockets')
            travel.heard(entry.table_id, message)
            return
        for socket in list(entry.sockets):
            if getattr(socket, name, None) is None:
                continue
            try:
                await socket.dispatch(message)  # (as Channels would: a lost database told to the client)
            except Exception:
                log.exception("handling %s on %s failed", message.get("type"), entry.group)

    def watches(self, table_id: int) -> bool:
        """Whether sockets of this process watch the table (games.table.travel, `travels`)."""
        return table_id in self.tables

    def hand_here(self, table_id: int, message: dict[str, Any]) -> bool:
        """Hand `message` to the table's sockets in this process as if the group had brought it
        (from any thread: on their loop); False when none watch the table here."""
        entry = self.tables.get(table_id)
        if entry is None or entry.loop.is_closed():
            return False
        broadcaster.start_on(entry.loop, self._start_hand_out, entry, message)
        return True

    def _start_hand_out(self, entry: _Table, message: dict[str, Any]) -> None:
        broadcaster.hold(entry.loop.create_task(self._hand_out(entry, message)))


FANOUT = TableFanout()
travel.sockets_here(FANOUT.watches, FANOUT.hand_here)
