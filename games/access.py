"""Who may watch a table: the one rule the page, the socket and the API share.

Public tables are open to everybody; a private one to its owner, its seated people and whoever
opened its invite link in this session (the page marks the session when the link is followed).
"""

from __future__ import annotations

from typing import Any

from games.models import Table


def invite_session_key(table_id: int) -> str:
    return f"invite-{table_id}"


def may_watch(table: Table, user: Any, session: Any) -> bool:
    if table.public:
        return True
    signed_in = user is not None and user.is_authenticated
    if signed_in and (table.owner_id == user.pk or table.seats.filter(user=user).exists()):
        return True
    return bool(session is not None and session.get(invite_session_key(table.pk)))


def remember_invite(table: Table, session: Any, invite: str | None) -> None:
    """Following a private table's invite link lets this session watch it from then on."""
    if invite and invite == table.invite_token:
        session[invite_session_key(table.pk)] = True
