#!/usr/bin/env python3
"""A client that knows nothing of mahjong: it plays by always sending one of `legal`.

    python scripts/api_player.py --url http://127.0.0.1:8000 --token TOKEN --variant tianjin --bots 3
    python scripts/api_player.py --url ... --token TOKEN2 --table 12 --seat 1   # join a table

Creates a table through the HTTP API (or joins --table), opens the JSON socket and answers
every state with a legal action until --hands hands have been settled. Uses only the
documented protocol (docs/protocol.md); the `choose` policy is shared with the tests.

When the socket drops (a server restarted, a `busy` server's 4013) it reconnects with
exponential back-off and full jitter (`reconnect_delay`), waiting at least the `retry_after` a
busy server asked for, and resumes from the state the server sends first on every connection
(nothing is replayed: the seat and the table live on the server).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import urllib.request
from typing import Any
from urllib.parse import urlsplit

HAND_TYPES = {"discard", "chi", "pong", "kong", "win", "pass", "choose"}
# Table actions this player takes when it has nothing to do in the hand, in this order.
TABLE_STEPS = ("accept_stake", "start", "continue")


def choose(frame: dict[str, Any], rng: random.Random, seat: int | None = None) -> dict[str, Any] | None:
    """One entry of frame['legal'], unchanged, or None to wait for the next state."""
    legal = frame.get("legal") or []
    hand = [a for a in legal if a.get("type") in HAND_TYPES]
    if hand:
        wins = [a for a in hand if a["type"] == "win"]
        return wins[0] if wins else rng.choice(hand)
    for kind in TABLE_STEPS:
        for action in legal:
            if action.get("type") == kind:
                return action
    if seat is not None and {"type": "sit", "seat": seat} in legal:
        return {"type": "sit", "seat": seat}
    return None


BACKOFF_BASE = 1.0  # seconds: the first reconnect window
BACKOFF_CAP = 30.0  # seconds: the largest window


def reconnect_delay(
    failures: int,
    rng: random.Random,
    retry_after: float = 0.0,
    base: float = BACKOFF_BASE,
    cap: float = BACKOFF_CAP,
) -> float:
    """Seconds to wait before reconnecting after `failures` failed connections in a row:
    exponential back-off with full jitter (a uniform draw from [0, min(cap, base·2ⁿ))), so a
    thousand clients cut off together come back spread out, never in step; plus the
    `retry_after` a busy server asked for (docs/protocol.md, admission control)."""
    window = min(cap, base * 2 ** max(0, failures))
    return max(0.0, retry_after) + rng.uniform(0.0, window)


def hands_settled(frame: dict[str, Any]) -> int:
    """How many hands of this table have been settled, as far as this frame tells."""
    view = frame.get("view") or {}
    last = view.get("last_result")
    if last:
        return int(last["hand"])
    number = (view.get("table") or {}).get("hand_number") or 0
    return max(0, number - 1)


def create_table(url: str, token: str, variant: str, base: int, bots: int) -> dict[str, Any]:
    body = json.dumps({"variant": variant, "base": base, "bots": bots}).encode()
    request = urllib.request.Request(
        url.rstrip("/") + "/api/tables/",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def play(
    url: str,
    token: str,
    table_id: int,
    hands: int = 1,
    seat: int | None = None,
    seed: int = 0,
    timeout: float = 300,
    log: Any = None,
) -> dict[str, Any]:
    """Play on `table_id` until `hands` hands are settled; returns the last state frame.
    Reconnects (back-off with full jitter) whenever the socket drops."""
    parts = urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    ws_url = f"{scheme}://{parts.netloc}/ws/tables/{table_id}/?token={token}"
    origin = f"{parts.scheme}://{parts.netloc}"
    player = Player(ws_url, origin, hands, seat, random.Random(seed), log)
    return await asyncio.wait_for(player.run(), timeout)


GIVE_UP_CODES = {"bad_token", "token_revoked", "no_table", "logged_out"}  # reconnecting cannot help


class Player:
    """One seat's socket, reconnecting: the version it last saw and the act it sent for it
    survive a reconnection, so it never acts twice on one state."""

    def __init__(
        self, ws_url: str, origin: str, hands: int, seat: int | None, rng: random.Random, log: Any
    ) -> None:
        self.ws_url, self.origin, self.hands, self.seat = ws_url, origin, hands, seat
        self.rng, self.log = rng, log
        self.version = -1  # the last state seen (on any connection)
        self.sent_for = -1  # the version the last act answered
        self.retry_after = 0.0  # what a busy server asked for
        self.served = False  # this connection brought a state (it was not refused)
        self.fatal: str | None = None

    async def run(self) -> dict[str, Any]:
        import websockets

        failures = 0
        while True:
            self.retry_after, self.served = 0.0, False
            try:
                async with websockets.connect(self.ws_url, origin=self.origin, max_size=2**22) as socket:  # type: ignore[arg-type]
                    done = await self._play(socket)
                    if done is not None:
                        return done
            except (OSError, websockets.WebSocketException) as e:
                if self.log:
                    self.log(f"socket lost ({type(e).__name__}); reconnecting")
            if self.fatal:
                raise ConnectionError(self.fatal)
            failures = 0 if self.served else failures + 1  # a served connection starts afresh
            await asyncio.sleep(reconnect_delay(failures, self.rng, self.retry_after))

    async def _play(self, socket: Any) -> dict[str, Any] | None:
        """Answer states until the hands are done (the last frame) or the socket closes (None).
        The first frame of every connection is the full current state: the resumption."""
        async for raw in socket:
            frame = json.loads(raw)
            if frame.get("type") == "error":
                self._error(frame)
                continue
            if frame.get("type") != "state":
                continue
            self.version, self.served = frame["version"], True
            if hands_settled(frame) >= self.hands:
                return frame
            if frame["version"] == self.sent_for:
                continue
            action = choose(frame, self.rng, self.seat)
            if action is not None:
                self.sent_for = frame["version"]
                await socket.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))
        return None

    def _error(self, frame: dict[str, Any]) -> None:
        if self.log:
            self.log(f"error {frame.get('code')}: {frame.get('message')}")
        if frame.get("code") == "busy":
            self.retry_after = float(frame.get("retry_after") or 0)
        elif frame.get("code") in GIVE_UP_CODES:
            self.fatal = str(frame.get("code"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--base", type=int, default=2)
    parser.add_argument("--bots", type=int, default=None, help="bots to add (default: fill every other seat)")
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--table", type=int, default=None, help="join this table instead of creating one")
    parser.add_argument("--seat", type=int, default=None, help="the seat to take when joining")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    table_id = args.table
    if table_id is None:
        bots = args.bots if args.bots is not None else (1 if args.variant == "two_player" else 3)
        created = create_table(args.url, args.token, args.variant, args.base, bots)
        table_id = created["id"]
        print(f"table {table_id}: {created['ws']}", file=sys.stderr)
    frame = asyncio.run(
        play(args.url, args.token, table_id, args.hands, args.seat, timeout=args.timeout, log=print)
    )
    last = frame["view"]["last_result"] or {}
    print(json.dumps({"table": table_id, "hands": hands_settled(frame), "payments": last.get("payments")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
