"""A NUL byte in a request's path or query string is answered 400 before any view runs: no such
name or value exists (PostgreSQL cannot even store one), and letting it reach a query turned a
harmless typo into a server error."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or b"\x00" in unquote_to_bytes(query):
            return HttpResponseBadRequest("a NUL byte is not allowed in an address")
        return self.get_response(request)
