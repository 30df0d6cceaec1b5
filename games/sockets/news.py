"""Which frames tell a socket's viewer something new: the rest are not sent, nor rendered — what
decides it (a frame's head: its version, pause, moves and claim) is read first
(docs/protocol.md, "Claim windows")."""

from __future__ import annotations

from typing import Any

import orjson

from games.engine.actions import seats_to_act
from games.table import snapshots
from games.table.loaded import Loaded
from games.table.timing import in_window, moved_on, veiled


class PauseEnd:
    """The end of one pause, read once for every socket of the table in a process: the table as
    it is then (`ctx`, read from `snapshot`; None: there is none), and per seat whether it has
    news (a check per socket, its own read of the snapshot, was most of what the end of a pause
    cost the sockets it sends nothing)."""

    def __init__(self, ctx: Loaded | None, snapshot: snapshots.Snapshot | None = None) -> None:
        self.ctx, self.snapshot = ctx, snapshot
        self.answers: dict[int | None, bool] = {}

    def nothing_new(self, index: int | None) -> bool:
        """Whether the frame of the viewer in seat `index` (None: a spectator) is left without
        news: it stays veiled (outside a window still open), or it is in the window (its options
        were in its frame, the pause counted down there), or play moved on and it is not the
        seat to play."""
        known = self.answers.get(index)
        if known is None:
            known = self.answers[index] = self._nothing_new(index)
        return known

    def _nothing_new(self, index: int | None) -> bool:
        ctx = self.ctx
        if ctx is None or ctx.state is None:
            return False
        if veiled(ctx, index) or in_window(ctx, index):
            return True
        return moved_on(ctx) and index not in seats_to_act(ctx.state)


def seen(context: dict[str, Any]) -> tuple[Any, ...]:
    """What a frame shows its viewer, but for the running countdowns: every change everybody sees
    bumps the version; the rest is this viewer's own (its moves, its claim held) and whether it
    is shown the pause."""
    table = context["table"]
    own = next((seat["pending"] for seat in table["seats"] if seat["is_you"]), None)
    return seen_of(table["version"], table["paused"], context["legal"], own)


def seen_of(version: int, paused: bool, legal: list[dict[str, Any]], own: Any) -> tuple[Any, ...]:
    """`seen` from its parts (a frame's head, games.rendering.presenters.frame_head): whether a
    frame is news is decided before it is rendered."""
    return (version, paused, orjson.dumps(legal), orjson.dumps(own))


def news(sent: tuple[Any, ...] | None, seen: tuple[Any, ...], moved_on: bool) -> bool:
    """Whether a frame tells its viewer anything the last one sent (`seen`) did not, counting
    what that frame's countdowns told it (docs/protocol.md, "Claim windows"):
    - the same version, the same moves and claim: several group messages for one change, a
      change within a claim window this viewer is not in, or the pause run out (the client
      counted it down);
    - the version after a paused one, play moved on and nothing else changed (`moved_on`), the
      viewer's moves unchanged: the end of the pause for anybody but the seat to play. It is
      not sent, window or none, so whether one opened shows to nobody outside it; the paused
      board stays until the next change everybody sees."""
    if sent is None or seen[2:] != sent[2:]:
        return True  # the first frame, or this viewer's own moves or claim changed
    if seen[0] == sent[0]:
        return False
    return not (moved_on and sent[1] and seen[0] == sent[0] + 1)
