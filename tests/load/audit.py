"""Hidden-information audit: every frame to every viewer during full hands, checked against the truth.

Used by tests/load/test_hidden_audit.py (every variant, AUDIT_HANDS hands each) and by
scripts/audit_hidden.py. Seats are played by the server (托管), so whole hands run on a fake
clock; each seat watches through a JSON socket and an HTMX socket, plus a spectator (JSON) and an
anonymous visitor (HTMX). Sockets are closed and reopened (the reconnect path) and asked to
`sync` (the resync path) along the way. Each frame is checked:

- JSON, structurally: another seat never carries `hand`, `drawn`, `forbidden` or `pending`, nor
  the tiles of its concealed kongs, while the hand is live; no key anywhere names the wall or the
  seed; `legal` holds only the viewer's own moves.
- JSON, by position: every tile name in the frame sits in a public field (rivers, melds,
  flowers, the last discard, jokers/indicator, results) or in the viewer's own hand/legal list —
  and the viewer's own hand is exactly its true hand.
- JSON, by content: no other seat's true concealed hand appears in the frame in any order.
- HTML: in every other seat's `concealed` block (not opened) every tile is a back with no
  `data-tile`; no `data-tile` of the viewer's "me" block belongs to another seat.
- Both, for the fair deal (docs/fairness.md): no frame holds a hand's salt, its wall in dealing
  order, or the next tiles of its live wall in order — except the reveal in the settlement of a
  hand that is over (last_result.fairness, the settlement's fairness block), which is checked to
  belong to a finished hand and then set aside.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games.engine.rulesets import get_ruleset
from games.engine.state import PlayerState
from games.engine.tiles import name, tiles_of
from games.engine.wall import deal_wall, wall_text
from games.models import Hand, Table
from games.sockets.routing import websocket_urlpatterns
from games.table import commands, opening, store, timers

APP = URLRouter(websocket_urlpatterns)
TILE = re.compile(r"^[1-9][mpsz]$|^[1-8]f$")
FORBIDDEN_KEYS = {"wall", "live_wall", "dead_wall", "seed", "rng", "deck", "salt"}
LIVE_WINDOW = 8  # this many next tiles of the live wall, in order, must never appear in a frame
PRIVATE_SEAT_KEYS = {"hand", "drawn", "forbidden"}
# Paths (keys along the way, list positions dropped) where a tile name is public knowledge.
PUBLIC_PATHS = (
    ("view", "hand", "seats", "discards"),
    ("view", "hand", "seats", "flowers"),
    ("view", "hand", "seats", "melds", "tiles"),
    ("view", "hand", "seats", "melds", "claimed"),
    ("view", "hand", "seats", "claimed_discards"),
    ("view", "hand", "last_discard", "tile"),
    ("view", "hand", "jokers"),
    ("view", "hand", "indicator"),
    ("view", "hand", "round_wind"),
    ("view", "hand", "seats", "wind"),
    ("view", "table", "round_wind"),
    ("view", "table", "seats", "wind"),
    ("view", "hand", "choices"),
)
OWN_PATHS = (
    ("view", "hand", "seats", "hand"),
    ("view", "hand", "seats", "drawn"),
    ("view", "hand", "seats", "forbidden"),
    ("legal",),
    ("view", "table", "seats", "pending"),
    # the waits help: tiles that would complete the viewer's own hand (games/engine/waits.py
    # computes them from a blinded state; tests/engine/test_waits.py checks that)
    ("view", "hand", "waits"),
    ("view", "hand", "discard_waits"),
)


@dataclass
class Viewer:
    label: str
    user: Any
    seat: int | None
    json_mode: bool
    comm: WebsocketCommunicator | None = None
    frames: int = 0


@dataclass
class Report:
    frames: int = 0
    json_frames: int = 0
    html_frames: int = 0
    reconnects: int = 0
    syncs: int = 0
    hands: int = 0
    violations: list[str] = field(default_factory=list)
    by_viewer: Counter[str] = field(default_factory=Counter)
    secrets: set[str] = field(default_factory=set)  # every hand's salt and walls seen so far
    over: set[int] = field(default_factory=set)  # ids of the hands that are over (may be revealed)


def _paths(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every (key path, leaf) of a JSON value; list positions are dropped from the path."""
    if isinstance(node, dict):
        out = []
        for k, v in node.items():
            out += _paths(v, (*path, str(k)))
        return out
    if isinstance(node, list):
        out = []
        for v in node:
            out += _paths(v, path)
        return out
    return [(path, node)]


