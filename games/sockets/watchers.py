"""One of each per process, shared by its table sockets: the version watcher (changes the channel
layer did not bring), the heartbeat (games.sockets.presence) and the timers for the end of a pause."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from django.db.utils import InterfaceError, OperationalError

from common import caches
from common.db_threads import db
from games.sockets import news, presence
from games.sockets.frames import CLOSE_SERVICE_RESTART
from games.table import snapshots, store

log = logging.getLogger(__name__)


class TableConsumer(Protocol):
    """What the watchers need of a table socket (games.sockets.table.TableConsumer). The consumer
    registers with the watchers, so they name the part of it they call rather than import it: the
    imports run one way, consumer to watchers."""

    table_id: int
    sent_version: int

    async def table_changed(self, event: dict[str, Any]) -> None: ...

    async def after_pause(self, version: int, end: news.PauseEnd | None = None) -> None: ...

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


WATCH_INTERVAL = 0.25  # seconds between the watcher's version checks
WATCH_GRACE = 1.0  # seconds a version may take through the channel layer before the watcher steps in
PAUSE_SLACK = 0.005  # seconds: render the end of a pause just after it, never just before


class VersionWatcher:
    """One per process: notices table changes the channel layer did not bring.

    Changes made in another process reach this one through the channel layer only when it is
    shared (Redis). With the in-memory layer (`make run`: daphne plus a separate clock worker)
    the clock's changes would go unseen, and even Redis may drop a message under load; so every
    process also checks, a few times a second and in one query, the versions of the tables its
    own sockets watch, and nudges a socket still behind a version seen WATCH_GRACE ago. The
    grace matters under load: a nudge renders from the database, while the announcement on its
    way carries the snapshot; nudging every socket a round behind made busy processes busier.
    """

    def __init__(self) -> None:
        self.sockets: dict[int, set[TableConsumer]] = {}
        self.task: asyncio.Task[None] | None = None
        # table -> (version, when first seen) for versions some socket has not shown yet
        self.seen: dict[int, list[tuple[int, float]]] = {}

    def add(self, consumer: TableConsumer) -> None:
        self.sockets.setdefault(consumer.table_id, set()).add(consumer)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    def remove(self, consumer: TableConsumer) -> None:
        group = self.sockets.get(consumer.table_id)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[consumer.table_id]
                self.seen.pop(consumer.table_id, None)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def run(self) -> None:
        while self.sockets:
            await asyncio.sleep(WATCH_INTERVAL)
            ids = list(self.sockets)
            try:
                versions = await db(_versions)(ids)
            except Exception:  # the database restarting: try again on the next round
                continue
            now = time.monotonic()
            for table_id, version in versions.items():
                consumers = list(self.sockets.get(table_id, ()))
                due = self.overdue(table_id, version, consumers, now)
                for consumer in consumers:
                    if due is not None and consumer.sent_version < due:
                        with contextlib.suppress(Exception):
                            await consumer.table_changed({"version": version})

    async def heartbeat(self) -> None:
        """This process's heartbeat (games.sockets.presence). If it had been given up for dead, its
        sockets were taken out of the counts: close them, so that they reconnect and count (the
        disconnect of a socket the clock dropped counts nothing: its row is gone)."""
        try:
            alive = await db(presence.heartbeat)()
        except Exception:  # the database restarting: the next beat
            return
        if not alive:
            for consumers in list(self.sockets.values()):
                for consumer in list(consumers):
                    with contextlib.suppress(Exception):
                        await consumer.close(code=CLOSE_SERVICE_RESTART)

    def overdue(self, table_id: int, version: int, consumers: list[TableConsumer], now: float) -> int | None:
        """The newest version of the table first seen at least WATCH_GRACE ago that some socket
        has not shown yet (None: every socket is at most a grace behind)."""
        history = self.seen.setdefault(table_id, [])
        if not history or history[-1][0] < version:
            history.append((version, now))
        shown = min((c.sent_version for c in consumers), default=version)
        history[:] = [(v, t) for v, t in history if v > shown]
        return max((v for v, t in history if t <= now - WATCH_GRACE), default=None)


def _versions(ids: list[int]) -> dict[int, int]:
    return store.revisions(ids)  # a few times a second: no ORM compiling


WATCHER = VersionWatcher()


class Heartbeat:
    """One per process: once the process has held a socket it is registered (games.sockets.presence) and
    beats every HEARTBEAT_SECONDS for as long as it lives, with sockets or without. (It used to
    beat from the version watcher, which stops with the last socket: the clock then gave the idle
    process up, and that excused the disconnects of players anywhere — an escape made
    penalty-free by closing one's socket on a quiet process.)"""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None

    def ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    async def run(self) -> None:
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            await WATCHER.heartbeat()


HEARTBEAT = Heartbeat()


class PauseEnds:
    """One timer per process for the end of each pause: the sockets of a table that showed a
    version during its pause render it again together when the pause has passed (a timer and
    a task per socket per discard were a measurable part of a busy process's loop)."""

    def __init__(self) -> None:
        # (table, version) -> the loop its timer runs on, and the sockets to render
        self.pending: dict[tuple[int, int], tuple[asyncio.AbstractEventLoop, set[TableConsumer]]] = {}
        self.rendering: set[asyncio.Task[None]] = set()

    def add(self, consumer: TableConsumer, version: int, pause_ms: int) -> None:
        key = (consumer.table_id, version)
        loop = asyncio.get_running_loop()
        entry = self.pending.get(key)
        if entry is None or entry[0] is not loop:  # (another loop's timer: a test's, never due here)
            entry = self.pending[key] = (loop, set())
            loop.call_later(pause_ms / 1000 + PAUSE_SLACK, self._due, key, entry)
        entry[1].add(consumer)

    def _due(self, key: tuple[int, int], entry: tuple[asyncio.AbstractEventLoop, set[TableConsumer]]) -> None:
        if self.pending.get(key) is entry:
            del self.pending[key]
        task = entry[0].create_task(self._render(key, entry[1]))
        self.rendering.add(task)  # the loop keeps only a weak reference to a task
        task.add_done_callback(self.rendering.discard)

    async def _render(self, key: tuple[int, int], sockets: set[TableConsumer]) -> None:
        table_id, version = key
        snapshot = snapshots.at(table_id, version)
        end = news.PauseEnd(store.loaded_from(snapshot) if snapshot is not None else None, snapshot)
        for consumer in sockets:
            try:
                await consumer.after_pause(version, end)
            except (OperationalError, InterfaceError) as e:  # the watcher renders it once it is back
                log.warning("database lost rendering the end of a pause (table %s): %s", consumer.table_id, e)
            except Exception:  # one socket's failure is not its neighbours'
                log.exception("rendering the end of a pause failed (table %s)", consumer.table_id)


PAUSE_ENDS = PauseEnds()
caches.on_clear(PAUSE_ENDS.pending.clear)
