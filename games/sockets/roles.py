"""The table socket's count following its user's role (games.table.presence): counted for the
seat once they sit down over it, for the spectators once they stand up, while it stays open."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from common.db_threads import db
from games.table import presence as table_presence
from games.table.errors import ServiceError


class SeatRoleSocket:
    """Mixed into the table socket (games.sockets.table.TableConsumer), which sets these."""

    table_id: int
    counted: bool
    counted_seated: bool | None  # counted for a seat or as a spectator (None: not yet, first frame)
    moving_role: bool  # a sit over this socket, or its move, under way
    socket_id: int | None

    _actor: Callable[[], Any]

    async def _follow_role(self, seated: bool) -> None:
        """Count this socket for its user's seat once they sit down (or as a spectator once they
        stand up). One move at a time: a frame of the new role rendered while this socket's own
        sit counts it (its table's announcement can overtake the answer), or while a move is
        under way, moves nothing again (the next frame follows the role then)."""
        if not self.counted or self._actor() is None or self.moving_role:
            return
        if self.counted_seated is None:
            self.counted_seated = seated
        elif seated != self.counted_seated:
            self.moving_role = True
            try:
                with contextlib.suppress(ServiceError):  # the table is gone: nothing to count
                    self.counted_seated = await db(table_presence.move_presence)(
                        self.table_id, self._actor(), self.counted_seated, self.socket_id
                    )
            finally:
                self.moving_role = False
