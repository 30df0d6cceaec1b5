"""The first steps of every socket's frame: the limits, the close codes, the token bucket, reading
a frame (size, rate, JSON) and making an HTMX form an act (docs/protocol.md)."""

from __future__ import annotations

import json
import time
from typing import Any

from django.utils.translation import gettext_lazy

MAX_FRAME = 4096  # bytes; a legal client never needs more
BURST = 20  # messages
RATE = 10.0  # messages per second refilled
MAX_REFUSED = 10  # refused (rate-limited) messages in a row before the socket is closed

CLOSE_BAD_TOKEN = 4001  # also: the token was revoked while the socket was open
CLOSE_LOGGED_OUT = 4003  # the session logged out while the socket was open
CLOSE_NO_TABLE = 4004
CLOSE_FLOOD = 4008
CLOSE_TOO_BIG = 4009
# RFC 6455's "service restart" (1012) and "try again later" (1013) cannot be sent: daphne's
# websocket library closes only with 1000 or 3000–4999 (it raised, and the socket was dropped
# with 1006 instead), so the application's own codes mirror them. Clients reconnect after both.
CLOSE_SERVICE_RESTART = 4012  # the process was given up for dead and registered again
CLOSE_TRY_AGAIN = 4013  # try again later: `busy` (admission control, games.sockets.admission) or no database
UNAVAILABLE = "the server lost its database for a moment: sync and send again"
BUSY = gettext_lazy("The server is busy: reconnecting in a few seconds…")  # in the page's language


NOT_PARSED = object()  # what `read_frame` returns for a frame it refused (already answered)


async def read_frame(consumer: Any, text_data: str | None, bytes_data: bytes | None, max_bytes: int) -> Any:
    """The first checks of every socket's frame, in the order a flood meets them: its size (too
    big closes the socket), the consumer's token bucket (refusals in a row close it), then JSON
    (RecursionError: "[[[[…" nested past the stack, the fuzzer's). Returns the parsed value, or
    `NOT_PARSED` after telling the client why."""
    raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
    if len(raw.encode()) > max_bytes:
        await consumer.send_error("too_big", f"messages are at most {max_bytes} bytes")
        await consumer.close(code=CLOSE_TOO_BIG)
        return NOT_PARSED
    if not consumer.bucket.take():
        consumer.refused += 1
        await consumer.send_error("rate_limited", "too many messages; slow down")
        if consumer.refused >= MAX_REFUSED:
            await consumer.close(code=CLOSE_FLOOD)
        return NOT_PARSED
    consumer.refused = 0
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        await consumer.send_error("bad_json", "a message is one JSON value")
        return NOT_PARSED


class TokenBucket:
    def __init__(self, burst: int = BURST, rate: float = RATE) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


MAX_REPLY_ID = 64  # characters of an act's `id`


def reply_id(value: Any) -> str | int | None:
    """An act's `id` echoed as `reply_to` in its answer: a short string or a whole number (any
    other value is ignored, as if there were none)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -(2**53) < value < 2**53:
        return value
    if isinstance(value, str) and 0 < len(value) <= MAX_REPLY_ID:
        return value
    return None


def normalise(message: dict[str, Any]) -> dict[str, Any]:
    """HTMX's ws extension sends form fields (strings) plus a HEADERS key: make them an act."""
    if "HEADERS" not in message:
        return message
    out = {k: v for k, v in message.items() if k != "HEADERS"}
    action = out.get("action")
    if isinstance(action, str):
        try:
            out["action"] = json.loads(action)
        except (ValueError, RecursionError):
            out["action"] = None
    version = out.get("version")
    if isinstance(version, str) and version.strip().isdigit():
        out["version"] = int(version)
    if "type" not in out and "action" in out:
        out["type"] = "act"
    return out


def holds_nul(value: Any) -> bool:
    """Whether any key or string in a parsed frame holds a NUL character (no recursion): no name
    or text holds one, and the database cannot store one."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
