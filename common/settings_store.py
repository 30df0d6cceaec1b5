"""Site settings an admin changes without a deploy (the SiteSettings row), with Django-settings fallbacks.

Every reader goes through `current()`; without a row (a fresh database, or before migrate) the
defaults come from django.conf.settings, so nothing needs the row to exist.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError

from common import caches


@dataclass(frozen=True)
class Current:
    starting_balance: int
    escape_multiplier: int
    two_player_escape_multiplier: int
    turn_seconds: int
    claim_seconds: int
    grace_seconds: int
    rating_min_hands: int
    spectator_delay_seconds: int = 180  # games.rendering.spectator_delay


def defaults() -> Current:
    return Current(
        starting_balance=settings.STARTING_BALANCE,
        escape_multiplier=getattr(settings, "ESCAPE_MULTIPLIER", 50),
        two_player_escape_multiplier=getattr(settings, "TWO_PLAYER_ESCAPE_MULTIPLIER", 13),
        turn_seconds=getattr(settings, "DEFAULT_TURN_SECONDS", 15),
        claim_seconds=getattr(settings, "DEFAULT_CLAIM_SECONDS", 8),
        grace_seconds=getattr(settings, "DEFAULT_GRACE_SECONDS", 120),
        rating_min_hands=getattr(settings, "RATING_MIN_HANDS", 10),
        spectator_delay_seconds=getattr(settings, "SPECTATOR_DELAY_SECONDS", 180),
    )


def current() -> Current:
    """The settings in force now: the admin's row if there is one, else the Django settings."""
    site_settings = apps.get_model("games", "SiteSettings")  # (by name: common imports no app)
    try:
        row = site_settings.objects.filter(pk=1).first()
    except DatabaseError:  # e.g. before the first migrate
        row = None
    if row is None:
        return defaults()
    return Current(
        starting_balance=row.starting_balance,
        escape_multiplier=row.escape_multiplier,
        two_player_escape_multiplier=row.two_player_escape_multiplier,
        turn_seconds=row.turn_seconds,
        claim_seconds=row.claim_seconds,
        grace_seconds=row.grace_seconds,
        rating_min_hands=row.rating_min_hands,
        spectator_delay_seconds=row.spectator_delay_seconds,
    )


def escape_multiplier(variant: str) -> int:
    """RULES §1.8: 50 × base, 13 × base for two_player (both editable in the admin)."""
    return _multiplier(current(), variant)


def _multiplier(site: Current, variant: str) -> int:
    return site.two_player_escape_multiplier if variant == "two_player" else site.escape_multiplier


# --- for renders that may run on a socket's event loop ------------------------------------------

RENDER_CACHE_SECONDS = 30.0
_render_cache: tuple[float, Current] | None = None
_render_defaults: Current | None = None  # what a render on the loop uses before any read


@caches.on_clear
def forget_for_render() -> None:
    """Read the settings afresh at the next render (tests: the admin changed them)."""
    global _render_cache, _render_defaults
    _render_cache = _render_defaults = None


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def current_for_render() -> Current:
    """`current()` for code that may run on the event loop (a socket renders from a snapshot with
    no database work): the last value this process read, read again when older than
    RENDER_CACHE_SECONDS and not on the loop; the defaults until a first read."""
    global _render_cache
    now = time.monotonic()
    if _render_cache is not None and now - _render_cache[0] < RENDER_CACHE_SECONDS:
        return _render_cache[1]
    if _on_event_loop():
        return _render_cache[1] if _render_cache is not None else _defaults_for_render()
    _render_cache = (now, current())
    return _render_cache[1]


def escape_penalty_for_render(table: Any) -> int:
    """`Table.escape_penalty`, safe on the event loop (the site's multiplier as last read)."""
    return table.escape_penalty_at(_multiplier(current_for_render(), table.variant))


def escape_multiplier_for_render(table: Any) -> int:
    """`Table.escape_multiplier_at` the site's multiplier, safe on the event loop (shown to a
    joiner on the lobby row, the table page and in the JSON `options`)."""
    return table.escape_multiplier_at(_multiplier(current_for_render(), table.variant))


def _defaults_for_render() -> Current:
    """`defaults()`, made once: a socket process may render on its loop for its whole life without
    a read off it, and each frame asked Django's settings for every field again."""
    global _render_defaults
    if _render_defaults is None:
        _render_defaults = defaults()
    return _render_defaults
