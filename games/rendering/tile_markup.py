"""One tile's HTML, built in Python: the board draws a hundred tiles a frame, and an
`{% include %}` per tile cost most of a frame's render (a context pushed, a dozen lookups and
escapes each). templates/games/_tile.html and _hand_tile.html call these, so a tile's markup
has one source whichever way a page draws it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext as _


def _get(t: Any, key: str) -> Any:
    """`t.key` as a template reads it: a mapping's item, else an attribute; missing is ""."""
    if type(t) is dict or isinstance(t, Mapping):  # a plain dict first: the ABC check is slow
        return t.get(key, "")
    return getattr(t, key, "")


def _text(value: Any) -> str:
    """`{{ value }}` in a template: None shows as "None", all but safe strings escaped (as
    django.utils.html.conditional_escape does, without its lazy-string wrapper, a third of a
    tile's cost)."""
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def tile_html(t: Any) -> SafeString:
    """A face-up tile (or a back, when it has no name), as templates/games/_tile.html draws it,
    with the line break that ends the template: the space between two tiles on the page."""
    name, label = _get(t, "name"), _text(_get(t, "label"))
    classes = "tile"
    if _get(t, "joker"):
        classes += " joker"
    if _get(t, "dimmed"):
        classes += " dimmed"
    if _get(t, "last"):
        classes += " last"
    if _get(t, "claimed"):
        side = _get(t, "side")
        classes += f" claimed from-{_text(side)}" if side else " claimed"
    if not name:
        classes += " back"
    data = f' data-tile="{_text(name)}"' if name else ""
    src = _text(_get(t, "src"))
    return mark_safe(
        f'<span class="{classes}" title="{label}"{data}>'
        f'<img src="{src}" alt="{label}" draggable="false"></span>\n'
    )


def tiles_html(tiles: Iterable[Any]) -> SafeString:
    """A row of tiles."""
    return mark_safe("".join(tile_html(t) for t in tiles or ()))


def hand_tile_html(t: Any, clickable: Any) -> SafeString:
    """A tile of the viewer's own hand, as templates/games/_hand_tile.html draws it: a button to
    discard it on their turn, a disabled one (and why) when it may not go, else the bare tile;
    the line break after it too."""
    joker = " joker" if _get(t, "joker") else ""
    name, label, src = _text(_get(t, "name")), _text(_get(t, "label")), _text(_get(t, "src"))
    img = f'<img src="{src}" alt="{label}" draggable="false">'
    if _get(t, "action") and clickable:
        waits = _get(t, "waits_after")
        hint, waits_text = (f' data-waits="{_text(waits)}"', f" — {_text(waits)}") if waits else ("", "")
        hidden = f'<span class="visually-hidden">{_text(waits)}</span>' if waits else ""
        return mark_safe(
            f'<button type="button" class="tile hand-tile{joker}" ws-send hx-trigger="discard" name="action"'
            f' value="{_text(_get(t, "action"))}" data-tile="{name}"{hint}'
            f' title="{_text(_("Discard"))} {label}{waits_text}">{img}{hidden}</button>\n'
        )
    if _get(t, "disabled"):
        reason = _text(_get(t, "reason"))
        return mark_safe(
            f'<button type="button" class="tile hand-tile disabled{joker}" aria-disabled="true"'
            f' data-tile="{name}" data-reason="{reason}" title="{reason}">{img}'
            f'<span class="visually-hidden">{reason}</span></button>\n'
        )
    return mark_safe(f'<span class="tile hand-tile{joker}" data-tile="{name}" title="{label}">{img}</span>\n')


def hand_tiles_html(tiles: Iterable[Any], clickable: Any) -> SafeString:
    """The viewer's hand, tile by tile."""
    return mark_safe("".join(hand_tile_html(t, clickable) for t in tiles or ()))
