"""A frame's head: what decides whether a viewer's frame is sent (games.sockets.news), read
before the frame is rendered; `presenters.context_for` builds the rest of the frame from it."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser

from games.table.commands import legal_for
from games.table.loaded import Loaded
from games.table.timing import moved_on, pause_left_ms, shown_version, veiled


class FrameHead(NamedTuple):
    """What decides whether a viewer's frame is sent (games.sockets.news), read before the frame
    is rendered; `context_for` builds the frame from it. (A tuple: made for every viewer of every
    version, and a frozen dataclass costs twice as much to build.)"""

    seat: int | None  # the viewer's seat (None: a spectator)
    revision: int  # the server's own ordering of renders; never sent
    version: int  # the version the frame shows (`shown_version`)
    paused: bool
    pause_ms: int  # 0: no pause to count down
    legal: list[dict[str, Any]]
    pending: Any  # the viewer's own claim held for its undo window, if any
    moved_on: bool


def frame_head(ctx: Loaded, user: AbstractBaseUser | None) -> FrameHead:
    """The head of `user`'s frame of `ctx`: pass it on to `context_for`, which builds the rest
    of the frame from it (nothing of the head is made twice for a frame that is sent)."""
    seat = ctx.seat_of(user)
    index = seat.index if seat is not None else None
    pause_ms = pause_left_ms(ctx.table, ctx.now)
    return FrameHead(
        seat=index,
        revision=ctx.table.revision,
        version=shown_version(ctx),
        paused=bool(pause_ms) or veiled(ctx, index),
        pause_ms=pause_ms,
        legal=legal_for(ctx, user),
        pending=seat.pending if seat is not None else None,
        moved_on=moved_on(ctx),
    )
