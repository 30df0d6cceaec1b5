"""Names in the viewer's language for the history, replay and ranks pages: a rule set's name
and a pattern's or extra payment's name (the catalogues carry both languages; a page shows one)."""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.translation import get_language

from games.rendering.labels import VARIANT_NAMES

register = template.Library()


def _zh() -> bool:
    return (get_language() or "").startswith("zh")


@register.filter
def variant_name(variant: str) -> str:
    """'shanghai' → '上海麻将' on a Chinese page, 'Shanghai' on an English one."""
    names = VARIANT_NAMES.get(variant)
    if names is None:
        return variant
    return names[0] if _zh() else names[1]


@register.filter
def localized(names: Mapping[str, str]) -> str:
    """A {"zh": …, "en": …} name (games.rendering.labels.pattern_name, extra_name) in the page's language."""
    return names.get("zh" if _zh() else "en") or names.get("en") or names.get("zh") or ""
