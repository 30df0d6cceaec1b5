"""What the load generator reads from a state frame's text without parsing the whole of it.

The server encodes a state frame with orjson, its keys always in one order (docs/protocol.md):
`{"type":"state","version":V,"view":{…},"legal":[…]}`, with `,"reply_to":ID` before the last
brace when it answers an act. So the version is read from the frame's head, `legal` and
`reply_to` from its tail, and the two fields of the view the driver needs (the hand number and
whether the viewer's own claim is held) by their keys; the ~6 KB view in between is parsed only
when a stalled view is reported. Frames are kept as the bytes that came off the socket (no UTF-8
decoding either).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Protocol

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api_player import HAND_TYPES  # noqa: E402

STATE_PREFIX = b'{"type":"state","version":'
LEGAL_KEY = b',"legal":'
REPLY_KEY = b',"reply_to":'
HAND_NUMBER_KEY = b'"hand_number":'  # the table's (it comes before the hand's view and the result)
OWN_SEAT_KEY = b'"is_you":true'  # the viewer's own seat in the table's seats
PENDING_KEY = b'"pending":'  # … and further on in that seat, its claim held in the undo window
REPLY_TAIL = 96  # characters at a frame's end that hold its reply_to (an id is at most 64)
NO_MOVES = b',"legal":[]}'  # the end of a state frame that offers its viewer nothing and answers nothing
PAUSED = b'"paused":true'  # the table's: the viewer is shown the pause after a discard


def version_of(raw: bytes) -> int | None:
    """A state frame's version (None: not a state frame)."""
    if not raw.startswith(STATE_PREFIX):
        return None
    start = len(STATE_PREFIX)
    return int(raw[start : raw.index(b",", start)])


def reply_to_of(raw: bytes) -> Any:
    """The id of the act a state frame answers (None: it answers none)."""
    at = raw.rfind(REPLY_KEY, max(0, len(raw) - REPLY_TAIL))
    return None if at < 0 else orjson.loads(raw[at + len(REPLY_KEY) : -1])


def legal_of(raw: bytes) -> list[dict[str, Any]]:
    """A state frame's `legal`, parsed alone."""
    at = raw.rfind(LEGAL_KEY)
    if at < 0:
        return []
    end = raw.rfind(REPLY_KEY, at)
    return orjson.loads(raw[at + len(LEGAL_KEY) : end if end >= 0 else -1])  # type: ignore[no-any-return]


def hand_number_of(raw: bytes) -> int:
    """The table's hand number (0 before the first hand)."""
    at = raw.find(HAND_NUMBER_KEY)
    if at < 0:
        return 0
    start = at + len(HAND_NUMBER_KEY)
    text = raw[start : raw.index(b",", start)]
    return int(text) if text.isdigit() else 0


def paused_of(raw: bytes) -> bool:
    """Whether a state frame shows its viewer the pause after a discard (`table.paused`)."""
    return PAUSED in raw


def own_claim_held(raw: bytes) -> bool:
    """Whether the viewer's own seat shows its claim held in the undo window (`pending`)."""
    at = raw.find(OWN_SEAT_KEY)
    if at < 0:
        return False
    pending = raw.find(PENDING_KEY, at)
    return pending >= 0 and not raw.startswith(b"null", pending + len(PENDING_KEY))


class Seat(Protocol):
    """What the reads below need of a socket (lt_clients.Client)."""

    seat: int
    version: int
    raw: bytes | None
    connected: asyncio.Event

    @property
    def frame(self) -> dict[str, Any] | None: ...

    @property
    def legal(self) -> list[dict[str, Any]]: ...


def awaits_answer(client: Seat, version: int) -> bool:
    """Whether this seat, still before `version`, may answer within a claim window now."""
    if client.version >= version:
        return False
    return any(a.get("type") in HAND_TYPES for a in client.legal)


def held_by_the_rules(client: Seat) -> bool:
    """Whether the claimer's own frame shows its claim held in the undo window (`pending`)."""
    return client.raw is not None and own_claim_held(client.raw)


def shown(client: Seat, seen: bool) -> dict[str, Any]:
    """What a socket showed when a view was not updated in time (the whole frame parsed)."""
    view = (client.frame or {}).get("view") or {}
    table = view.get("table") or {}
    return {
        "seat": client.seat,
        "version": client.version,
        "seen": seen,
        "connected": client.connected.is_set(),
        "paused": table.get("paused"),
        "phase": view.get("phase"),
        "legal": sorted({a.get("type") for a in (client.frame or {}).get("legal") or []}),
        "pending": [s.get("pending") for s in table.get("seats") or []],
    }
