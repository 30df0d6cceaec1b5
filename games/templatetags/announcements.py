"""`{% site_announcements %}`: the announcements in force, at the top of every page (base.html)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.announcements import active, banner_html

register = template.Library()


@register.simple_tag
def site_announcements() -> SafeString:
    return SafeString(banner_html(active(), get_language() or "zh-hans"))
