"""The rules pages: /rules/ (the flow every variant shares) and /rules/<variant>/.

Plain read-only views; the content comes from games.rules_pages (engine data)
and games.rules_content (prose), in the language the site's switch picked.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import rules_pages
from games.rendering import VARIANT_NAMES


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", rules_pages.index_page())


@require_GET
def variant(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANT_NAMES:
        raise Http404("no such rule set")
    return render(request, "rules/variant.html", rules_pages.variant_page(variant))
