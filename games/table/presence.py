"""Sockets at a table: a seat's connected sign (shown, and decided on: 托管, the grace period)
and the spectator count. The counts themselves are the store's (atomic, outside the version)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser

from games.models import Seat
from games.sockets.models import OpenSocket
from games.table import rows
from games.table.access import may_watch
from games.table.changes import change
from games.table.errors import ServiceError
from games.table.store import Change


class Connection(NamedTuple):
    version: int  # the table's revision after the connect (what its snapshot is kept under)
    socket_id: int | None  # its OpenSocket row (None: connected without a process)


def count_sockets(t: Change, seat: Seat, delta: int, at: datetime | None = None, cut: bool = False) -> None:
    """Add `delta` to a seat's open sockets. Only a change of its sign (connected or not) is a
    change of the table (`store.Change.count_sockets`). `at`: when the seat was disconnected, if
    this disconnects it (else now); `cut`: the socket was cut off by a dead server process (its
    seat is then not to blame for staying away)."""
    flipped = t.count_sockets(seat, delta)
    connected = seat.connected
    if flipped or (connected and seat.disconnected_at is not None):
        seat.disconnected_at = None if connected else (at or t.now)  # back within the grace: no escape
        seat.server_cut = cut and not connected


def move_socket(t: Change, socket_id: int | None, seat: Seat | None) -> bool:
    """A socket counted for its user's old role counts for `seat` now (None: as a spectator's;
    the seat it left was freed, and its count with it). False if the clock dropped it: it
    counts nowhere, and moves nothing."""
    if socket_id is not None and not rows.mark_socket(socket_id, seat is not None):
        return False
    if seat is None:
        t.count_spectators(+1)
    else:
        t.count_spectators(-1)
        count_sockets(t, seat, +1)
    return True


def connect(
    table_id: int,
    user: AbstractBaseUser | None,
    process_id: int | None = None,
    session: Any = None,
    invite: str = "",
) -> Connection:
    """A socket opened: a seated player is back (托管 ends); anyone else is a spectator.
    `process_id`: the ServerProcess holding the socket (games.sockets.presence), which then gets a row.
    Who may watch is decided here, on the rows the change loads anyway (one read for the whole
    handshake); `no_table` for a table that is missing or not open to this socket."""
    with change(table_id) as t:  # a missing table: no_table
        if not may_watch(t.table, user, session, invite, t.seats):
            raise ServiceError("no_table", "there is no such table (or it is private)")
        seat = t.seat_of(user)
        if seat is None:
            t.count_spectators(+1)
        else:
            count_sockets(t, seat, +1)
        seated = seat is not None
        socket_id = None
        if process_id is not None:
            socket_id = rows.open_socket(t.table.pk, t.now, process_id, user, seated)
    return Connection(t.table.revision, socket_id)


def disconnect(
    table_id: int,
    user: AbstractBaseUser | None,
    counted_seated: bool | None = None,
    socket_id: int | None = None,
) -> None:
    """A socket closed; `counted_seated`: whether it was counted for a seat (None: as its user's
    role is now); `socket_id`: its OpenSocket row (nothing to count if the clock dropped it)."""
    with change(table_id) as t:
        if socket_id is not None and not rows.close_socket(socket_id):
            return
        _uncount(t, user, counted_seated)


def drop_socket(socket: OpenSocket, at: datetime) -> bool:
    """The clock: a socket whose process was found dead (games.sockets.presence) is closed as of `at`
    (the process's last sign of life: a disconnect a restart caused is nobody's fault)."""
    try:
        with change(socket.table_id) as t:
            if not rows.close_socket(socket.pk):
                return False
            _uncount(t, socket.user, socket.seated, at, cut=True)
    except ServiceError:  # the table is gone (and the row with it)
        return False
    return True


def _uncount(
    t: Change,
    user: AbstractBaseUser | None,
    counted_seated: bool | None,
    at: datetime | None = None,
    cut: bool = False,
) -> None:
    seat = t.seat_of(user)
    as_seat = seat is not None if counted_seated is None else counted_seated
    if not as_seat:
        t.count_spectators(-1)
    elif seat is not None:  # (else its seat was freed meanwhile, and its count with it)
        count_sockets(t, seat, -1, at, cut)


def move_presence(
    table_id: int, user: AbstractBaseUser | None, counted_seated: bool, socket_id: int | None = None
) -> bool:
    """A socket stayed open while its user sat down or stood up: count it for the user's role
    now (sitting down over a socket used to leave the seat "disconnected", auto-played, until a
    reload). Returns whether the socket is now counted for a seat."""
    with change(table_id) as t:
        seat = t.seat_of(user)
        if (seat is not None) == counted_seated:
            return counted_seated
        return seat is not None if move_socket(t, socket_id, seat) else counted_seated
