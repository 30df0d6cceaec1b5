"""The load generator's websocket client (scripts/lt_socket.py): frames cut from the bytes as
they come, in any split, handed over whole; pings answered; a close told normal or not."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import lt_socket  # noqa: E402


class Wire:
    """A transport that keeps what the client writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    n = len(payload)
    size = bytes((n,)) if n < 126 else bytes((126,)) + n.to_bytes(2, "big")
    return bytes(((0x80 if fin else 0) | opcode,)) + size + payload


def unmasked(data: bytes) -> tuple[int, bytes]:
    """(opcode, payload) of a frame the client sent (masked, short)."""
    n = data[1] & 0x7F
    key, body = data[2:6], data[6 : 6 + n]
    return data[0] & 0x0F, bytes(b ^ key[i % 4] for i, b in enumerate(body))


async def opened() -> tuple[lt_socket.FrameSocket, Wire, list[bytes]]:
    got: list[bytes] = []
    socket = lt_socket.FrameSocket(got.append)
    wire = Wire()
    socket.connection_made(wire)  # type: ignore[arg-type]
    return socket, wire, got


def test_messages_are_cut_from_any_split_of_the_bytes_and_held_until_started() -> None:
    async def run() -> None:
        socket, wire, got = await opened()
        big = b"x" * 3000
        data = b"HTTP/1.1 101 Switching Protocols\r\n\r\n" + frame(1, b'{"a":1}') + frame(1, big)
        data += frame(1, b"part-", fin=False) + frame(0, b"two") + frame(9, b"hi")
        for i in range(0, len(data), 7):  # seven bytes at a time
            socket.data_received(data[i : i + 7])
        assert socket.head.done() and got == []  # held: the caller was not ready
        socket.start()
        assert got == [b'{"a":1}', big, b"part-two"]
        assert unmasked(wire.written[-1]) == (lt_socket.PONG, b"hi")
        socket.send('{"type":"sync"}')
        assert unmasked(wire.written[-1]) == (lt_socket.TEXT, b'{"type":"sync"}')

    asyncio.run(run())


@pytest.mark.parametrize(("code", "ends"), [(1000, None), (4013, lt_socket.ConnectionClosedError)])
def test_a_close_is_answered_and_told_normal_or_not(code: int, ends: Any) -> None:
    async def run() -> None:
        socket, wire, _ = await opened()
        socket.data_received(b"HTTP/1.1 101 OK\r\n\r\n" + frame(8, code.to_bytes(2, "big")))
        assert unmasked(wire.written[-1]) == (lt_socket.CLOSE, code.to_bytes(2, "big")) and wire.closed
        if ends is None:
            await socket.wait_closed()
        else:
            with pytest.raises(ends):
                await socket.wait_closed()
        with pytest.raises(lt_socket.ConnectionClosedError):
            socket.send("late")

    asyncio.run(run())


def test_a_connection_lost_during_the_handshake_is_an_invalid_message() -> None:
    async def run() -> None:
        socket, _, _ = await opened()
        socket.connection_lost(None)
        with pytest.raises(lt_socket.InvalidMessage):
            await socket.head
        with pytest.raises(lt_socket.ConnectionClosedError):
            await socket.wait_closed()

    asyncio.run(run())


def test_the_handshake_is_checked_against_the_rfc_example() -> None:
    assert lt_socket.accept_for(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