def check_json(frame: dict[str, Any], viewer: Viewer, truth: list[list[str]] | None) -> list[str]:
    """Violations in one JSON frame (empty when clean); truth: every seat's concealed tiles."""
    problems: list[str] = []
    for path, _leaf in _paths(frame):
        if FORBIDDEN_KEYS & set(path):
            problems.append(f"forbidden key in {'.'.join(path)}")
    if frame.get("type") != "state":
        return problems
    view = frame["view"]
    hand = view.get("hand")
    live = hand is not None and hand.get("phase") != "over"
    if not live:
        return problems
    for entry in hand["seats"]:
        if entry["seat"] == viewer.seat:
            continue
        leaked = PRIVATE_SEAT_KEYS & set(entry)
        if leaked:
            problems.append(f"seat {entry['seat']} shows {sorted(leaked)}")
        for meld in entry.get("melds", []):
            if meld.get("kind") == "concealed_kong" and meld.get("tiles") is not None:
                problems.append(f"seat {entry['seat']} concealed kong tiles shown")
    for seat in view["table"]["seats"]:
        if seat["index"] != viewer.seat and seat.get("pending") is not None:
            problems.append(f"seat {seat['index']} pending claim shown")
    if viewer.seat is None and frame.get("legal"):
        problems.append("a viewer without a seat got legal moves")
    problems += _positions(frame, viewer)
    if truth is not None:
        problems += _content(frame, viewer, truth)
    return problems


def _positions(frame: dict[str, Any], viewer: Viewer) -> list[str]:
    problems = []
    for path, leaf in _paths(frame):
        if not (isinstance(leaf, str) and TILE.match(leaf)):
            continue
        if path[:2] == ("view", "last_result") or path[:3] == ("view", "table", "last_result"):
            continue  # a finished hand's result: every hand is opened
        if any(path[: len(p)] == p for p in PUBLIC_PATHS):
            continue
        if viewer.seat is not None and any(path[: len(p)] == p for p in OWN_PATHS):
            continue  # own fields; that they are the viewer's own is checked structurally above
        problems.append(f"tile {leaf} at {'.'.join(path)}")
    return problems


def _content(frame: dict[str, Any], viewer: Viewer, truth: list[list[str]]) -> list[str]:
    problems = []
    text = json.dumps(frame)
    seats = frame["view"]["hand"]["seats"]
    for index, tiles in enumerate(truth):
        if index == viewer.seat or len(tiles) < 3:
            continue
        if json.dumps(tiles) in text or json.dumps(sorted(tiles)) in text:
            problems.append(f"seat {index}'s concealed hand appears in the frame")
    if viewer.seat is not None and not frame["view"]["table"]["paused"]:
        mine = seats[viewer.seat].get("hand")
        if mine is not None and Counter(mine) != Counter(truth[viewer.seat]):
            problems.append(f"own hand {mine} is not the true hand {truth[viewer.seat]}")
    return problems


SECTION = re.compile(r'<section class="seat[^"]*"[^>]*data-seat="(\d+)"[^>]*>(.*?)</section>', re.S)
CONCEALED = re.compile(r'<div class="concealed([^"]*)">(.*?)</div>', re.S)


def check_html(html: str, viewer: Viewer) -> list[str]:
    problems = []
    for seat, body in SECTION.findall(html):
        if viewer.seat is not None and int(seat) == viewer.seat:
            continue
        for classes, tiles in CONCEALED.findall(body):
            if "opened" in classes:
                continue
            if "data-tile=" in tiles:
                problems.append(f"html: seat {seat}'s concealed tiles named")
    for forbidden in ("seed", "wall"):
        if re.search(rf'data-{forbidden}|"{forbidden}"\s*:', html):
            problems.append(f"html: {forbidden} attribute")
    return problems


# --- driving whole hands ---------------------------------------------------------------------


