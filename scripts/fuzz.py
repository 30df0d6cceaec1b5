#!/usr/bin/env python3
"""Socket fuzzer against a live table (make fuzz; docs/benchmarks.md).

    .venv/bin/python scripts/fuzz.py [--frames 3000] [--procs 1] [--seed 1]

Starts the production shape without the clock (lt_stack.Stack(clock=False): nothing but a
socket may change the table), opens a 4-seat table with a hand running, connects several
sockets per seat plus other users' and anonymous sockets, and sends FRAMES frames of seven
kinds: malformed, wrong-shape, out-of-order (refused actions at the right version), stale
and future versions, foreign-seat (another seat's legal move), outsiders (spectator and
anonymous acting), HTMX-shaped garbage. None of them may change anything: the table version
and the HandAction count must stay put, every frame must be answered (error, state, pong)
and the server log must hold no traceback. Then the abuse checks: oversized frames
close with 4009, floods are rate limited then closed with 4008, a bad token 4001, a missing
table 4004, a foreign Origin is refused at the handshake. Last, a legal move still works.
The last line is one JSON object with the counts and `"ok"`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_corpus import (  # noqa: E402
    TAKEN,
    Sock,
    guarded,
    htmx_shaped,
    load_table_actions,
    malformed,
    refused_at_version,
    wrong_shape,
)
from lt_ledger import create_table, django_setup, make_players  # noqa: E402
from lt_stack import HOST, Stack  # noqa: E402

RATE = 8.0  # frames per second per socket: under the server's 10/s refill, so nothing is closed
SAFE_CODES = {"pong", "state"}


def snapshot(table_id: int) -> tuple[int, int]:
    from games.models import HandAction, Table

    version = Table.objects.get(pk=table_id).version
    return version, HandAction.objects.filter(hand__table_id=table_id).count()


def start_hand(table_id: int, tokens: list[str]) -> None:
    """Seats 1–3 sit and accept through the services (the fuzzer's own process); seat 0 starts."""
    from accounts.services import user_for_token
    from games.table import commands

    users = [user_for_token(token) for token in tokens[:4]]
    for index, user in enumerate(users[1:], start=1):
        commands.sit(table_id, user, index)
        commands.accept_stake(table_id, user)
    commands.start_hand(table_id, users[0])


async def fuzz(stack: Stack, table_id: int, tokens: list[str], frames: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    port = stack.ports[0]
    base = f"ws://{HOST}:{port}/ws/tables/{table_id}/"
    origin = f"http://{HOST}:{port}"
    seated = [
        await Sock(f"seat{s}.{k}", s).open(f"{base}?token={tokens[s]}", origin)
        for s in range(4)
        for k in range(3)
    ]
    outsiders = [
        await Sock(f"other{k}", None).open(f"{base}?token={tokens[4 + k]}", origin) for k in range(3)
    ]
    anonymous = [await Sock(f"anon{k}", None).open(f"{base}?format=json", origin) for k in range(2)]
    htmx = [await Sock(f"htmx{k}", None).open(base, origin) for k in range(2)]
    everyone = seated + outsiders + anonymous + htmx
    await asyncio.sleep(1.0)
    before = await asyncio.to_thread(snapshot, table_id)
    marks = {s.label: len(s.frames) for s in everyone}  # frames from here on are answers to the fuzz
    version = before[0]
    turn_state = next(s for s in seated if s.seat == 0).latest()
    dealer = next(i for i, seat in enumerate(turn_state["view"]["hand"]["seats"]) if seat["dealer"])
    dealer_legal = [
        a
        for a in next(s for s in seated if s.seat == dealer).latest()["legal"]
        if a["type"] not in {"auto", "leave"}
    ]
    for sock in seated:
        TAKEN.update(a.get("type") for a in sock.latest().get("legal") or [])
    kinds: Counter[str] = Counter()
    sent_per_sock: Counter[str] = Counter()

    async def one(sock: Sock) -> None:
        for _ in range(frames // len(everyone) + 1):
            if sum(kinds.values()) >= frames:
                return
            kind, payload = pick(sock)
            payload = guarded(sock, payload, version) if sock.seat is not None else payload
            data = payload if isinstance(payload, str | bytes) else json.dumps(payload)
            if await sock.send(data):
                kinds[kind] += 1
                sent_per_sock[sock.label] += 1
            await asyncio.sleep(1 / RATE)

    def pick(sock: Sock) -> tuple[str, Any]:
        roll = rng.random()
        if sock in htmx:
            return "htmx", htmx_shaped(rng, version) if roll < 0.7 else malformed(rng)
        if roll < 0.2:
            return "malformed", malformed(rng)
        if roll < 0.4:
            return "wrong_shape", wrong_shape(rng, version)
        if roll < 0.55:
            stale = rng.choice([version - 1, version - rng.randrange(1, 50), 0, version + 1, version + 1000])
            return "stale_or_future", {"type": "act", "version": stale, "action": rng.choice(dealer_legal)}
        if sock.seat is None:
            return "outsider", {"type": "act", "version": version, "action": rng.choice(dealer_legal)}
        if sock.seat != dealer and roll < 0.75:
            return "foreign_seat", {"type": "act", "version": version, "action": rng.choice(dealer_legal)}
        if roll < 0.9:
            return "out_of_order", refused_at_version(
                rng, sock, version, dealer_legal if sock.seat != dealer else []
            )
        return "sync_ping", {"type": rng.choice(["sync", "ping"])}

    started = time.monotonic()
    await asyncio.gather(*(one(s) for s in everyone))
    await asyncio.sleep(2.0)  # the last answers
    elapsed = time.monotonic() - started
    after = await asyncio.to_thread(snapshot, table_id)
    answers = Counter(
        (f.get("type") if f.get("type") != "error" else f"error:{f.get('code')}")
        if isinstance(f, dict)
        else "html"
        for s in everyone
        for f in s.frames
    )
    moved = [
        f
        for s in everyone
        for f in s.frames[marks[s.label] :]
        if isinstance(f, dict) and f.get("type") == "state" and f["version"] != version
    ]
    still_open = sum(1 for s in everyone if s.close_code is None)
    abuse = await abuse_checks(base, origin, tokens, table_id)
    alive = await legal_move_works(seated, dealer, version)
    for s in everyone:
        await s.ws.close()
    return {
        "frames": sum(kinds.values()),
        "kinds": dict(kinds),
        "seconds": round(elapsed, 1),
        "answers": dict(answers),
        "state_changes": int(after != before) + len(moved),
        "before": list(before),
        "after": list(after),
        "sockets_open_after_fuzz": f"{still_open}/{len(everyone)}",
        "rate_limited": answers.get("error:rate_limited", 0),
        **abuse,
        "legal_move_after": alive,
    }


async def abuse_checks(base: str, origin: str, tokens: list[str], table_id: int) -> dict[str, Any]:
    """Oversized → 4009, flood → rate_limited then 4008, bad token 4001, no table 4004, bad Origin refused."""
    import websockets

    out: dict[str, Any] = {}
    big = await Sock("big", None).open(f"{base}?token={tokens[4]}", origin)
    await big.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    flood = await Sock("flood", None).open(f"{base}?token={tokens[5]}", origin)
    for _ in range(100):
        if not await flood.send('{"type":"ping"}'):
            break
    bad_token = await Sock("bad_token", None).open(f"{base}?token=not-a-token", origin)
    missing = base.replace(f"/{table_id}/", "/999999/")
    no_table = await Sock("no_table", None).open(f"{missing}?format=json", origin)
    await asyncio.sleep(2.0)
    flood_errors = Counter(
        f.get("code") for f in flood.frames if isinstance(f, dict) and f.get("type") == "error"
    )
    out["close_codes"] = {s.label: s.close_code for s in (big, flood, bad_token, no_table)}
    out["flood"] = {
        "pongs": sum(1 for f in flood.frames if isinstance(f, dict) and f.get("type") == "pong"),
        "rate_limited": flood_errors.get("rate_limited", 0),
    }
    try:
        ws = await websockets.connect(f"{base}?format=json", origin="https://evil.example", open_timeout=5)
        await ws.close()
        out["foreign_origin"] = "accepted"
    except websockets.InvalidStatus as e:
        out["foreign_origin"] = f"refused {e.response.status_code}"
    except Exception as e:
        out["foreign_origin"] = f"refused {type(e).__name__}"
    return out


async def legal_move_works(seated: list[Sock], dealer: int, version: int) -> bool:
    sock = next(s for s in seated if s.seat == dealer)
    hand_moves = [a for a in sock.latest()["legal"] if a["type"] not in {"auto", "leave"}]
    if not hand_moves:
        print(f"[fuzz] the dealer has no move to make: {sock.latest()['legal']}", file=sys.stderr)
        return False
    action = next((a for a in hand_moves if a["type"] == "discard"), hand_moves[0])
    await sock.send(json.dumps({"type": "act", "version": version, "action": action}))
    await asyncio.sleep(1.0)
    return any(
        isinstance(f, dict) and f.get("type") == "state" and f["version"] > version for f in sock.frames
    )


EXPECTED_CLOSES = {"big": 4009, "flood": 4008, "bad_token": 4001, "no_table": 4004}


def verdict(result: dict[str, Any], server_errors: list[str]) -> bool:
    return (
        result["state_changes"] == 0
        and not server_errors
        and result["close_codes"] == EXPECTED_CLOSES
        and result["flood"]["rate_limited"] > 0
        and result["foreign_origin"].startswith("refused")
        and result["legal_move_after"]
        and result["sockets_open_after_fuzz"].split("/")[0] == result["sockets_open_after_fuzz"].split("/")[1]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    stack = Stack(f"mahjong_fuzz_{int(time.time())}", procs=args.procs, clock=False).start()
    try:
        django_setup(stack)
        load_table_actions()
        tokens = make_players(8)
        table_id = create_table(stack.ports[0], tokens[0], "shanghai")
        start_hand(table_id, tokens)
        result = asyncio.run(fuzz(stack, table_id, tokens, args.frames, args.seed))
        server_errors = stack.server_errors()
    finally:
        stack.stop(drop=not args.keep)
    result["server_exceptions"] = len(server_errors)
    result["server_errors"] = server_errors[:10]
    result["ok"] = verdict(result, server_errors)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
