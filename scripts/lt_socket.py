"""The load generator's websocket client: as little as a client can do per frame (RFC 6455).

The `websockets` library parses each frame through a generator, queues the message and wakes
the task reading it; with thousands of sockets on the machine it measures, that hand-off was
most of the generator's own CPU per frame. Here the frames are cut from the bytes in
`data_received` and handed to a callback at once (no task, no queue); the client sends small
masked text frames, answers pings and closes. Errors keep the names the load test counts them
by (`socket:InvalidMessage`, `socket:InvalidStatus`, `socket:TimeoutError`, …).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, 1.3
TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
NORMAL_CLOSES = (1000, 1001)


class InvalidMessage(Exception):
    """The server closed the connection before answering the handshake in full."""


class InvalidStatus(Exception):
    """The server answered the handshake with another status than 101."""


class ConnectionClosedOK(Exception):
    """Closed with a normal close code (1000, 1001)."""


class ConnectionClosedError(Exception):
    """Closed with another code, without a close frame, or by a reset."""


def accept_for(key: bytes) -> bytes:
    """The server's Sec-WebSocket-Accept for the client's Sec-WebSocket-Key."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())  # noqa: S324 - the protocol's


def _masked(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    mask = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(mask, "little")).to_bytes(n, "little")


class FrameSocket(asyncio.Protocol):
    """One client connection; `on_message(bytes)` is called with each complete message."""

    def __init__(self, on_message: Callable[[bytes], None]) -> None:
        self.on_message = on_message
        self.buffer = bytearray()
        self.fragments: list[bytes] | None = None
        self.held: list[bytes] | None = []  # messages before `start` (the caller is not ready yet)
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.head: asyncio.Future[bytes] = loop.create_future()  # the handshake's answer
        self.ended: asyncio.Future[None] = loop.create_future()  # set (or failed) when closed

    # --- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.head.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head.set_result(bytes(self.buffer[:end]))
            del self.buffer[: end + 4]
        self._cut_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.head.done():
            self.head.set_exception(InvalidMessage("connection closed during the handshake"))
        self._end(ConnectionClosedError(f"connection lost: {exc!r}"))

    # --- frames ----------------------------------------------------------------------------

    def _cut_frames(self) -> None:
        buf, pos = self.buffer, 0
        size = len(buf)
        while size - pos >= 2:
            first, length = buf[pos], buf[pos + 1] & 0x7F
            head = 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2 : pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2 : pos + 10], "big"), 10
            if size - pos < head + length:
                break
            payload = bytes(buf[pos + head : pos + head + length])
            pos += head + length
            self._frame(bool(first & 0x80), first & 0x0F, payload)
        del buf[:pos]

    def _frame(self, fin: bool, opcode: int, payload: bytes) -> None:
        if opcode in (TEXT, BINARY, CONTINUATION):
            if opcode != CONTINUATION:
                self.fragments = []
            if self.fragments is None:
                return  # a continuation of nothing: ignored
            self.fragments.append(payload)
            if fin:
                message, self.fragments = b"".join(self.fragments), None
                if self.held is not None:
                    self.held.append(message)
                else:
                    self.on_message(message)
        elif opcode == PING:
            self._send(PONG, payload)
        elif opcode == CLOSE:
            code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            self._send(CLOSE, payload[:2])
            ok = code in NORMAL_CLOSES
            self._end(ConnectionClosedOK(code) if ok else ConnectionClosedError(f"closed with {code}"))
            if self.transport is not None:
                self.transport.close()

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            header = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            header = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            header = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        key = os.urandom(4)
        self.transport.write(header + key + _masked(payload, key))

    def _end(self, why: Exception) -> None:
        if not self.ended.done():
            self.ended.set_exception(why)
            self.ended.exception()  # retrieved: nobody need wait for it

    # --- what the clients call --------------------------------------------------------------

    def start(self) -> None:
        """Hand over the messages from now on (and those that came with the handshake)."""
        held, self.held = self.held or [], None
        for message in held:
            self.on_message(message)

    def send(self, text: str) -> None:
        """Send a text message (raises once the connection is closed)."""
        if self.ended.done():
            raise ConnectionClosedError("closed")
        self._send(TEXT, text.encode())

    async def close(self) -> None:
        """Close with 1000 (the server's answer is not awaited)."""
        if not self.ended.done():
            self._send(CLOSE, (1000).to_bytes(2, "big"))
            self._end(ConnectionClosedOK(1000))
        if self.transport is not None:
            self.transport.close()

    async def wait_closed(self) -> None:
        """Until the connection ends: returns after a normal close, raises otherwise."""
        try:
            await asyncio.shield(self.ended)
        except ConnectionClosedOK:
            return


@asynccontextmanager
async def connect(
    url: str, origin: str, on_message: Callable[[bytes], None], open_timeout: float
) -> AsyncIterator[FrameSocket]:
    """Open `url` (ws://host:port/path?query) and complete the handshake within `open_timeout`."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16))
    loop = asyncio.get_running_loop()
    socket: FrameSocket | None = None
    try:
        async with asyncio.timeout(open_timeout):
            _, socket = await loop.create_connection(lambda: FrameSocket(on_message), host, port)
            assert socket.transport is not None
            request = (
                f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
            )
            socket.transport.write(request.encode())
            head = await socket.head
        status = head.split(b"\r\n", 1)[0].split(b" ")
        if len(status) < 2 or status[1] != b"101":
            raise InvalidStatus(head.split(b"\r\n", 1)[0].decode("latin-1"))
        if b"sec-websocket-accept: " + accept_for(key).lower() not in head.lower():
            raise InvalidMessage("wrong Sec-WebSocket-Accept")
        yield socket
    finally:
        if socket is not None:
            await socket.close()