def _concealed(player: PlayerState) -> list[str]:
    """A seat's concealed tiles as the engine holds them (read from the state, not a view: a
    blind pre-hand choice shows nobody their own hand, yet the tiles are there to leak)."""
    tiles = [name(t) for t in tiles_of(player.concealed)]
    if player.drawn is not None:  # the drawn tile last, as a seat's own view lists it
        tiles.remove(name(player.drawn))
        tiles.append(name(player.drawn))
    return tiles


def _truth(table_id: int) -> tuple[int, list[list[str]] | None, bool]:
    """The table version, every seat's true concealed tiles (None between hands), hand over?"""
    table = Table.objects.get(pk=table_id)
    ctx = store.load(table)
    over = ctx.hand is not None and ctx.hand.status == Hand.Status.OVER
    if ctx.state is None:
        return table.version, None, over
    hands = [_concealed(ctx.state.players[seat]) for seat in range(ctx.state.num_players)]
    return table.version, hands, over


def _step(table_id: int) -> tuple[int, list[list[str]] | None, bool]:
    """One step of the clock, and the truth at the version it made."""

    def step() -> None:
        table = Table.objects.get(pk=table_id)
        if table.deadline is not None:
            timers.timeout(table_id, table.deadline_version, table.deadline)

    return _changed(table_id, step)


def _changed(table_id: int, change: Any) -> tuple[int, list[list[str]] | None, bool]:
    """Run a change and read the truth in the same transaction: a socket's connect or disconnect
    (which changes no hand) cannot slip a version in between, so the version read is the
    change's own and the truth is exactly the hands at it."""
    with transaction.atomic():
        change()
        return _truth(table_id)


def _continue_all(table_id: int, players: list[User]) -> tuple[int, list[list[str]] | None, bool]:
    def change() -> None:
        for user in players:
            commands.continue_play(table_id, user)

    return _changed(table_id, change)


def _setup(owner: User, others: list[User], variant: str) -> int:
    table = opening.create_table(owner, variant)
    commands.sit(table.pk, owner, 0)
    commands.set_stake(table.pk, owner, 2)
    for index, user in enumerate(others, start=1):
        commands.sit(table.pk, user, index)
        commands.accept_stake(table.pk, user)
    for user in [owner, *others]:
        commands.set_auto(table.pk, user, True)
    commands.start_hand(table.pk, owner)
    return table.pk


async def _open(table_id: int, viewer: Viewer) -> None:
    query = "?format=json" if viewer.json_mode else ""
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table_id}/{query}")
    comm.scope["user"] = viewer.user or AnonymousUser()
    connected, _ = await comm.connect()
    assert connected, viewer.label
    viewer.comm = comm


Truths = dict[int, "list[list[str]] | None"]


def _truth_at(truths: Truths, version: int) -> list[list[str]] | None:
    """The concealed hands at `version`: the latest recorded at or before it (only the clock's
    steps and the continues change hands, and each records the truth at its own version)."""
    known = [v for v in truths if v <= version]
    return truths[max(known)] if known else None


def hand_secrets(table_id: int) -> tuple[int | None, set[str], bool]:
    """What the commitment hides of the table's current hand: the salt, the dealt wall, and the
    next tiles of the live wall in order (a frame holding any of them leaks the deal); with the
    hand's id and whether it is over (then its settlement may reveal them)."""
    table = Table.objects.get(pk=table_id)
    ctx = store.load(table)
    if ctx.hand is None:
        return None, set(), False
    if ctx.hand.status == Hand.Status.OVER or ctx.state is None:
        return ctx.hand.pk, set(), ctx.hand.status == Hand.Status.OVER
    salt = ctx.hand.setup.get("salt")
    _, _, dealt = deal_wall(get_ruleset(table.variant).wall_tiles(), ctx.hand.seed, salt)
    live = ctx.state.wall[ctx.state.head : ctx.state.tail]
    found = {wall_text(dealt), str(ctx.hand.seed)}
    if salt:
        found.add(salt)
    if len(live) >= LIVE_WINDOW:
        found.add(" ".join(name(t) for t in live[:LIVE_WINDOW]))
        found.add(json.dumps([name(t) for t in live[:LIVE_WINDOW]]))
    return ctx.hand.pk, found, ctx.hand.status == Hand.Status.OVER


