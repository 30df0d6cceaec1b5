"""`{% site_announcements %}`: the announcements in force, at the top of every page (base.html)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from games.social.announcements import active, banner_items

register = template.Library()


@register.inclusion_tag("games/_announcements.html")
def site_announcements() -> dict[str, Any]:
    return {"announcements": banner_items(active(), get_language() or "zh-hans"), "oob": False}
