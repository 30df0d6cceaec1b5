"""One render per table version for every anonymous viewer of a process.

An anonymous viewer (not signed in) sees exactly what every other anonymous viewer sees: the
spectator's board, no seat, no moves, no notice, no invite. So the context of a version is built
once and shared, and so is each frame made from it (per dialect and language: JSON, or the HTML
of the page's language), encoded once and handed to every such socket as the same text. A
signed-in spectator's frame is its own (sit-down offers, notices and its name depend on the
user), and a player's holds its hand.

The countdowns in a shared context are those of the moment it was built: it is reused only
within `SHARE_FOR`, about the time a process takes to hand one change to all its sockets, so a
pause shown to a late socket is not the one that was already running out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from common import caches
from games.rendering.presenters import context_for, snapshot_context
from games.table import snapshots, store
from games.table.loaded import Loaded

SHARE_FOR = 0.1  # seconds


@dataclass
class Shared:
    key: tuple[Any, int]  # (the table's creation, its revision): a table id may be used again
    made: float
    context: dict[str, Any]
    texts: dict[tuple[bool, str], str] = field(default_factory=dict)  # (JSON?, language) -> frame


_BY_TABLE: dict[int, Shared] = caches.registered({})
_LIMIT = 2000


def anonymous_context(snapshot: snapshots.Snapshot) -> dict[str, Any] | None:
    """The render context of `snapshot` for an anonymous viewer: built once per version (None:
    it cannot be built from the snapshot)."""
    table = snapshot.table
    key, now = (table.created, snapshot.version), time.monotonic()
    known = _BY_TABLE.get(table.pk)
    if known is not None and known.key == key and now - known.made < SHARE_FOR:
        return known.context
    context = snapshot_context(snapshot, None)
    if context is not None:
        caches.put(_BY_TABLE, table.pk, Shared(key, now, context), _LIMIT)
    return context


def frame_text(context: dict[str, Any], json_mode: bool, language: str, build: Callable[[], str]) -> str:
    """The frame of a shared `context` (`anonymous_context`) in one dialect and language,
    built once; for any other context, `build()` afresh."""
    known = _BY_TABLE.get(context["table"]["id"])
    if known is None or known.context is not context:
        return build()
    key = (json_mode, "" if json_mode else language)  # (JSON frames hold no translated text)
    text = known.texts.get(key)
    if text is None:
        text = known.texts[key] = build()
    return text


# table id -> (the snapshot, when it was read, its Loaded): the table as every socket of this
# process renders it from one announcement. Reading it (`store.loaded_from`: the rows, the state,
# the clock) was done once per socket; the Loaded is only read by the renders, and it holds no
# viewer's part (each frame's head and context are still built per viewer from it).
_LOADED: dict[int, tuple[snapshots.Snapshot, float, Loaded | None]] = caches.registered({})


def loaded(snapshot: snapshots.Snapshot) -> Loaded | None:
    """`store.loaded_from(snapshot)`, shared by the sockets that render the same snapshot within
    `SHARE_FOR` (its `now`, the countdowns' instant, is that of the first of them)."""
    table_id, now = snapshot.table.pk, time.monotonic()
    known = _LOADED.get(table_id)
    if known is not None and known[0] is snapshot and now - known[1] < SHARE_FOR:
        return known[2]
    ctx = store.loaded_from(snapshot)
    caches.put(_LOADED, table_id, (snapshot, now, ctx), _LIMIT)
    return ctx


def own_context(snapshot: snapshots.Snapshot, user: AbstractBaseUser) -> dict[str, Any] | None:
    """`user`'s render context of `snapshot` from the shared `loaded` (None: it cannot be built
    from the snapshot). The context itself is the viewer's own."""
    ctx = loaded(snapshot)
    return context_for(ctx, user) if ctx is not None else None
