"""A table socket's arrival in one database call (games.sockets.table's `connect`).

After the socket has joined its groups (its account's, the table's), what the database decides
about it is asked in one call on the arrivals' threads: whether its account may still be
signed in, who may watch and counting it (`games.table.presence.connect`, one locked read), and
how far behind the table its spectators are kept (games.rendering.spectator_delay). Each call
to a database thread costs a hand-off and a checked-out connection's health check; three
calls at every arrival were three of each.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import AbstractBaseUser

from accounts.services import still_signed_in
from games.rendering.spectator_delay import delay_for
from games.table import presence as table_presence


class Arrival(NamedTuple):
    version: int  # the table's revision after the connect
    socket_id: int | None  # its OpenSocket row (games.sockets.presence)
    spectator_delay: int  # seconds a spectator of this table is kept behind (0: live)


def arrive(
    table_id: int,
    user: AbstractBaseUser | None,
    process_id: int | None,
    session: Any,
    invite: str,
    signed_in_by_session: bool,
) -> Arrival | None:
    """(A database thread.) The arrival of `user`'s socket (None: anonymous) at a table; None,
    with nothing counted, when the account was closed or, for a socket signed in by `session`,
    its password changed since (read after the socket joined the account's group, so a change
    committed meanwhile is seen here or closes it there). `no_table` (ServiceError) as
    `presence.connect`."""
    if user is not None:
        session_hash = session.get(HASH_SESSION_KEY) if signed_in_by_session and session is not None else None
        if not still_signed_in(user.pk, session_hash):
            return None
    version, socket_id = table_presence.connect(table_id, user, process_id, session, invite)
    return Arrival(version, socket_id, delay_for(table_id))
