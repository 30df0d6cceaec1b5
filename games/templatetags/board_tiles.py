"""The board's tiles as filters (games.rendering.tile_markup builds their HTML)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.rendering import tile_markup

register = template.Library()


@register.filter
def tile_html(t: Any) -> SafeString:
    return tile_markup.tile_html(t)


@register.filter
def tiles_html(tiles: Iterable[Any]) -> SafeString:
    return tile_markup.tiles_html(tiles)


@register.filter
def hand_tile_html(t: Any, clickable: Any) -> SafeString:
    return tile_markup.hand_tile_html(t, clickable)


@register.filter
def hand_tiles_html(tiles: Iterable[Any], clickable: Any) -> SafeString:
    return tile_markup.hand_tiles_html(tiles, clickable)
