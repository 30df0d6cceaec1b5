"""The rules pages: /rules/ (the flow every variant shares) and /rules/<variant>/.

Plain read-only views; the content comes from games.rules.pages (engine data)
and games.rules.content (prose), in the language the site's switch picked.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.rendering.labels import VARIANT_NAMES
from games.rules import pages


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", pages.index_page())


@require_GET
def variant(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANT_NAMES:
        # a page of its own (also with DEBUG on): the rule sets there are, status 404
        context = {"asked": variant, "variants": pages.variant_list()}
        return render(request, "rules/not_found.html", context, status=404)
    return render(request, "rules/variant.html", pages.variant_page(variant))
