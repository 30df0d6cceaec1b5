"""The player's address, for the per-address limits (signups, API tokens, anonymous sockets).

Behind a reverse proxy daphne runs with `--proxy-headers` and takes the FIRST entry of
`X-Forwarded-For` as the client (`REMOTE_ADDR` for a request, `scope["client"]` for a socket).
That is right only when the proxy SETS the header to the address it saw (nginx:
`proxy_set_header X-Forwarded-For $remote_addr;`). A proxy that APPENDS
(`$proxy_add_x_forwarded_for`) keeps whatever the client sent in front, so the client picks its
own address and every per-address limit is void. For such a proxy chain set
`TRUSTED_PROXY_HOPS` to the number of proxies that append: the address is then the entry that
many places from the END of the header (the one the outermost trusted proxy wrote), whatever
the client put before it (docs/operations.md, "Addresses and proxies").
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
    when it runs with --proxy-headers) and the raw `X-Forwarded-For` header."""
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
