"""A bare Channels broadcast consumer: the load test's comparison run (docs/benchmarks.md).

Enabled only with MAHJONG_BENCH_ECHO=1 (`routes()` is empty otherwise). It speaks just enough
of the table protocol for scripts/loadtest.py's clients: on `act` it tells the group
`bench-<id>` the next version, every member sends a state frame of the size of a real one
(the actor's names the act's `id`, as the real one does), and `ping` gets `pong` — no
database, no engine, the same processes and channel layer.
"""

from __future__ import annotations

import json
import os
from typing import Any

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import URLPattern, path

PAD = "x" * 6000  # about the size of a real JSON state frame
_LATEST: dict[int, int] = {}  # per process: the last version seen per bench table


def state_frame(version: int, reply_to: Any = None) -> str:
    """Encoded as the table socket encodes its frames (orjson: compact, keys in this order)."""
    view = {"phase": "playing", "table": {"version": version, "hand_number": 1}, "pad": PAD}
    frame = {"type": "state", "version": version, "view": view, "legal": [{"type": "pass"}]}
    if reply_to is not None:
        frame["reply_to"] = reply_to
    return orjson.dumps(frame).decode()


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = f"bench-{self.table_id}"
        self.sent = -1
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_state(_LATEST.get(self.table_id, 0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message: Any = json.loads(text_data or "")
        except ValueError:
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.send(text_data='{"type":"pong"}')
        elif kind == "act" and isinstance(message.get("version"), int):
            version = message["version"] + 1
            await self.channel_layer.group_send(self.group, {"type": "bench.changed", "version": version})
            if not await self._send_state(version, message.get("id")):  # answered like the real one
                await self.send(text_data=json.dumps({"type": "ack", "reply_to": message.get("id")}))

    async def bench_changed(self, event: dict[str, Any]) -> None:
        await self._send_state(int(event["version"]))

    async def _send_state(self, version: int, reply_to: Any = None) -> bool:
        _LATEST[self.table_id] = max(version, _LATEST.get(self.table_id, 0))
        if version <= self.sent:
            return False
        self.sent = version
        await self.send(text_data=state_frame(version, reply_to))
        return True


def routes() -> list[URLPattern]:
    if os.environ.get("MAHJONG_BENCH_ECHO") != "1":
        return []
    return [path("ws/bench/echo/<int:table_id>/", EchoConsumer.as_asgi())]
