"""The table clock inside the web server's own event loop — the embedded default.

With the in-memory channel layer (`make run` without REDIS_URL) a separate
`run_clock` process could change tables but never reach the browsers: that layer
lives in one process. So the server runs the clock itself, as an asyncio task in
daphne's loop, started by the first request or socket. Each tick runs the same
`games.clock.ticks.tick` in a worker thread (database access is synchronous); its
broadcasts come back to this loop through asgiref, as a consumer's would.
With Redis (production) run `manage.py run_clock` instead (CLOCK_IN_PROCESS=0).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async

from games.clock.ticks import INTERVAL, Reaper, tick

log = logging.getLogger(__name__)

_task: asyncio.Task | None = None


def ensure_running() -> asyncio.Task:
    """Start the clock task in the running loop unless it is already ticking."""
    global _task
    if _task is None or _task.done() or _task.get_loop() is not asyncio.get_running_loop():
        _task = asyncio.get_running_loop().create_task(_run(), name="table-clock")
    return _task


async def _run() -> None:
    log.info("table clock running in the server process every %.0f ms", INTERVAL * 1000)
    reap = Reaper()
    while True:
        try:
            await database_sync_to_async(tick)()
            await database_sync_to_async(reap)()
        except Exception:  # the clock must outlive one bad tick
            log.exception("in-process clock tick failed")
        await asyncio.sleep(INTERVAL)


Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]


class ClockStarter:
    """ASGI middleware: make sure the in-process clock runs, then pass the call on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        ensure_running()
        await self.app(scope, receive, send)