REVEAL_HTML = re.compile(r'<details class="fairness reveal" data-hand="(\d+)">.*?</details>', re.S)


def set_aside_reveals(frame: Any, over: set[int]) -> tuple[Any, list[str]]:
    """The frame without the reveals of finished hands; a reveal of any other hand is a leak."""
    problems: list[str] = []
    if isinstance(frame, str):

        def cut(match: re.Match[str]) -> str:
            if int(match.group(1)) not in over:
                problems.append(f"html: hand {match.group(1)} revealed before it is over")
            return ""

        return REVEAL_HTML.sub(cut, frame), problems
    view = frame.get("view") if isinstance(frame, dict) else None
    for holder in (view or {}, (view or {}).get("table") or {}):
        last = holder.get("last_result") if isinstance(holder, dict) else None
        if isinstance(last, dict) and "fairness" in last:
            if last.get("hand_id") not in over:
                problems.append(f"hand {last.get('hand_id')} revealed before it is over")
            last.pop("fairness")
    return frame, problems


def check_secrets(raw: str, secrets: set[str]) -> list[str]:
    return [f"a secret of the deal ({secret[:16]}…) is in the frame" for secret in secrets if secret in raw]


async def _drain(viewer: Viewer, truths: Truths, report: Report, wait: float = 0.005) -> None:
    """Check every frame this socket has (late ones are checked on the next drain, by version)."""
    assert viewer.comm is not None
    while not await viewer.comm.receive_nothing(timeout=wait):
        raw = await viewer.comm.receive_from(timeout=5)
        report.frames += 1
        report.by_viewer[viewer.label] += 1
        if viewer.json_mode:
            report.json_frames += 1
            frame, problems = set_aside_reveals(json.loads(raw), report.over)
            problems += check_json(frame, viewer, _truth_at(truths, frame.get("version", -1)))
            problems += check_secrets(json.dumps(frame), report.secrets)
        else:
            report.html_frames += 1
            html, problems = set_aside_reveals(raw, report.over)
            problems += check_html(html, viewer) + check_secrets(html, report.secrets)
        report.violations += [f"{viewer.label}: {p}" for p in problems]


async def audit_table(
    players: list[User], spectator: User, variant: str, hands: int, seed: int = 0, max_steps: int = 3000
) -> Report:
    """Play `hands` hands at a fresh table with every viewer watching; the audit report."""
    rng = random.Random(seed)
    owner, others = players[0], players[1:]
    table_id = await sync_to_async(_setup)(owner, others, variant)
    viewers = [Viewer(f"seat{i}-json", u, i, True) for i, u in enumerate(players)]
    viewers += [Viewer(f"seat{i}-html", u, i, False) for i, u in enumerate(players)]
    viewers += [Viewer("spectator-json", spectator, None, True), Viewer("anonymous-html", None, None, False)]
    report = Report()
    for viewer in viewers:
        await _open(table_id, viewer)
    played = 0
    truths: Truths = {}
    version, truth, over = await sync_to_async(_changed)(table_id, lambda: None)
    for step in range(max_steps):
        truths[version] = truth
        hand_id, secrets, hand_over = await sync_to_async(hand_secrets)(table_id)
        report.secrets |= secrets
        if hand_over and hand_id is not None:
            report.over.add(hand_id)
        for viewer in viewers:
            await _drain(viewer, truths, report)
        if over:
            played += 1
            if played >= hands:
                break
            version, truth, over = await sync_to_async(_continue_all)(table_id, players)  # the next hand
            continue
        if step % 17 == 5:  # the reconnect path: a fresh socket gets the full state
            victim = rng.choice(viewers)
            assert victim.comm is not None
            await victim.comm.disconnect()
            await _open(table_id, victim)
            report.reconnects += 1
        elif step % 11 == 3:  # the resync path
            victim = rng.choice([v for v in viewers if v.json_mode])
            assert victim.comm is not None
            await victim.comm.send_to(text_data='{"type":"sync"}')
            report.syncs += 1
        version, truth, over = await sync_to_async(_step)(table_id)
    report.hands = played
    for viewer in viewers:
        await _drain(viewer, truths, report, wait=0.2)
        assert viewer.comm is not None
        await viewer.comm.disconnect()
    return report
