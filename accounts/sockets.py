"""Closing the open sockets of a revoked API token or of a session that logged out.

A socket authenticated by a token joins the group `token_group(token id)`; one authenticated by
a login session joins `session_group(session key)`. Revoking a token or logging out sends
`auth.revoked` to that group through the channel layer, so the socket is closed in whichever
process holds it (with Redis; the in-memory layer reaches only its own process). The group name
carries a digest of the session key, never the key itself (Redis sees group names).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from games import broadcaster

REVOKED_MESSAGE = "auth.revoked"  # handled by the consumers' `auth_revoked`


def token_group(token_id: int) -> str:
    return f"auth.token.{token_id}"


def session_group(session_key: str) -> str:
    return f"auth.session.{hashlib.sha256(session_key.encode()).hexdigest()[:40]}"


def close_token_sockets(token_ids: Iterable[int]) -> None:
    for token_id in token_ids:
        broadcaster.send(token_group(token_id), {"type": REVOKED_MESSAGE, "code": "token_revoked"})


def close_session_sockets(session_key: str) -> None:
    broadcaster.send(session_group(session_key), {"type": REVOKED_MESSAGE, "code": "logged_out"})
