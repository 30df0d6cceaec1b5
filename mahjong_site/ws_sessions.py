"""Channels' session and auth middleware for sockets, without a check on every frame sent.

Channels' `SessionMiddleware` wraps `send` so that a modified session is saved with an HTTP
response's first message. A websocket message never triggers that save (its
`save_message_types` are `http.response.start` only: a consumer saves a session itself), yet
the wrapper still read the lazy session's `modified` and `is_empty()` for every frame — about
2 % of a socket process's CPU under load (docs/benchmarks.md). This stack resolves the session
the same way and hands the consumer the server's own `send`.

Channels' `AuthMiddleware` looks the user up on its one shared database thread for every socket,
with a session or not. A socket with no session cookie (an API token's, a visitor's) is
anonymous to it whatever it looks up: it is now told so without the hop to that thread, which
a storm of arriving token sockets queued on (a sixth of a process's loop when thousands arrived).
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.contrib.auth.models import AnonymousUser


class SocketSessionMiddleware(SessionMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


class SocketAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if getattr(scope.get("session"), "session_key", None) is None:  # no session: nobody logged in
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


def SocketAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802  (named like channels' AuthMiddlewareStack)
    return CookieMiddleware(SocketSessionMiddleware(SocketAuthMiddleware(inner)))
