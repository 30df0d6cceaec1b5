"""`{% review_url hand user %}`: the review page of `user`'s seat in `hand` (seat 0 if none)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag
def review_url(hand: Any, user: Any = None) -> str:
    players = hand.match.players or []
    seat = players.index(user.pk) if user is not None and getattr(user, "pk", None) in players else 0
    return f"{reverse('review:page', args=[hand.pk])}?seat={seat}"
