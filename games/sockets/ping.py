"""`PingConsumer` (ws/ping/): a bounded echo for liveness probes."""

from __future__ import annotations

import json

from channels.generic.websocket import AsyncWebsocketConsumer

from games.engine.record import nesting
from games.sockets.frames import NOT_PARSED, TokenBucket, read_frame

MAX_PING_FRAME = 1024  # bytes: a liveness probe needs a few
MAX_PING_DEPTH = 16  # nesting levels echoed back


class PingConsumer(AsyncWebsocketConsumer):
    """Accepts any connection that passed the Origin check and echoes each JSON message.

    Bounded like a table socket: frames of at most MAX_PING_FRAME bytes (larger: `too_big`,
    closed 4009), the same token bucket (`rate_limited`, closed 4008 after MAX_REFUSED in a
    row), and input that is not JSON or nests deeper than MAX_PING_DEPTH gets an error frame
    (`bad_json`, `too_deep`) instead of a traceback in the log.
    """

    async def connect(self) -> None:
        self.bucket = TokenBucket()
        self.refused = 0
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content = await read_frame(self, text_data, bytes_data, MAX_PING_FRAME)
        if content is NOT_PARSED:
            return
        if nesting(content) > MAX_PING_DEPTH:
            await self.send_error("too_deep", f"messages nest at most {MAX_PING_DEPTH} levels")
            return
        await self.send(text_data=json.dumps(content))

    async def send_error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
