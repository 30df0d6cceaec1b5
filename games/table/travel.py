"""How a table's changes reach the sockets watching it, in this process and in the others.

A change's announcement goes through the channel layer (Redis) to every process watching the
table, and carries its snapshot (games.table.snapshots) so that they render it without reading
the database. Behind a proxy that sends every socket of a table to one process
(deploy/nginx.conf), the process making a player's change is the only one watching: packing the
snapshot and the trip through Redis and back were a tenth of its CPU for nobody (docs/benchmarks.md,
"Cost per action: a table's changes handed to its own sockets"). So a process whose own sockets
watch a table hands the announcement of its changes to them directly, bare (`announce_here`),
unless another process asked for the table's changes lately (`wanted`): one whose sockets have
just joined the table (games.sockets.fanout), or one whose socket got a version it had no
snapshot of — announced by the clock, or noticed by its version watcher — which it renders from
the database, as it always could, and then asks (`ask`). A process watching none of the table's
sockets (the clock worker) always sends the announcement through the layer, with the snapshot.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from common import broadcaster, caches

WANTED = "table.snapshots_wanted"  # the group message asking for a table's changes
WANTED_SECONDS = 60.0  # how long one asking keeps a table's announcements going through the layer
ASK_EVERY = WANTED_SECONDS / 3  # a process still needing them asks again this often

PROCESS = secrets.token_hex(8)  # names this process's asking, which it ignores when it hears it
_WANTED: dict[int, float] = caches.registered({})  # table id -> wanted until (time.monotonic())
_ASKED: dict[int, float] = caches.registered({})  # table id -> when this process last asked
_HEARD: dict[tuple[int, str], float] = caches.registered({})  # (table id, asker) -> when last heard
_LIMIT = 20000


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def announcement(table_id: int, version: int, snapshot: bytes | None = None) -> dict[str, Any]:
    """The group message telling a table's sockets its new version."""
    message: dict[str, Any] = {"type": "table.changed", "table": table_id, "version": version}
    if snapshot is not None:
        message["snapshot"] = snapshot
    return message


def broadcast(table_id: int, version: int, snapshot: bytes | None = None) -> None:
    """Tell the table's sockets in every process the new version, without waiting (common.broadcaster)."""
    broadcaster.send(group_name(table_id), announcement(table_id, version, snapshot))


def _nowhere(_table_id: int, _message: dict[str, Any] | None = None) -> bool:
    return False


_watched_here: Callable[[int], bool] = _nowhere
_hand_here: Callable[[int, dict[str, Any]], bool] = _nowhere


def sockets_here(watches: Callable[[int], bool], hand: Callable[[int, dict[str, Any]], bool]) -> None:
    """How this process's own sockets are told of a table's changes (games.sockets.fanout):
    `watches(table_id)`, whether any watch it; `hand(table_id, message)`, give them the message
    (False: none watch it now)."""
    global _watched_here, _hand_here
    _watched_here, _hand_here = watches, hand


def announce_here(table_id: int, message: dict[str, Any]) -> bool:
    """Hand a table's announcement to this process's sockets only; False when none watch it."""
    return _hand_here(table_id, message)


def travels(table_id: int) -> bool:
    """Whether this process's announcements of `table_id` go through the channel layer, carrying
    the snapshot (else to its own sockets only, bare)."""
    return not _watched_here(table_id) or _WANTED.get(table_id, 0.0) > time.monotonic()


def wanted_message(table_id: int) -> dict[str, Any]:
    """The group message by which this process asks for a table's changes."""
    return {"type": WANTED, "table": table_id, "by": PROCESS}


def heard(table_id: int, message: dict[str, Any]) -> None:
    """A table's group brought another process's asking: this process sends its announcements
    of the table through the channel layer, with their snapshots, for WANTED_SECONDS (its own
    asking, heard back, asks nothing of it). An asker not heard from lately watches the table too
    and may have joined before this process did, when its asking could not reach it: this
    process asks back, once (the asker, hearing it, asks back once too, and then nobody)."""
    by = message.get("by")
    if by == PROCESS:
        return
    now = time.monotonic()
    caches.put(_WANTED, table_id, now + WANTED_SECONDS, _LIMIT)
    key = (table_id, str(by))
    new = now - _HEARD.get(key, -WANTED_SECONDS) >= WANTED_SECONDS
    caches.put(_HEARD, key, now, _LIMIT)
    if new:
        broadcaster.send(group_name(table_id), wanted_message(table_id))


def ask(table_id: int) -> None:
    """This process needed a change of `table_id` made in another: ask the table's group for its
    changes, at most every ASK_EVERY seconds per table (so the want never lapses while it lasts)."""
    now = time.monotonic()
    if now - _ASKED.get(table_id, -ASK_EVERY) < ASK_EVERY:
        return
    caches.put(_ASKED, table_id, now, _LIMIT)
    broadcaster.send(group_name(table_id), wanted_message(table_id))
