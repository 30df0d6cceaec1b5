"""Checks at a websocket's handshake: the Origin (scheme, host and port) and a cap on the
anonymous sockets one address holds open in this process."""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from accounts.services import user_for_token
from common import client_address

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as `https://example.com:8443`, or None."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def _is_secure(scope: dict[str, Any]) -> bool:
    """Like Django's request.is_secure(): the connection itself, or the proxy's header when
    settings.SECURE_PROXY_SSL_HEADER trusts one (production)."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, expected = proxy
    header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    value = client_address.header(scope.get("headers", ()), header)
    return value is not None and value.split(",")[0].strip() == expected


def own_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """(scheme, host, port) the browser sees this site at, from the Host header; None without
    an allowed Host."""
    host = client_address.header(scope.get("headers", ()), b"host")
    if not host:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if _is_secure(scope) else "http"
    try:
        number = int(port) if port else DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, domain.strip("[]").lower(), number


def origin_allowed(scope: dict[str, Any]) -> bool:
    """The Origin is this site's own (same scheme, host and port, as Django's CSRF check asks of
    a form) or listed in CSRF_TRUSTED_ORIGINS. No Origin (a non-browser client that did not say):
    refused; programs send their own, like scripts/api_player.py."""
    origin = client_address.header(scope.get("headers", ()), b"origin")
    parts = _origin_parts(origin) if origin else None
    if parts is None:
        return False
    trusted = {_origin_parts(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    return parts in trusted or parts == own_origin(scope)


class OriginValidator:
    """Channels' AllowedHostsOriginValidator compared the Origin's host only: any scheme and
    port passed (`http://site:8080` for `https://site`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)


class AnonymousSocketCap:
    """At most settings.ANONYMOUS_SOCKETS_PER_ADDRESS sockets open at once per address in this
    process without a logged-in session or an API token (spectators, the ping). Sockets of a
    logged-in user or a token are limited per socket instead (frame size, rate). Goes inside the
    auth middleware: it reads scope["user"]."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket" or not await _anonymous(scope):
            return await self.app(scope, receive, send)
        address = client_address.of_scope(scope)
        if self.open[address] >= settings.ANONYMOUS_SOCKETS_PER_ADDRESS:
            return await WebsocketDenier()(scope, receive, send)
        self.open[address] += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


async def _anonymous(scope: dict[str, Any]) -> bool:
    """Whether the socket is nobody's: no logged-in session and no valid API token. Decided by
    the authentication's result (a token is looked up), never by the address's text: any
    `token=` there once let a socket past the cap."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return False
    token = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
    if not token:
        return True
    return await database_sync_to_async(user_for_token)(token) is None
