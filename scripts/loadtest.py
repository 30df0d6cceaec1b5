#!/usr/bin/env python3
"""Load test of live play over real websockets (docs/benchmarks.md, "Load").

    .venv/bin/python scripts/loadtest.py --tables 100 --seconds 60 --procs 2 [--kill | --kills N] \
        [--rate 0.25] [--ramp 30] [--restart-redis] [--reset-pg] [--echo] [--spread seat]

Starts the production shape (lt_stack.Stack: a fresh PostgreSQL database, a private Redis,
PROCS daphne processes, one clock worker), makes TABLES tables through `POST /api/tables/`
(bots=0) and drives each with 4 client sockets, one per seat, each with its own user and API
token, spread over the daphne ports by table (all four sockets of a table on one process, as a
proxy hashing the table id sends them) or, with `--spread seat`, by seat. Each table acts
about once per second: the client whose `legal` list offers something sends one entry of it,
unchanged, at the version it saw.

Definitions (the accounting):
- *latency*: from sending `act` at version V to the moment all 4 sockets of the table have
  received a state frame with version >= V+1 (the version the act made). A claim the rules hold
  for its undo window (`pending` on the claimer's seat: nobody else may see it for 1.5 s,
  docs/protocol.md) counts until the server's confirmation reached the claimer; the time until
  every socket saw it applied is reported apart, as `<type>_seen` in `by_type`.
- *confirmed*: a client sends `act` with an `id`; the server answers it with one frame naming
  it (`reply_to`): the state it made (or an `ack` when that state went out already) when it
  went through, an `error` when it was refused (docs/protocol.md).
- *lost*: a confirmed hand action (seat, action) missing from the database's HandAction log
  of that table's hand (human rows), counted once no seat holds a claim any more (a confirmed
  claim is held for its undo window, then committed by the clock: `settle`); *duplicated*: a
  human HandAction row with no confirmed act behind it, beyond the acts whose answer was cut
  off by a fault (those are `unconfirmed`). Each lost and duplicated action is printed (table,
  hand, seat, action; for a lost one the versions it was sent at and answered with) and listed
  in the JSON (`lost_actions`, `duplicated_actions`). `lost_after_3s` is what the old count,
  3 s after the end, would have said (docs/benchmarks.md, "What makes faults safe").
- *errors*: error frames other than `stale_version` (a race with the clock that the client
  heals by acting again), missing answers, viewers not updated within 5 s, and socket closes;
  all of these are counted as `fault_effects` instead when they happen within FAULT_WINDOW
  seconds after an injected fault (and, for a kill, only on the killed process's sockets).

The last line of output is one JSON object (see `summary`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api_player import HAND_TYPES, choose  # noqa: E402  (one way to pick from `legal`)
from lt_stack import HOST, ROOT, Stack, cpu_readings, cpu_used, psql, stolen_ticks  # noqa: E402

sys.path.insert(0, str(ROOT))
from games.table.statements import ENV as COUNT_SQL  # noqa: E402  (no Django needed to import)
from games.table.statements import read_counts  # noqa: E402

REPLY_TIMEOUT = 10.0
VIEW_TIMEOUT = 5.0
FAULT_WINDOW = 15.0
WINDOW = 10.0  # seconds per window of the latency time line
# Reconnect like the browser (htmx's ws extension, "full-jitter"): after the n-th failure wait a
# random time in [0, BASE * 2**n), capped: a killed process's sockets come back spread out.
BACKOFF = (1.0, 4.0)  # base and largest reconnect window, seconds
# Failed connections to a socket's home process before it fails over to the next: with the
# backoff above about 15 s, longer than a killed process takes to come back here (then its
# tables return to it; failing over sooner left one process with every table to the end).
HOME_TRIES = 6
MAX_FRAME = 2**22
# A state frame as the server encodes it (orjson, keys in this order): its version is read from
# the text, and the rest parsed only when the driver needs it (`Client.frame`) — most frames are
# never looked into, and parsing every one was the load generator's largest own cost.
STATE_PREFIX = '{"type":"state","version":'
NO_MOVES = ',"legal":[]}'  # the end of a state frame that offers its viewer nothing


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_type: dict[str, list[float]] = field(default_factory=dict)  # latencies per action type
    by_window: dict[int, list[float]] = field(default_factory=dict)  # latencies per 10 s of the run
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    fault_effects: Counter[str] = field(default_factory=Counter)
    stale: int = 0
    reconnects: int = 0
    busy: int = 0  # connections a saturated process refused (`busy`, retry_after: admission control)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of the run, by process kind
    sql: dict[str, int] = field(default_factory=dict)  # statements by process kind, transactions
    stolen: float = 0.0  # share of the machine's CPU time the hypervisor gave to others meanwhile
    faults: list[tuple[float, str, int | None]] = field(default_factory=list)  # (time, kind, port)
    stopping: bool = False  # answers cut off by the end of the run are nobody's error
    stalls: list[dict[str, Any]] = field(default_factory=list)  # the first views not updated, in detail
    started: float = 0.0  # when the driving began (monotonic): the windows count from it
    log_marks: dict[str, int] | None = None

    def record(self, sent: float, latency: float, kind: str) -> None:
        """One action's latency, in the totals, its 10-s window and its type — unless the run was
        stopping meanwhile (sockets closing: the end's, not the server's; they made a last,
        partial window of several hundred ms in every run)."""
        if self.stopping:
            return
        self.latencies.append(latency)
        window = int((sent - self.started) // WINDOW)
        self.by_window.setdefault(window, []).append(latency)
        self.by_type.setdefault(kind, []).append(latency)

    def problem(self, kind: str, port: int | None) -> None:
        """An error, or a fault effect when a fault happened just before (on this port, for kills)."""
        if self.stopping:
            return
        now = time.monotonic()
        for when, fault, fault_port in self.faults:
            if when <= now <= when + FAULT_WINDOW and (fault != "kill" or fault_port in (None, port)):
                self.fault_effects[kind] += 1
                return
        self.errors[kind] += 1


@dataclass
class Confirmed:
    table: int
    hand: int
    seat: int
    action: dict[str, Any]
    sent_at: int = -1  # the version the act was sent at
    answer: int | None = None  # the version its answer carried (None: none came)


async def _close_when(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


class Client:
    """One seat's socket: reads frames, remembers when each version arrived, reconnects."""

    def __init__(
        self, table: TableDriver, seat: int, token: str, ports: list[int], stats: Stats, spread: str
    ) -> None:
        self.table, self.seat, self.token, self.ports, self.stats = table, seat, token, ports, stats
        # The home process, as the entry point would pick it: by table (every socket of a table
        # on one process, like a proxy hashing the table id) or by seat (a table's sockets on
        # different processes, each change crossing the channel layer).
        by = table.table_id if spread == "table" else table.table_id * 4 + seat
        self.home = by % len(ports)
        self.port_index = self.home
        self.failures = 0  # connections refused in a row
        self.ws: Any = None
        self.raw: str | None = None  # the newest state frame's text
        self._frame: dict[str, Any] | None = None  # … parsed (when something needed it)
        self.version = -1
        self.live_port: int | None = None  # the process of the current (or last) socket
        self.seen: list[tuple[int, float]] = []  # (version, arrival) of recent state frames
        self.reply: asyncio.Future[tuple[list[str], int | None]] | None = None
        self.reply_id = 0  # the id of the act awaiting its answer
        self.connected = asyncio.Event()  # set by the first state of a connection (not a refusal)
        self.generation = 0  # bumped on every (re)connection
        self.retry_after = 0.0  # what a busy process asked for on the last connection

    @property
    def frame(self) -> dict[str, Any] | None:
        """The newest state frame, parsed on first use."""
        if self._frame is None and self.raw is not None:
            self._frame = orjson.loads(self.raw)
        return self._frame

    def offers_nothing(self) -> bool:
        """Whether the newest state offers this seat no move (read from its text's end)."""
        return self.raw is None or self.raw.endswith(NO_MOVES)

    def _state(self, raw: str, frame: dict[str, Any] | None, version: int) -> None:
        self.connected.set()  # (the first state of a connection: served, not refused)
        self.raw, self._frame, self.version = raw, frame, version
        self.seen.append((version, time.monotonic()))
        del self.seen[:-64]
        self.table.changed.set()

    @property
    def port(self) -> int:
        return self.ports[self.port_index]

    async def run(self, stop: asyncio.Event) -> None:
        import websockets

        delay = BACKOFF[0]
        first = True
        while not stop.is_set():
            self.retry_after = 0.0
            url = f"ws://{HOST}:{self.port}{self.table.path}?token={self.token}"
            try:
                async with websockets.connect(
                    url,
                    origin=f"http://{HOST}:{self.port}",
                    max_size=MAX_FRAME,
                    open_timeout=10,
                    ping_interval=None,
                ) as ws:
                    self.ws, delay, self.failures = ws, BACKOFF[0], 0
                    self.live_port = self.port
                    self.generation += 1
                    if not first:
                        self.stats.reconnects += 1
                    first = False
                    await self._read(ws, stop)
            except Exception as e:  # refused, reset, closed by the server: reconnect with backoff
                if self.retry_after:  # told to come back later: admission control, not an error
                    self.stats.busy += 1
                elif not stop.is_set():
                    self.stats.problem(f"socket:{type(e).__name__}", self.port)
                if self.ws is None:  # not even connected: the process is down
                    self.failures += 1
            finally:
                self.connected.clear()
                self.ws = None
                self._fail_reply("closed")
            if stop.is_set():
                return
            # Reconnect where the entry point would send it: home while home answers (a killed
            # process is restarted within seconds, and its tables come back to it), else the next
            # process (the proxy's fail-over).
            self.port_index = (self.home + self.failures // HOME_TRIES) % len(self.ports)
            await asyncio.sleep(self.retry_after + random.uniform(0.0, delay))
            delay = min(BACKOFF[1], delay * 2)

    async def _read(self, ws: Any, stop: asyncio.Event) -> None:
        # No timeout per frame (a timer per frame is CPU the servers on this machine would miss):
        # the end of the run closes the socket instead.
        closer = asyncio.create_task(_close_when(stop, ws))
        try:
            await self._frames(ws)
        finally:
            closer.cancel()
        if not stop.is_set():
            raise ConnectionError("closed by the server")

    async def _frames(self, ws: Any) -> None:
        skip = len(STATE_PREFIX)
        async for raw in ws:
            # The load generator shares the machine: a state frame nobody awaits an answer in is
            # not parsed (its version is read from the text); the rest are, with orjson.
            awaiting = self.reply is not None and not self.reply.done()
            if not awaiting and isinstance(raw, str) and raw.startswith(STATE_PREFIX):
                self._state(raw, None, int(raw[skip : raw.index(",", skip)]))
                continue
            frame = orjson.loads(raw)
            kind = frame.get("type")
            if kind == "state":
                self._state(raw if isinstance(raw, str) else raw.decode(), frame, frame["version"])
            elif kind == "error" and frame.get("code") == "busy":
                self.retry_after = float(frame.get("retry_after") or 1)
            answered = frame.get("reply_to")
            reply = self.reply
            if answered is not None and answered == self.reply_id and reply is not None and not reply.done():
                codes = [frame.get("code", "?")] if kind == "error" else []
                reply.set_result((codes, frame.get("version")))

    def _fail_reply(self, why: str) -> None:
        if self.reply is not None and not self.reply.done():
            self.reply.set_exception(ConnectionError(why))
            self.reply.exception()  # retrieved: an act that gave up waiting does not log it
        self.table.changed.set()

    def arrived(self, version: int) -> float | None:
        """When the first state frame with at least `version` arrived (None: not yet); versions
        only grow, so the search runs back from the newest."""
        found = None
        for v, t in reversed(self.seen):
            if v < version:
                break
            found = t
        return found

    async def act(self, version: int, action: dict[str, Any]) -> tuple[list[str], int | None]:
        """Send an act with a fresh id; the error codes of its answer ([] when it went through)
        and the version the answer carried (raises if the socket died)."""
        loop = asyncio.get_running_loop()
        self.reply = loop.create_future()
        self.reply_id += 1
        ws = self.ws
        if ws is None:
            raise ConnectionError("not connected")
        act = {"type": "act", "version": version, "action": action, "id": self.reply_id}
        await ws.send(orjson.dumps(act).decode())
        async with asyncio.timeout(REPLY_TIMEOUT):  # (no task per wait, unlike wait_for)
            return await self.reply

    async def sync(self) -> None:
        if self.ws is not None:
            try:
                await self.ws.send('{"type":"sync"}')
            except Exception:  # the reader notices the closed socket
                return


class TableDriver:
    """Paces one table at `rate` actions per second; measures and logs confirmed actions."""

    def __init__(
        self,
        table_id: int,
        tokens: list[str],
        ports: list[int],
        stats: Stats,
        rate: float,
        echo: bool = False,
        spread: str = "table",
    ) -> None:
        self.table_id, self.stats, self.interval = table_id, stats, 1.0 / rate
        self.path = f"/ws/bench/echo/{table_id}/" if echo else f"/ws/tables/{table_id}/"
        self.changed = asyncio.Event()
        self.clients = [Client(self, seat, token, ports, stats, spread) for seat, token in enumerate(tokens)]
        self.rng = random.Random(table_id)
        self.confirmed: list[Confirmed] = []
        self.unconfirmed: list[Confirmed] = []  # answer cut off by a fault: may or may not be applied

    async def run(self, stop: asyncio.Event, started: float) -> None:
        await asyncio.sleep(max(0.0, started - time.monotonic()))  # this table's turn to arrive
        readers = [asyncio.create_task(c.run(stop)) for c in self.clients]
        next_slot = started + self.rng.uniform(0, self.interval)
        try:
            while not stop.is_set():
                if not await self._settled(stop):
                    continue
                pick = self._pick()
                if pick is None:
                    await self._wait_change(1.0)
                    continue
                await asyncio.sleep(max(0.0, next_slot - time.monotonic()))
                if stop.is_set():
                    break
                client, version, action = pick
                if client.version != version:
                    continue  # the table moved while we waited for the slot: look again
                next_slot = time.monotonic() + self.interval
                await self._act(client, version, action)
        finally:
            await asyncio.gather(*readers, return_exceptions=True)

    async def _wait_change(self, timeout: float) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # (no task per wait, unlike wait_for)
                await self.changed.wait()

    async def _settled(self, stop: asyncio.Event) -> bool:
        """Every socket connected and at the same version; laggards are asked to sync."""
        deadline = time.monotonic() + VIEW_TIMEOUT
        while not stop.is_set():
            versions = {c.version for c in self.clients}
            if all(c.connected.is_set() for c in self.clients) and len(versions) == 1:
                return True
            if time.monotonic() > deadline:
                lagging = [c for c in self.clients if c.connected.is_set() and c.version < max(versions)]
                for c in lagging:
                    self.stats.problem("view_not_updated", c.port)
                    await c.sync()
                deadline = time.monotonic() + VIEW_TIMEOUT
            await self._wait_change(0.5)
        return False

    def _pick(self) -> tuple[Client, int, dict[str, Any]] | None:
        order = list(self.clients)
        self.rng.shuffle(order)
        for client in order:
            if client.offers_nothing():  # (most seats most of the time: nothing to parse)
                continue
            assert client.frame is not None
            action = choose(client.frame, self.rng, client.seat)
            if action is not None:
                return client, client.version, action
        return None

    def _hand_number(self, client: Client) -> int:
        assert client.frame is not None
        return int(client.frame["view"]["table"]["hand_number"] or 0)

    async def _act(self, client: Client, version: int, action: dict[str, Any]) -> None:
        entry = Confirmed(self.table_id, self._hand_number(client), client.seat, action, version)
        generations = [c.generation for c in self.clients]
        port = client.live_port  # its socket's process (a reconnect moves `port` on at once)
        sent = time.monotonic()
        try:
            codes, entry.answer = await client.act(version, action)
        except (ConnectionError, TimeoutError) as e:
            self.unconfirmed.append(entry)
            self.stats.problem(f"no_answer:{type(e).__name__}", port)
            return
        except Exception as e:  # the socket closed while sending
            self.unconfirmed.append(entry)
            self.stats.problem(f"send:{type(e).__name__}", port)
            return
        if "unavailable" in codes:  # the database broke mid-act: applied or not, the answer cannot say
            self.unconfirmed.append(entry)
        if codes:
            for code in codes:
                if code == "stale_version":
                    self.stats.stale += 1
                else:
                    self.stats.problem(f"refused:{code}", client.port)
            return
        answered = time.monotonic()
        self.stats.actions += 1
        if action.get("type") in HAND_TYPES:
            self.confirmed.append(entry)
        kind = str(action.get("type"))
        if held_by_the_rules(client):
            self.stats.record(sent, answered - sent, kind)
            await self._measure(version + 1, sent, generations, kind + "_seen", totals=False)
        elif entry.answer is not None and entry.answer <= version:
            # An answer within a claim window that others in it have still to give (a pass):
            # nobody outside sees it (no new version) until the window is answered or closes,
            # and that waits for this driver's next act. Its confirmation is the latency.
            self.stats.record(sent, answered - sent, kind)
        else:
            await self._measure(version + 1, sent, generations, kind)

    def _stall(self, version: int, kind: str, times: list[float | None]) -> dict[str, Any]:
        def shown(c: Client, t: float | None) -> dict[str, Any]:
            table = ((c.frame or {}).get("view") or {}).get("table") or {}
            return {
                "seat": c.seat,
                "version": c.version,
                "seen": t is not None,
                "connected": c.connected.is_set(),
                "paused": table.get("paused"),
                "phase": ((c.frame or {}).get("view") or {}).get("phase"),
                "legal": sorted({a.get("type") for a in (c.frame or {}).get("legal") or []}),
                "pending": [s.get("pending") for s in table.get("seats") or []],
            }

        sockets = [shown(c, t) for c, t in zip(self.clients, times, strict=True)]
        return {"table": self.table_id, "after": kind, "awaited_version": version, "sockets": sockets}

    async def _measure(
        self, version: int, sent: float, generations: list[int], kind: str, totals: bool = True
    ) -> None:
        deadline = sent + VIEW_TIMEOUT
        while True:
            times = [c.arrived(version) for c in self.clients]
            if all(t is not None for t in times):
                if [c.generation for c in self.clients] == generations:  # no reconnect in between
                    latency = max(t for t in times if t is not None) - sent
                    if totals:
                        self.stats.record(sent, latency, kind)
                    else:
                        self.stats.by_type.setdefault(kind, []).append(latency)
                return
            if not totals and any(awaits_answer(c, version) for c in self.clients):
                # A held claim is applied once the rest of its window has answered, and that answer
                # is this driver's next act: nobody else can see the claim before then.
                return
            if time.monotonic() > deadline:
                for c, t in zip(self.clients, times, strict=True):
                    if t is None:  # blamed on its socket's process (still down after a kill: the kill)
                        self.stats.problem("view_not_updated", c.live_port)
                if len(self.stats.stalls) < 20 and not self.stats.stopping:  # what each socket showed
                    self.stats.stalls.append(self._stall(version, kind, times))
                return
            await self._wait_change(0.2)


# --- set-up and accounting (Django ORM on the stack's database) ------------------------------


def django_setup(stack: Stack) -> None:
    os.environ.update(
        {
            k: v
            for k, v in stack.env().items()
            if k
            in {
                "DEBUG",
                "SECRET_KEY",
                "ALLOWED_HOSTS",
                "DATABASE_URL",
                "REDIS_URL",
                "SECURE_SSL_REDIRECT",
                "SECURE_COOKIES",
                "LOG_LEVEL",
            }
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_players(count: int) -> list[str]:
    """`count` users (no password: API only) with one API token each."""
    from django.contrib.auth.models import User

    from accounts.services import create_api_token

    stamp = int(time.time())
    tokens = []
    for i in range(count):
        user = User.objects.create_user(username=f"lt{stamp}_{i}")
        tokens.append(create_api_token(user))
    return tokens


def create_table(port: int, token: str, variant: str) -> int:
    body = json.dumps({"variant": variant, "base": 1, "bots": 0}).encode()
    request = urllib.request.Request(
        f"http://{HOST}:{port}/api/tables/",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(json.loads(response.read())["id"])


Key = tuple[int, int, int, str]  # (table, hand number, seat, canonical action)


def logged_actions(table_ids: list[int]) -> tuple[Counter[Key], Counter[Key]]:
    """(table, hand number, seat, action) of every row of the HandAction log: the human rows,
    and the others (bot, timeout, auto), which tell a lost action from one the server played
    for the seat instead."""
    from django.db import connection

    from games.models import HandAction

    connection.close()  # RESET_PG terminated our own connection too: take a fresh one
    rows = HandAction.objects.filter(hand__table_id__in=table_ids).values_list(
        "hand__table_id", "hand__number", "seat", "action", "actor"
    )
    human: Counter[Key] = Counter()
    other: Counter[Key] = Counter()
    for t, n, s, a, actor in rows:
        (human if actor == HandAction.Actor.HUMAN else other)[(t, n, s, canonical(a))] += 1
    return human, other


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def key(entry: Confirmed) -> Key:
    return entry.table, entry.hand, entry.seat, canonical(entry.action)


MAX_LISTED = 50  # lost / duplicated actions named one by one in the summary


def describe(
    k: Key, times: int, other: Counter[Key], sent: dict[Key, list[Confirmed]] | None = None
) -> dict[str, Any]:
    """One lost or duplicated action, named so that a failure can be looked up in the log:
    for a lost one, the versions it was sent at and answered with."""
    table, hand, seat, action = k
    entry: dict[str, Any] = {"table": table, "hand": hand, "seat": seat, "action": json.loads(action)}
    if times > 1:
        entry["times"] = times
    if sent is not None:
        entry["versions"] = [[e.sent_at, e.answer] for e in sent.get(k, [])]
    if other[k]:  # logged, but as played by the server (timeout, 托管, bot)
        entry["logged_as_server"] = other[k]
    return entry


SETTLE_TIMEOUT = 120.0  # seconds the accounting waits for the clock to commit held claims


def held_claims(table_ids: list[int]) -> int:
    """Seats of these tables holding a confirmed claim the clock has not committed yet."""
    from django.db import connection

    from games.models import Seat

    connection.close()  # RESET_PG terminated our own connection too: take a fresh one
    return Seat.objects.filter(table_id__in=table_ids, pending__isnull=False).count()


def settle(table_ids: list[int]) -> dict[str, Any]:
    """Wait until no seat holds a claim: a confirmed claim is held for its undo window and
    then committed by the clock, which may be seconds behind (busy dropping a killed process's
    sockets, say). Counting before that counted held claims as lost."""
    began = time.monotonic()
    held = held_claims(table_ids)
    while held and time.monotonic() - began < SETTLE_TIMEOUT:
        time.sleep(0.5)
        held = held_claims(table_ids)
    return {"settle_s": round(time.monotonic() - began, 1), "held_at_end": held}


def account(drivers: list[TableDriver], settled: dict[str, Any] | None = None) -> dict[str, Any]:
    """lost, duplicated and unconfirmed, comparing the clients' logs with the database; the
    lost and duplicated actions are listed too (`lost_actions`, `duplicated_actions`).
    `settled`: what `settle` found (a claim still held then is not yet in the log)."""
    logged, other = logged_actions([d.table_id for d in drivers])
    confirmed = Counter(key(e) for d in drivers for e in d.confirmed)
    by_key: dict[Key, list[Confirmed]] = {}
    for d in drivers:
        for e in d.confirmed:
            by_key.setdefault(key(e), []).append(e)
    maybe = Counter(key(e) for d in drivers for e in d.unconfirmed)
    missing = confirmed - logged
    extra = logged - confirmed
    unconfirmed_applied = sum((extra & maybe).values())
    surplus = extra - maybe
    return {
        "lost": sum(missing.values()),
        "duplicated": sum(surplus.values()),
        "unconfirmed_applied": unconfirmed_applied,
        "logged_human": sum(logged.values()),
        "confirmed_hand": sum(confirmed.values()),
        "lost_actions": [describe(k, n, other, by_key) for k, n in sorted(missing.items())[:MAX_LISTED]],
        "duplicated_actions": [describe(k, n, other) for k, n in sorted(surplus.items())[:MAX_LISTED]],
        **(settled or {}),
    }


def report_ledger(ledger: dict[str, Any]) -> None:
    """Each lost and duplicated action on its own line (stderr), before the JSON lines."""
    for kind in ("lost", "duplicated"):
        for entry in ledger.get(f"{kind}_actions", []):
            print(f"[loadtest] {kind}: {json.dumps(entry)}", file=sys.stderr, flush=True)


# --- the run --------------------------------------------------------------------------------


async def inject_faults(stack: Stack, args: argparse.Namespace, stats: Stats, stop: asyncio.Event) -> int:
    """Kill/restart a daphne, restart Redis, reset PostgreSQL connections, spread over the run."""
    plan: list[str] = ["kill"] * args.kills
    if args.restart_redis:
        plan.append("redis")
    if args.reset_pg:
        plan.append("pg")
    kills = 0
    for n, fault in enumerate(plan):
        at = args.seconds * (n + 1) / (len(plan) + 1)
        try:
            await asyncio.wait_for(stop.wait(), max(0.0, at - (time.monotonic() - stats.started)))
            return kills
        except TimeoutError:
            pass
        if fault == "kill":
            victim = (len(stack.ports) - 1 - kills) % len(stack.ports)  # the processes in turn
            stats.faults.append((time.monotonic(), "kill", stack.ports[victim]))
            await asyncio.to_thread(stack.kill, victim)
            kills += 1
            print(f"[loadtest] killed daphne {victim} (port {stack.ports[victim]})", file=sys.stderr)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(stack.restart, victim)
            print(f"[loadtest] restarted daphne {victim}", file=sys.stderr)
        elif fault == "redis":
            stats.faults.append((time.monotonic(), "redis", None))
            await asyncio.to_thread(stack.restart_redis)
            print("[loadtest] restarted redis", file=sys.stderr)
        else:
            stats.faults.append((time.monotonic(), "pg", None))
            count = await asyncio.to_thread(stack.reset_pg)
            print(f"[loadtest] terminated {count} PostgreSQL connections", file=sys.stderr)
    return kills


def awaits_answer(client: Client, version: int) -> bool:
    """Whether this seat, still before `version`, may answer within a claim window now."""
    if client.version >= version or client.offers_nothing():
        return False
    legal = (client.frame or {}).get("legal") or []
    return any(a.get("type") in HAND_TYPES for a in legal)


def held_by_the_rules(client: Client) -> bool:
    """Whether the claimer's own frame shows its claim held in the undo window (`pending`)."""
    seats = (((client.frame or {}).get("view") or {}).get("table") or {}).get("seats") or []
    return 0 <= client.seat < len(seats) and bool(seats[client.seat].get("pending"))


async def drive(drivers: list[TableDriver], stack: Stack, args: argparse.Namespace, stats: Stats) -> int:
    stop = asyncio.Event()
    started = time.monotonic()
    stats.started = started
    print(f"[loadtest] driving {len(drivers)} tables for {args.seconds:g} s", file=sys.stderr, flush=True)
    # Tables arrive spread over the first `ramp` seconds (players do not all click in the same
    # instant); every table then acts at its rate until the end.
    step = args.ramp / len(drivers) if drivers else 0.0
    tasks = [asyncio.create_task(d.run(stop, started + i * step)) for i, d in enumerate(drivers)]
    faults = asyncio.create_task(inject_faults(stack, args, stats, stop))
    cpu_before, stolen_before = cpu_readings(classify=stack.classify), stolen_ticks()
    sql_before = sql_readings(stack)
    await asyncio.sleep(args.seconds)
    stats.cpu = cpu_used(cpu_before, cpu_readings(classify=stack.classify), stack.exited_cpu)
    stats.sql = sql_used(sql_before, sql_readings(stack), stack)
    stolen_after = stolen_ticks()
    stats.stolen = (stolen_after[0] - stolen_before[0]) / max(1, stolen_after[1] - stolen_before[1])
    stats.log_marks = stack.log_marks()  # sockets closing at the end are not the server's errors
    stats.stopping = True
    stop.set()
    kills = await faults
    await asyncio.wait(tasks, timeout=30)
    return kills


def sql_readings(stack: Stack) -> tuple[dict[int, int], int]:
    """(statements sent so far by each server process, transactions of the stack's database
    so far): the processes count their own (games.table.statements), PostgreSQL the rest."""
    xacts = psql(f"SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '{stack.name}'")
    return read_counts(stack.log_dir), int(xacts or 0)


def sql_used(
    before: tuple[dict[int, int], int], after: tuple[dict[int, int], int], stack: Stack
) -> dict[str, int]:
    """Statements by the daphne processes and by the clock, and transactions, within the window
    (a process started meanwhile, a restarted daphne, counts from 0)."""
    clock = stack.clock_proc.pid if stack.clock_proc is not None else None
    used = {"daphne": 0, "run_clock": 0}
    for pid, count in after[0].items():
        used["run_clock" if pid == clock else "daphne"] += count - before[0].get(pid, 0)
    used["transactions"] = after[1] - before[1]
    return used


def run(args: argparse.Namespace) -> dict[str, Any]:
    name = f"mahjong_lt_{os.getpid()}"
    # Every server process counts its SQL statements into the stack's log directory.
    extra = {COUNT_SQL: str(ROOT / "var" / "loadtest" / name)}
    if args.echo:
        extra["MAHJONG_BENCH_ECHO"] = "1"
    stack = Stack(name, procs=args.procs, clock=not args.echo, extra_env=extra).start()
    try:
        django_setup(stack)
        tokens = make_players(4 * args.tables)
        stats = Stats()
        if args.echo:
            drivers = echo_drivers(args, stack, tokens, stats)
        else:
            table_ids = [
                create_table(stack.ports[t % len(stack.ports)], tokens[4 * t], args.variant)
                for t in range(args.tables)
            ]
            drivers = [
                TableDriver(tid, tokens[4 * t : 4 * t + 4], stack.ports, stats, args.rate, spread=args.spread)
                for t, tid in enumerate(table_ids)
            ]
        began = time.monotonic()
        kills = asyncio.run(drive(drivers, stack, args, stats))
        elapsed = time.monotonic() - began
        if args.echo:
            ledger: dict[str, Any] = {"lost": 0, "duplicated": 0, "unconfirmed_applied": 0}
        else:
            time.sleep(3.0)  # what the accounting used to wait: kept to show what it miscounted
            early = account(drivers)
            ledger = account(drivers, settled=settle([d.table_id for d in drivers]))
            # counted lost by the old fixed wait, and of what type
            # (docs/benchmarks.md, "What makes faults safe")
            ledger["lost_after_3s"] = early["lost"]
            ledger["lost_after_3s_types"] = dict(Counter(a["action"]["type"] for a in early["lost_actions"]))
        server_errors = stack.server_errors(stats.log_marks)
    finally:
        stack.stop(drop=not args.keep)
    return summary(args, stats, ledger, kills, elapsed, server_errors)


def echo_drivers(
    args: argparse.Namespace, stack: Stack, tokens: list[str], stats: Stats
) -> list[TableDriver]:
    """Same clients against games.sockets.bench_echo.EchoConsumer (no database, same layer)."""
    drivers = []
    for t in range(args.tables):
        driver = TableDriver(
            t + 1, tokens[4 * t : 4 * t + 4], stack.ports, stats, args.rate, echo=True, spread=args.spread
        )
        drivers.append(driver)
    return drivers


def summary(
    args: argparse.Namespace,
    stats: Stats,
    ledger: dict[str, Any],
    kills: int,
    elapsed: float,
    server_errors: list[str],
) -> dict[str, Any]:
    lat = [1000 * x for x in stats.latencies]
    errors = sum(stats.errors.values()) + len(server_errors)
    report_ledger(ledger)
    by_window = {  # seconds into the run: p99 ms of the acts sent then (faults show here)
        f"{WINDOW * w:.0f}s": round(1000 * percentile(v, 99), 1) for w, v in sorted(stats.by_window.items())
    }
    detail = {
        "errors_by_kind": dict(stats.errors),
        "view_not_updated_details": stats.stalls,
        "fault_effects": dict(stats.fault_effects),
        "server_errors": server_errors[:20],
        "stale_refusals": stats.stale,
        "reconnects": stats.reconnects,
        "busy_refusals": stats.busy,
        "latency_samples": len(lat),
        "max_ms": round(max(lat), 1) if lat else 0.0,
        "by_type": {  # action type: [samples, p50 ms, p99 ms]
            kind: [len(v), round(1000 * percentile(v, 50), 1), round(1000 * percentile(v, 99), 1)]
            for kind, v in sorted(stats.by_type.items())
        },
        **ledger,
        # where the machine's CPU went (2 cores: 2.0 is all of it), and per confirmed action
        "cpu_cores": {g: round(t / args.seconds, 3) for g, t in stats.cpu.items() if t},
        "cpu_ms_per_action": {g: round(1000 * t / stats.actions, 2) for g, t in stats.cpu.items() if t}
        if stats.actions
        else {},
        "cpu_stolen": round(stats.stolen, 3),
        # SQL statements each kind of server process sent, and the database's transactions
        "sql_per_action": {k: round(v / stats.actions, 2) for k, v in stats.sql.items()}
        if stats.actions
        else {},
        "mode": "echo" if args.echo else "tables",
        "spread": args.spread,
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }
    print(json.dumps(detail), flush=True)
    return {
        "tables": args.tables,
        "procs": args.procs,
        "seconds": args.seconds,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(lat, 50), 1),
        "p95_ms": round(percentile(lat, 95), 1),
        "p99_ms": round(percentile(lat, 99), 1),
        "errors": errors,
        "lost": ledger["lost"],
        "duplicated": ledger["duplicated"],
        "kills": kills,
        "rate": args.rate,
        "ramp": args.ramp,
        "p99_by_window": by_window,
        # the cost of an action, per kind of process (the detail line has the rest)
        "cpu_ms_per_action": {g: detail["cpu_ms_per_action"].get(g, 0.0) for g in COST_GROUPS},
        "sql_per_action": detail["sql_per_action"],
    }


COST_GROUPS = ("daphne", "postgres", "run_clock", "redis-server", "loadtest")


def parse(argv: list[str] | None) -> argparse.Namespace:
    env = os.environ
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=int(env.get("TABLES", 10)))
    parser.add_argument("--seconds", type=float, default=float(env.get("SECONDS", 30)))
    parser.add_argument("--procs", type=int, default=int(env.get("PROCS", 2)))
    parser.add_argument(
        "--rate", type=float, default=float(env.get("RATE", 1.0)), help="actions per second per table"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=float(env.get("RAMP", 5)),
        help="seconds over which the tables arrive (part of the run; 0: all at once)",
    )
    parser.add_argument("--variant", default=env.get("VARIANT", "shanghai"))
    parser.add_argument(
        "--spread",
        choices=("table", "seat"),
        default=env.get("SPREAD", "table"),
        help="clients over the processes: by table (as a proxy hashing the table id) or by seat",
    )
    parser.add_argument("--kill", action="store_true", help="one kill (as --kills 1)")
    parser.add_argument(
        "--kills",
        type=int,
        default=int(env.get("KILL", "0") or 0),
        help="kill -9 and restart a daphne this many times, spread over the run (in turn)",
    )
    parser.add_argument("--restart-redis", action="store_true", default=env.get("RESTART_REDIS", "0") == "1")
    parser.add_argument("--reset-pg", action="store_true", default=env.get("RESET_PG", "0") == "1")
    parser.add_argument(
        "--echo",
        action="store_true",
        default=env.get("ECHO", "0") == "1",
        help="drive games.sockets.bench_echo instead of real tables (the comparison run)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    if args.kill:
        args.kills = max(1, args.kills)
    if not (1 <= args.tables <= 2000 and 1 <= args.procs <= 16 and 1 <= args.seconds <= 3600):
        parser.error("tables 1–2000, procs 1–16, seconds 1–3600")
    if not (0 < args.rate <= 10 and 0 <= args.ramp <= args.seconds and 0 <= args.kills <= 20):
        parser.error("rate 0–10 actions/s per table, ramp 0–seconds, kills 0–20")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    result = run(args)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
