"""common/broadcaster.py: group messages from synchronous code, sent without waiting when a loop
is there to send them, synchronously otherwise."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from common import broadcaster


class RecordingLayer:
    def __init__(self, fail: bool = False) -> None:
        self.sent: list[tuple[str, dict[str, Any], str]] = []
        self.fail = fail
        self.done = threading.Event()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.sleep(0.05)  # a publish that takes a while
        self.sent.append((group, message, threading.current_thread().name))
        self.done.set()
        if self.fail:
            raise ConnectionError("redis is down")


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> RecordingLayer:
    recording = RecordingLayer()
    monkeypatch.setattr(broadcaster, "get_channel_layer", lambda: recording)
    monkeypatch.setattr(broadcaster, "_LOOP", None)
    return recording


def test_without_a_loop_it_sends_before_returning(layer: RecordingLayer) -> None:
    broadcaster.send("table-1", {"type": "table.changed", "version": 3})
    assert layer.sent and layer.sent[0][:2] == ("table-1", {"type": "table.changed", "version": 3})


def test_with_a_loop_it_returns_at_once_and_the_loop_sends(layer: RecordingLayer) -> None:
    loop = broadcaster.start_own_loop()
    try:
        broadcaster.send("table-1", {"type": "table.changed", "version": 4})
        assert layer.sent == []  # not waited for
        assert layer.done.wait(5)
        assert layer.sent[0][2] == "broadcaster"
    finally:
        loop.call_soon_threadsafe(loop.stop)


def test_a_failed_send_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    failing = RecordingLayer(fail=True)
    monkeypatch.setattr(broadcaster, "get_channel_layer", lambda: failing)
    monkeypatch.setattr(broadcaster, "_LOOP", None)
    broadcaster.send("table-2", {"type": "table.changed", "version": 1})
    assert "message to table-2 failed" in caplog.text
    loop = broadcaster.start_own_loop()
    try:
        failing.done.clear()
        broadcaster.send("table-2", {"type": "table.changed", "version": 2})
        assert failing.done.wait(5)
        for _ in range(50):
            if caplog.text.count("message to table-2 failed") == 2:
                break
            threading.Event().wait(0.02)
        assert caplog.text.count("message to table-2 failed") == 2
    finally:
        loop.call_soon_threadsafe(loop.stop)
