"""Channels' session and auth middleware for sockets, without a check on every frame sent.

Channels' `SessionMiddleware` wraps `send` so that a modified session is saved with an HTTP
response's first message. A websocket message never triggers that save (its
`save_message_types` are `http.response.start` only: a consumer saves a session itself), yet
the wrapper still read the lazy session's `modified` and `is_empty()` for every frame — about
2 % of a socket process's CPU under load (docs/benchmarks.md). This stack resolves the session
the same way and hands the consumer the server's own `send`.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def SocketAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802  (named like channels' AuthMiddlewareStack)
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
