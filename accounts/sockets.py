"""Closing the open sockets of a revoked API token or of a session that logged out.

A socket opened with a token joins the group `token_group(the token's stored digest)` BEFORE the
token is looked up (a revocation committed after the lookup still reaches it); one
authenticated by a login session joins `session_group(session key)`; every signed-in socket also
joins `user_group(user id)`, which a password change, a deactivation or a deletion closes.
Revoking a token or logging out sends `auth.revoked` to that group through the channel layer, so
the socket is closed in whichever process holds it (with Redis; the in-memory layer reaches only
its own process). The group name carries a digest of the session key, never the key itself
(Redis sees group names).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from common import broadcaster

REVOKED_MESSAGE = "auth.revoked"  # handled by the consumers' `auth_revoked`


def token_group(key_hash: str) -> str:
    """The group of the sockets opened with the token whose SHA-256 (ApiToken.key_hash) this is."""
    return f"auth.token.{key_hash[:40]}"


def session_group(session_key: str) -> str:
    return f"auth.session.{hashlib.sha256(session_key.encode()).hexdigest()[:40]}"


def user_group(user_id: int) -> str:
    """Every socket signed in as this account, by session or token (closed when the account's
    password changes or it is deactivated or deleted)."""
    return f"auth.user.{hashlib.sha256(f'user:{user_id}'.encode()).hexdigest()[:40]}"


def close_user_sockets(user_id: int) -> None:
    broadcaster.send(user_group(user_id), {"type": REVOKED_MESSAGE, "code": "account_changed"})


def close_token_sockets(key_hashes: Iterable[str]) -> None:
    for key_hash in key_hashes:
        broadcaster.send(token_group(key_hash), {"type": REVOKED_MESSAGE, "code": "token_revoked"})


def close_session_sockets(session_key: str) -> None:
    broadcaster.send(session_group(session_key), {"type": REVOKED_MESSAGE, "code": "logged_out"})
