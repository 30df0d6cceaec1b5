"""Channels' websocket consumer made lean for sockets that stay open by the thousand: no hop to
channels' one shared sync thread per message, a frame to a closed peer dropped, JSON encoded with
orjson. The table socket (games.sockets.table) is built on it."""

from __future__ import annotations

import contextlib
from typing import Any

import orjson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db.utils import InterfaceError, OperationalError


class LeanConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()` before every message: that
        hops to channels' one shared sync thread for each frame and each group message of every
        socket (a queue all sockets of the process wait in under load), to tidy connections of
        the loop's thread, which never holds one here (database work runs through `db`, which
        tidies its own threads' connections before and after each call)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except (OperationalError, InterfaceError) as e:
            await self._database_lost(message["type"], e)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own, without its `aclose_old_connections()` hop (see `dispatch`): a sixth
        of a busy process's loop when thousands of sockets come and go."""
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def _database_lost(self, kind: str, error: Exception, reply_to: str | int | None = None) -> None:
        """The database connection broke mid-call: the subclass says what the client is told."""
        raise error

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """A frame for a socket the peer already closed is dropped (its disconnect is on the way),
        not raised out of the consumer as an application error."""
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=json_text(content))


def json_text(content: dict[str, Any]) -> str:
    """A JSON frame's text. orjson: a state frame is encoded for every viewer of every version
    (stdlib json took a tenth of a socket process's CPU under load); compact UTF-8 text. Every
    frame's keys are strings; a dict keyed otherwise (a seat's index) is not refused but encoded
    again with its keys as strings — allowing for them in every frame doubled orjson's time."""
    try:
        return orjson.dumps(content).decode()
    except orjson.JSONEncodeError:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
