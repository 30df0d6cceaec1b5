"""The load test's clients (scripts/loadtest.py): one socket per seat (`Client`) and the pacing
of a table's four (`TableDriver`), with the reconnects and the latency measurement."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lt_frames  # noqa: E402  (what the driver reads from a frame's text)
import lt_socket  # noqa: E402  (the websocket client)
from api_player import HAND_TYPES, choose  # noqa: E402  (one way to pick from `legal`)
from lt_frames import NO_MOVES, awaits_answer, held_by_the_rules, version_of  # noqa: E402
from lt_stack import HOST  # noqa: E402
from lt_stats import Confirmed, Stats  # noqa: E402

REPLY_TIMEOUT = 10.0
VIEW_TIMEOUT = 5.0
# Reconnect like the browser (htmx's ws extension, "full-jitter"): after the n-th failure wait a
# random time in [0, BASE * 2**n), capped: a killed process's sockets come back spread out.
BACKOFF = (1.0, 4.0)  # base and largest reconnect window, seconds
# Failed connections to a socket's home process before it fails over to the next: with the
# backoff above about 15 s, longer than a killed process takes to come back here (then its
# tables return to it; failing over sooner left one process with every table to the end).
HOME_TRIES = 6


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
        # The newest state frame as it came, its `legal` and all of it parsed on first use (lt_frames)
        self.raw: bytes | None = None
        self._legal: list[dict[str, Any]] | None = None
        self._frame: dict[str, Any] | None = None
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
        """The newest state frame, parsed on first use (only to report a stalled view)."""
        if self._frame is None and self.raw is not None:
            self._frame = orjson.loads(self.raw)
        return self._frame

    @property
    def legal(self) -> list[dict[str, Any]]:
        """The newest state's `legal`, parsed alone from the frame's tail on first use."""
        if self._legal is None:
            self._legal = (
                [] if self.raw is None or self.raw.endswith(NO_MOVES) else lt_frames.legal_of(self.raw)
            )
        return self._legal

    def shows(self, version: int) -> bool:
        """Whether this socket shows `version` or newer, as far as it is sent it: a socket shown
        the pause before `version` is sent `version` only when play moved on to its seat (the
        end of a pause goes to the seat to play alone: docs/protocol.md, "Claim windows")."""
        if self.version >= version:
            return True
        return self.version == version - 1 and self.raw is not None and lt_frames.paused_of(self.raw)

    def offers_nothing(self) -> bool:
        """Whether the newest state offers this seat no move."""
        return not self.legal

    def _state(self, raw: bytes, version: int) -> None:
        self.connected.set()  # (the first state of a connection: served, not refused)
        self.raw, self._legal, self._frame, self.version = raw, None, None, version
        self.seen.append((version, time.monotonic()))
        del self.seen[:-64]
        if self.table.wants(self):
            self.table.changed.set()

    @property
    def port(self) -> int:
        return self.ports[self.port_index]

    async def run(self, stop: asyncio.Event) -> None:
        delay = BACKOFF[0]
        first = True
        while not stop.is_set():
            self.retry_after = 0.0
            url = f"ws://{HOST}:{self.port}{self.table.path}?token={self.token}"
            origin = f"http://{HOST}:{self.port}"
            try:
                async with lt_socket.connect(url, origin, self._message, open_timeout=10) as ws:
                    self.ws, delay, self.failures = ws, BACKOFF[0], 0
                    self.live_port = self.port
                    self.generation += 1
                    if not first:
                        self.stats.reconnects += 1
                    first = False
                    ws.start()
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

    async def _read(self, ws: lt_socket.FrameSocket, stop: asyncio.Event) -> None:
        # Frames are handed to `_message` as they come (no task per socket reads them, no timer
        # per frame): this waits for the end, the run's end closing the socket.
        closer = asyncio.create_task(_close_when(stop, ws))
        try:
            await ws.wait_closed()  # (raises unless the close was a normal one)
        finally:
            closer.cancel()
        if not stop.is_set():
            raise ConnectionError("closed by the server")

    def _message(self, raw: bytes) -> None:
        """A message off the socket, as bytes: a state frame is read by its text (lt_frames),
        anything else (an error, an ack: a few) parsed."""
        self.stats.frames += 1
        self.stats.frame_bytes += len(raw)
        version = version_of(raw)
        if version is not None:
            self._state(raw, version)
            reply = self.reply
            if reply is not None and not reply.done() and lt_frames.reply_to_of(raw) == self.reply_id:
                reply.set_result(([], version))
            return
        frame = orjson.loads(raw)
        kind = frame.get("type")
        if kind == "state":  # (not as the server encodes it: read in full)
            self._state(raw, frame["version"])
            self._frame, self._legal = frame, frame.get("legal") or []
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
        ws.send(orjson.dumps(act).decode())
        # A plain timer, not a timeout context: no task, no cancellation when it is not needed.
        timer = loop.call_later(REPLY_TIMEOUT, _give_up, self.reply)
        try:
            return await self.reply
        finally:
            timer.cancel()

    async def sync(self) -> None:
        if self.ws is not None:
            try:
                self.ws.send('{"type":"sync"}')
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
        # What wakes the driver (`wants`): every socket at this version (a latency measured), a
        # frame that may offer a move, or (neither set) any frame.
        self.awaited: int | None = None
        self.offers_only = False
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
                if pick is None:  # (the pause after a discard, most often)
                    await self._wait_change(1.0, offers_only=True)
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

    def wants(self, client: Client) -> bool:
        """Whether `client`'s new frame is one the waiting driver looks at (waking costs more)."""
        if self.awaited is not None:
            return all(c.shows(self.awaited) for c in self.clients)
        if self.offers_only:
            return client.raw is None or not client.raw.endswith(NO_MOVES)
        return True

    async def _wait_change(
        self, timeout: float, awaited: int | None = None, offers_only: bool = False
    ) -> None:
        """Until a frame the driver `wants`, a socket fails, or `timeout` s (a plain timer: no task)."""
        self.changed.clear()
        self.awaited, self.offers_only = awaited, offers_only
        timer = asyncio.get_running_loop().call_later(timeout, self.changed.set)
        try:
            await self.changed.wait()
        finally:
            timer.cancel()
            self.awaited, self.offers_only = None, False

    async def _settled(self, stop: asyncio.Event) -> bool:
        """Every socket connected and at the same version; laggards are asked to sync."""
        deadline = time.monotonic() + VIEW_TIMEOUT
        while not stop.is_set():
            newest = max(c.version for c in self.clients)
            if all(c.connected.is_set() and c.shows(newest) for c in self.clients):
                return True
            if time.monotonic() > deadline:
                lagging = [c for c in self.clients if c.connected.is_set() and not c.shows(newest)]
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
            action = choose({"legal": client.legal}, self.rng, client.seat)
            if action is not None:
                return client, client.version, action
        return None

    async def _act(self, client: Client, version: int, action: dict[str, Any]) -> None:
        entry = Confirmed(
            self.table_id, lt_frames.hand_number_of(client.raw or b""), client.seat, action, version
        )
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
        sockets = [lt_frames.shown(c, t is not None) for c, t in zip(self.clients, times, strict=True)]
        return {"table": self.table_id, "after": kind, "awaited_version": version, "sockets": sockets}

    async def _measure(
        self, version: int, sent: float, generations: list[int], kind: str, totals: bool = True
    ) -> None:
        deadline = sent + VIEW_TIMEOUT
        while True:
            times = [c.arrived(version) for c in self.clients]
            if any(t is not None for t in times):  # a socket not sent `version` waits for nothing
                pairs = zip(self.clients, times, strict=True)
                times = [sent if t is None and c.shows(version) else t for c, t in pairs]
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
            # Measuring: woken when every socket has the version; a held claim: by any frame.
            await self._wait_change(0.2 if not totals else 1.0, awaited=version if totals else None)


def _give_up(reply: asyncio.Future[Any]) -> None:
    if not reply.done():
        reply.set_exception(TimeoutError())
