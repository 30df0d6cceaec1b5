"""Who may watch a table: the one rule the page, the socket and the API share.

Public tables are open to everybody; a private one to its owner, its seated people and whoever
opened its invite link in this session (the page marks the session when the link is followed);
a club's table also to the club's members (docs/clubs.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.clubs.membership import is_member
from games.models import Seat, Table


def invite_session_key(table_id: int) -> str:
    return f"invite-{table_id}"


def may_watch(
    table: Table, user: Any, session: Any, invite: str = "", seats: Sequence[Seat] | None = None
) -> bool:
    """`invite`: the token a socket came with (a page marks the session instead); `seats`: the
    table's seats when the caller has them loaded (no query then)."""
    if table.public or (invite and invite == table.invite_token):
        return True
    signed_in = user is not None and user.is_authenticated
    if signed_in and table.owner_id == user.pk:
        return True
    if signed_in:
        seated = (
            any(s.user_id == user.pk for s in seats)
            if seats is not None
            else table.seats.filter(user=user).exists()
        )
        if seated or (table.club_id is not None and is_member(user, table.club_id)):
            return True
    return bool(session is not None and session.get(invite_session_key(table.pk)))


def remember_invite(table: Table, session: Any, invite: str | None) -> None:
    """Following a private table's invite link lets this session watch it from then on."""
    if invite and invite == table.invite_token:
        session[invite_session_key(table.pk)] = True
