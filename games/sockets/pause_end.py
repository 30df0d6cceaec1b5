"""The table socket's half of the end of a pause (games.sockets.watchers.PAUSE_ENDS): the seat
play moved on to is sent its frame, every other socket nothing (games.sockets.news)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from games.sockets import news as frame_news
from games.table import snapshots, store
from games.table.loaded import Loaded


class PauseEndSocket:
    """Mixed into the table socket (games.sockets.table.TableConsumer), which sets these."""

    table_id: int
    sent_version: int
    sent: tuple[Any, ...] | None
    closed: bool

    _actor: Callable[[], Any]
    _send_loaded: Callable[[Loaded | None, snapshots.Snapshot | None], Awaitable[bool]]

    async def after_pause(self, version: int, end: frame_news.PauseEnd | None = None) -> None:
        """The pause after a discard ends without a change (nothing is written): render this
        version again when it has passed (PAUSE_ENDS), unless a newer one went out meanwhile.
        `end`: the table read once at the end of the pause for all its sockets here."""
        if self.closed or self.sent_version != version:
            return
        snapshot = snapshots.at(self.table_id, version)
        if snapshot is None and snapshots.newest_version(self.table_id) > version:
            return  # a newer version reached this process: its announcement renders it here too
        if end is None or end.snapshot is not snapshot:
            end = frame_news.PauseEnd(store.loaded_from(snapshot) if snapshot is not None else None, snapshot)
        if (
            end.ctx is not None
            and self.sent is not None
            and self.sent[1]
            and not getattr(self, "shown_behind", False)
            and end.nothing_new(self._seat_index(end.ctx))
        ):
            # Only the seat play moved on to is sent the end of the pause (its draw, its moves):
            # anybody else's frame would be one left unsent (games.sockets.news), rendered for nothing.
            return
        await self._send_loaded(end.ctx, snapshot)

    def _seat_index(self, ctx: Loaded) -> int | None:
        seat = ctx.seat_of(self._actor())
        return seat.index if seat is not None else None
