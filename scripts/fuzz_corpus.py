"""The fuzzer's corpus (scripts/fuzz.py): the frames it sends, none of which may change the table,
and the socket that records every answer."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

TAKEN: set[Any] = {"leave", "auto"}  # every action type any seat may make now (set at the snapshot)


class Sock:
    """A websocket that records every frame and how it was closed."""

    def __init__(self, label: str, seat: int | None) -> None:
        self.label, self.seat = label, seat
        self.ws: Any = None
        self.frames: list[dict[str, Any] | str] = []
        self.close_code: int | None = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, url: str, origin: str) -> Sock:
        import websockets

        self.ws = await websockets.connect(url, origin=origin, max_size=2**22, ping_interval=None)  # type: ignore[arg-type]
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        import websockets

        try:
            async for raw in self.ws:
                try:
                    self.frames.append(json.loads(raw))
                except ValueError:
                    self.frames.append(str(raw))  # an HTML frame (HTMX dialect)
        except websockets.ConnectionClosed:
            pass
        self.close_code = self.ws.close_code

    def latest(self) -> dict[str, Any]:
        states = [f for f in self.frames if isinstance(f, dict) and f.get("type") == "state"]
        return states[-1]

    async def send(self, data: str | bytes) -> bool:
        try:
            await self.ws.send(data)
            return True
        except Exception:
            return False


# --- the corpus ----------------------------------------------------------------------------

TYPES = [
    "act",
    "sync",
    "ping",
    "ACT",
    "",
    None,
    1,
    [],
    {},
    "table.changed",
    "state",
    "error",
]
# The registry's table commands (games.table.commands) but those any seat may make now (TAKEN):
# filled in by `main` once Django is set up.
TABLE_ACTIONS: list[str] = []


def load_table_actions() -> None:
    from games.table.commands import NAMES

    TABLE_ACTIONS[:] = [name for name in NAMES if name not in TAKEN]


TILES = ["1m", "9p", "5s", "1z", "7z", "8f", "0m", "10m", "", "??", "1m1m", None, 5]


def malformed(rng: random.Random) -> str | bytes:
    choices: list[str | bytes] = [
        "",
        "{",
        "}",
        "{'type': 'act'}",
        '{"type": "act", "version": 1, "action": {"type": "discard"',
        "null",
        "[]",
        "[1,2,3]",
        '"act"',
        "42",
        "true",
        "NaN",
        '{"type": NaN}',
        "\x00\x01\x02",
        "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))),
        "[" * 1000 + "]" * 1000,
        '{"a":' * 300 + "1" + "}" * 300,
        json.dumps({"type": "act", "version": 1, "action": {"type": "discard", "tile": "1m"}})[:-3],
        "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 300))),
    ]
    return rng.choice(choices)


def wrong_shape(rng: random.Random, version: int) -> dict[str, Any]:
    versions: list[Any] = [
        None,
        "1",
        str(version),
        1.5,
        float(version),
        True,
        False,
        -1,
        10**30,
        [version],
        {},
    ]
    actions: list[Any] = [
        None,
        1,
        "discard",
        [],
        {},
        {"type": None},
        {"type": 5},
        {"tile": "1m"},
        {"type": "discard", "tile": rng.choice(TILES)},
        {"type": "x" * 200},
    ]
    shapes = [
        {"type": rng.choice(TYPES)},
        {"type": "act"},
        {"type": "act", "version": rng.choice(versions), "action": {"type": "pass"}},
        {"type": "act", "version": version, "action": rng.choice(actions)},
        {
            "type": "act",
            "version": version,
            "action": {"type": "discard", "tile": rng.choice(TILES), "seat": 0},
        },
        {
            "type": "act",
            "version": version,
            "action": {
                "type": rng.choice(TABLE_ACTIONS),
                "seat": rng.choice([-1, 0, 4, 99, "0", None, True]),
            },
        },
        {
            "type": "act",
            "version": version,
            "action": {"type": "set_stake", "base": rng.choice([0, -5, 10**9, "abc", None, 1.5, True])},
        },
        {"type": "act", "version": version, "seat": 0, "user": "lt_0", "action": {"type": "pass"}},
    ]
    return rng.choice(shapes)


def refused_at_version(
    rng: random.Random, sock: Sock, version: int, foreign: list[dict[str, Any]]
) -> dict[str, Any]:
    """An action sent at the right version that this socket may not take now (never one of its `legal`)."""
    legal = sock.latest().get("legal") or []
    candidates = [
        {"type": "pass"},
        {"type": "win"},
        {"type": "chi", "tile": "3m", "tiles": ["1m", "2m"]},
        {"type": "pong", "tile": "5p"},
        {"type": "kong", "tile": "5p", "kind": "exposed"},
        {"type": "discard", "tile": rng.choice(TILES)},
        {"type": "choose", "kind": "x", "value": 1},
        *({"type": t} for t in TABLE_ACTIONS),
        {"type": "sit", "seat": rng.randrange(4)},
        {"type": "add_bot", "seat": rng.randrange(4)},
        *foreign,
    ]
    taken = {a.get("type") for a in legal}
    allowed = [c for c in candidates if c.get("type") not in taken]
    return {"type": "act", "version": version, "action": rng.choice(allowed)}


def guarded(sock: Sock, message: Any, version: int) -> Any:
    """Never a move this socket may make: an act at a version the server may take as current whose
    action type any seat may make now (a shape the server might accept) goes at a version the
    table cannot reach."""
    sent = message.get("version") if isinstance(message, dict) else None
    # Hand actions are accepted at any version since the current decision began
    # (games.table.changes.Expected.same_decision): every earlier version may be "current" too.
    near = isinstance(sent, int | float) and not isinstance(sent, bool) and 0 < sent <= version + 10
    if not (isinstance(message, dict) and message.get("type") == "act" and near):
        return message  # not an act, or a version the table cannot reach during the run
    action = message.get("action")
    taken = TAKEN | {a.get("type") for a in sock.latest().get("legal") or []}
    if isinstance(action, dict) and action.get("type") in taken:
        return {**message, "version": version + 1000}
    return message


def htmx_shaped(rng: random.Random, version: int) -> dict[str, Any]:
    action = rng.choice(['{"type":"start"}', "not json", '{"type":"pass"}', "", "[]", "[" * 1500])
    return {
        "HEADERS": {"HX-Request": "true"},
        "action": action,
        "version": rng.choice([str(version), "x", "", "9" * 40]),
    }


# --- the run --------------------------------------------------------------------------------
