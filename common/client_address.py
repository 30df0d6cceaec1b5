"""The player's address, for the per-address limits (signups, API tokens, anonymous sockets).

daphne runs WITHOUT `--proxy-headers` (that option took the FIRST entry of `X-Forwarded-For`,
which any client writes itself when nothing in front overwrites it), so `REMOTE_ADDR` and
`scope["client"]` are the connection's own address. The header counts only when
`TRUSTED_PROXY_HOPS` says how many proxies in front wrote it: the address is then the entry that
many places from the END of the header (the one the outermost trusted proxy wrote), whatever the
client put before it; with 0 (the default, `make run`) the header is ignored (docs/operations.md,
"Addresses and proxies").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings

UNKNOWN = "0.0.0.0"  # a request without any address (a test client, a unix socket)


def _valid(candidate: str) -> str | None:
    candidate = candidate.strip()
    if candidate.startswith("[") and "]" in candidate:  # "[::1]:443"
        candidate = candidate[1 : candidate.index("]")]
    elif candidate.count(":") == 1:  # "203.0.113.5:5555"
        candidate = candidate.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


def choose(direct: str | None, forwarded_for: str | None) -> str:
    """The address to key limits on, from the connection's own address (already daphne's choice
    if it was ever run with --proxy-headers) and the raw `X-Forwarded-For` header."""
    hops = int(getattr(settings, "TRUSTED_PROXY_HOPS", 0))
    if hops > 0 and forwarded_for:
        entries = [entry for entry in forwarded_for.split(",") if entry.strip()]
        if len(entries) >= hops:
            found = _valid(entries[-hops])
            if found is not None:
                return found
    return _valid(direct or "") or UNKNOWN


def of_request(meta: Mapping[str, Any]) -> str:
    """The address of an HTTP request (`request.META`)."""
    return choose(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def of_scope(scope: Mapping[str, Any]) -> str:
    """The address of an ASGI connection (a socket's scope)."""
    client = scope.get("client") or (None, None)
    return choose(client[0], header(scope.get("headers", ()), b"x-forwarded-for"))


def header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """One header of an ASGI scope (joined with commas when repeated), or None."""
    values = [value.decode("latin-1") for key, value in headers if key.lower() == name]
    return ", ".join(values) if values else None


def of_axes_request(request: Any) -> str:
    """django-axes' lockout address (AXES_CLIENT_IP_CALLABLE): the same as every other limit's."""
    return of_request(request.META)
