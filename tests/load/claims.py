"""The claim-window part of the hidden-information audit: per discard, what a seat that
cannot claim, a spectator and an anonymous visitor are sent — frames and error codes — with a
claim window open and without one.

The same rigged hand is dealt at two tables (tests/games/claim_window.py): seat 0's discard of 4s
lets seats 1 and 3 claim, its discard of 1p lets nobody. Everybody watches through real sockets;
the claimants answer through theirs, either within the pause after the discard or after it; the
outsider (seat 2) probes with a pong of the discarded tile, a discard and a pass at each stage.
Everything an outsider receives is recorded, less what differs by table (its id, name, invite),
the discarded tile itself, and the countdowns (`pause_ms`, `deadline_ms`: timing). The two
recordings must be equal: then nothing but timing tells whether a window opened. Timing is
bounded by the pause when the claimants answer within it (play moves on when the pause ends, as
without a window); a claimant who thinks longer holds play up, as any player would.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from tests.games.claim_window import PASS, rigged_table
from tests.load.audit import APP

PAUSE_MS = 1500  # long enough for the probes to land within it on a busy machine
SETTLE = 0.25  # seconds to let frames arrive (sockets read until quiet for this long)


@dataclass
class Seen:
    """What the outsiders received, normalised (see the module docstring)."""

    frames: dict[str, list[Any]] = field(default_factory=dict)
    codes: dict[str, list[str]] = field(default_factory=dict)  # stage -> the outsider's probes


async def _open(table_id: int, user: User | None, json_mode: bool = True) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table_id}/" + ("?format=json" if json_mode else ""))
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _read(comm: WebsocketCommunicator, quiet: float = SETTLE) -> list[str]:
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(await comm.receive_from(timeout=5))
    return out


def _normal_json(raw: str, table_id: int, tile: str) -> Any:
    frame = json.loads(raw)
    if frame.get("type") != "state":
        return {k: v for k, v in frame.items() if k != "message"}
    table = frame["view"]["table"]
    for key in ("id", "name", "invite", "pause_ms", "deadline_ms"):
        table.pop(key, None)
    hand = frame["view"]["hand"]
    river = hand["seats"][0]["discards"]
    if river and river[-1] == tile:
        river[-1] = "X"
    if hand.get("last_discard", {}).get("tile") == tile:
        hand["last_discard"]["tile"] = "X"
    return frame


def _normal_html(raw: str, table_id: int, tile: str) -> str:
    text = re.sub(r'data-ms="\d+"', "", raw)
    text = re.sub(r'<span class="countdown.*?</span>', "", text, flags=re.S)
    text = text.replace(f"<small>#{table_id}</small>", "<small>#ID</small>")
    text = re.sub(rf"/tables/{table_id}/", "/tables/ID/", text)
    text = re.sub(rf"\b{tile}\b", "X", text)
    return re.sub(
        r'<span class="tile([^"]*)" title="[^"]*" data-tile="X">.*?</span>', r"<X\1>", text, flags=re.S
    )


async def _latest_version(comm: WebsocketCommunicator, frames: list[str]) -> int:
    states = [json.loads(f) for f in frames]
    return max(f["version"] for f in states if f.get("type") == "state")


async def observe(
    people: list[User],
    spectator: User,
    monkeypatch: pytest.MonkeyPatch,
    discard: dict[str, str],
    claimants: tuple[int, ...],
    answer_after_pause: bool,
) -> Seen:
    """One discard at a fresh rigged table; what the outsiders saw and were answered."""
    table = await sync_to_async(rigged_table)(people, monkeypatch, False, PAUSE_MS)
    tile = discard["tile"]
    seats = [await _open(table.pk, user) for user in people]
    watchers = {
        "spectator": await _open(table.pk, spectator),
        "anonymous": await _open(table.pk, None, False),
    }
    outsiders = {"seat2": seats[2], **watchers}
    last: dict[int, list[str]] = {}
    for index, comm in enumerate(seats):
        last[index] = await _read(comm)
    for comm in watchers.values():
        await _read(comm)
    raw: dict[str, list[str]] = {name: [] for name in outsiders}  # from the discard on
    seen = Seen()

    async def drain() -> None:
        for index, comm in enumerate(seats):
            frames = await _read(comm, 0.05)
            last[index] = (last[index] + frames)[-50:]
            if index == 2:
                raw["seat2"] += frames
        for name, comm in watchers.items():
            raw[name] += await _read(comm, 0.05)

    async def probe(stage: str) -> None:
        comm = seats[2]
        version = await _latest_version(comm, last[2])
        for number, action in enumerate(
            ({"type": "pong", "tile": tile}, {"type": "discard", "tile": "1m"}, PASS)
        ):
            await comm.send_json_to({"type": "act", "version": version, "action": action, "id": number})
            answer = json.loads(await comm.receive_from(timeout=5))
            while answer.get("reply_to") != number:  # a state frame on its way first
                raw["seat2"].append(json.dumps(answer))
                answer = json.loads(await comm.receive_from(timeout=5))
            seen.codes.setdefault(stage, []).append(answer.get("code", answer["type"]))

    version = await _latest_version(seats[0], last[0])
    await seats[0].send_json_to({"type": "act", "version": version, "action": discard})
    while await _latest_version(seats[2], last[2]) <= version:  # until the discard's frame
        frame = await seats[2].receive_from(timeout=5)
        last[2].append(frame)
        raw["seat2"].append(frame)
    await probe("pause")  # at once: within the pause
    await drain()
    if answer_after_pause:
        await asyncio.sleep(PAUSE_MS / 1000 + 0.3)
        await drain()
        if claimants:  # the window is still open: outside, the pause goes on
            await probe("window")
    for index in claimants:
        version = await _latest_version(seats[index], last[index])
        await seats[index].send_json_to({"type": "act", "version": version, "action": PASS})
    await asyncio.sleep(PAUSE_MS / 1000 + 0.3)
    await drain()
    await probe("after")
    await drain()
    for comm in [*seats, *watchers.values()]:
        await comm.disconnect()
    seen.frames = {
        name: [
            _normal_html(f, table.pk, tile) if name == "anonymous" else _normal_json(f, table.pk, tile)
            for f in frames
        ]
        for name, frames in raw.items()
    }
    return seen
