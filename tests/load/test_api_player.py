"""The API player's reconnection (scripts/api_player.py): back-off with full jitter, retry_after."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import api_player  # noqa: E402


def test_reconnect_delay_is_a_full_jitter_draw_from_a_doubling_window() -> None:
    rng = random.Random(1)
    for failures in range(8):
        window = min(api_player.BACKOFF_CAP, api_player.BACKOFF_BASE * 2**failures)
        draws = [api_player.reconnect_delay(failures, rng) for _ in range(2000)]
        assert all(0.0 <= d < window for d in draws)
        # full jitter: spread over the whole window, not bunched at its end
        assert min(draws) < 0.05 * window and max(draws) > 0.95 * window


def test_reconnect_delay_waits_at_least_what_a_busy_server_asked() -> None:
    rng = random.Random(2)
    draws = [api_player.reconnect_delay(0, rng, retry_after=4) for _ in range(500)]
    assert all(4.0 <= d < 4.0 + api_player.BACKOFF_BASE for d in draws)


def state(version: int, hand_number: int) -> str:
    view = {"table": {"hand_number": hand_number}, "last_result": None}
    return json.dumps({"type": "state", "version": version, "view": view, "legal": []})


async def test_the_player_comes_back_after_busy_and_a_dropped_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real socket server: refuses the first connection (busy, 4013), drops the second after a
    state, and serves the third the state that ends the game."""
    from websockets.asyncio.server import serve

    waits: list[tuple[int, float]] = []

    def no_wait(failures: int, rng: random.Random, retry_after: float = 0.0) -> float:
        waits.append((failures, retry_after))
        return 0.0

    monkeypatch.setattr(api_player, "reconnect_delay", no_wait)
    connections = 0

    async def handler(socket: Any) -> None:
        nonlocal connections
        connections += 1
        if connections == 1:
            await socket.send(json.dumps({"type": "error", "code": "busy", "message": "", "retry_after": 3}))
            await socket.close(code=4013)
        elif connections == 2:
            await socket.send(state(7, 1))
            socket.transport.abort()  # the process died
        else:
            await socket.send(state(9, 2))  # hand 1 settled meanwhile

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        frame = await asyncio.wait_for(
            api_player.play(f"http://127.0.0.1:{port}", "t", 1, hands=1, timeout=30), 30
        )
    assert frame["version"] == 9 and connections == 3
    assert waits == [(1, 3.0), (0, 0.0)]  # busy: its retry_after; after a served connection: afresh
