"""Group messages from synchronous code (the services), sent without waiting for them.

A change announces its new version after commit. `async_to_sync(group_send)` would hold the
database thread that made the change until the main loop had published the message (under load,
tens of milliseconds per change, with the thread unavailable to every other socket). So the
message is handed to an event loop and the thread moves on: in a server process, the loop the
sockets run on (`use_loop`, called by the first socket); in a process without one (the clock
worker), a loop of its own on a daemon thread (`start_own_loop`). Elsewhere (tests calling the
services directly, scripts) it is sent synchronously as before. A message that fails is logged:
the log is the truth, and the next change, the version watcher or a `sync` heals a lost one.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

_LOOP: asyncio.AbstractEventLoop | None = None


def use_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _LOOP
    _LOOP = loop


def start_own_loop() -> asyncio.AbstractEventLoop:
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="broadcaster", daemon=True).start()
    use_loop(loop)
    return loop


def send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group`; returns before it is sent when a loop is available."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _LOOP
    if loop is not None and loop.is_running():
        start_on(loop, _start, layer, group, message)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("message to %s failed", group)


def start_on(loop: asyncio.AbstractEventLoop, start: Callable[..., None], *args: Any) -> None:
    """Call `start(*args)`, which starts a task, on `loop`: at once from the loop itself (a change
    made there: games.table.on_loop), else from any thread as soon as the loop can."""
    if _inside(loop):
        start(*args)
    else:
        loop.call_soon_threadsafe(start, *args)


def _inside(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


# The send is started on the loop from there: `run_coroutine_threadsafe` made a concurrent future
# beside the task and chained the two by callbacks, for a result nobody waits for (a tenth of a
# hand action's announcement: docs/benchmarks.md, "Cost per action: the hand action's path", part 2).
_RUNNING: set[asyncio.Task[Any]] = set()  # (a running task is only weakly held by its loop)


def hold(task: asyncio.Task[Any]) -> asyncio.Task[Any]:
    """Keep a task nobody awaits alive until it is done."""
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return task


def _start(layer: Any, group: str, message: dict[str, Any]) -> None:
    task = hold(asyncio.ensure_future(layer.group_send(group, message)))
    task.add_done_callback(functools.partial(_report, group))


def _report(group: str, task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.warning("message to %s failed: %r", group, error)
