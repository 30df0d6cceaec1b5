"""A tile's HTML from games.rendering.tile_markup is, byte for byte, what the tile templates drew
when they were Django templates (kept here as the reference), for every kind of tile the board
shows: face up, back, joker, dimmed, the last discard, claimed from a side, escaped labels, and
the three ways a hand tile is drawn."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Engine
from django.utils.safestring import mark_safe
from django.utils.translation import override

from games.rendering.tile_markup import hand_tile_html, hand_tiles_html, tile_html, tiles_html

TILE_TEMPLATE = (
    '<span class="tile{% if t.joker %} joker{% endif %}{% if t.dimmed %} dimmed{% endif %}'
    "{% if t.last %} last{% endif %}{% if t.claimed %} claimed{% if t.side %} from-{{ t.side }}"
    '{% endif %}{% endif %}{% if not t.name %} back{% endif %}" title="{{ t.label }}"'
    '{% if t.name %} data-tile="{{ t.name }}"{% endif %}><img src="{{ t.src }}" alt="{{ t.label }}"'
    ' draggable="false"></span>\n'
)
HAND_TILE_TEMPLATE = (
    "{% load i18n %}{% if t.action and clickable %}"
    '<button type="button" class="tile hand-tile{% if t.joker %} joker{% endif %}" ws-send'
    ' hx-trigger="discard" name="action" value="{{ t.action }}" data-tile="{{ t.name }}"'
    '{% if t.waits_after %} data-waits="{{ t.waits_after }}"{% endif %} title="{% translate \'Discard\' %}'
    ' {{ t.label }}{% if t.waits_after %} — {{ t.waits_after }}{% endif %}"><img src="{{ t.src }}"'
    ' alt="{{ t.label }}" draggable="false">{% if t.waits_after %}<span class="visually-hidden">'
    "{{ t.waits_after }}</span>{% endif %}</button>{% elif t.disabled %}"
    '<button type="button" class="tile hand-tile disabled{% if t.joker %} joker{% endif %}"'
    ' aria-disabled="true" data-tile="{{ t.name }}" data-reason="{{ t.reason }}" title="{{ t.reason }}">'
    '<img src="{{ t.src }}" alt="{{ t.label }}" draggable="false"><span class="visually-hidden">'
    "{{ t.reason }}</span></button>{% else %}"
    '<span class="tile hand-tile{% if t.joker %} joker{% endif %}" data-tile="{{ t.name }}"'
    ' title="{{ t.label }}"><img src="{{ t.src }}" alt="{{ t.label }}" draggable="false"></span>'
    "{% endif %}\n"
)
ENGINE = Engine(libraries={"i18n": "django.templatetags.i18n"})

FACE = {"name": "5m", "src": "/static/games/tiles/5m.abc.svg", "label": "五万", "joker": False}
TILES: list[Any] = [
    FACE,
    {**FACE, "joker": True, "label": "五万 · joker 混"},
    {**FACE, "dimmed": True},
    {**FACE, "last": True},
    {**FACE, "claimed": True, "side": "left"},
    {**FACE, "claimed": True, "side": ""},
    {**FACE, "label": "a <b> & \"quoted\" 'label'"},
    {**FACE, "label": mark_safe("<i>safe</i>")},
    {**FACE, "label": None},
    {"name": None, "src": "/static/games/tiles/back.svg", "label": "hidden tile", "joker": False},
    {"src": "/x.svg"},
]
ACTION = '{"type": "discard", "tile": "5m"}'
HAND_TILES: list[Any] = [
    {**FACE, "action": ACTION},
    {**FACE, "action": ACTION, "joker": True, "waits_after": "then waiting on 三万 ×4"},
    {**FACE, "action": ACTION, "waits_after": "<waits> & more"},
    {**FACE, "disabled": True, "reason": "You can't discard this tile now"},
    {**FACE, "disabled": True, "joker": True, "reason": "吃后不能打这张 — you can't"},
    {**FACE, "joker": True},
]


class Attributes:
    """A tile given as an object, not a dict: templates read its attributes alike."""

    name, src, label, joker, claimed, side = "1z", "/e.svg", "东", False, True, "across"


def reference(template: str, **context: Any) -> str:
    return ENGINE.from_string(template).render(Context(context))


@pytest.mark.parametrize("t", [*TILES, Attributes()])
def test_a_tile_is_drawn_as_its_template_drew_it(t: Any) -> None:
    assert tile_html(t) == reference(TILE_TEMPLATE, t=t)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("clickable", [True, False])
@pytest.mark.parametrize("t", HAND_TILES)
def test_a_hand_tile_is_drawn_as_its_template_drew_it(t: Any, clickable: bool, language: str) -> None:
    with override(language):
        assert hand_tile_html(t, clickable) == reference(HAND_TILE_TEMPLATE, t=t, clickable=clickable)


def test_rows_are_the_tiles_one_after_the_other() -> None:
    assert tiles_html(TILES) == "".join(reference(TILE_TEMPLATE, t=t) for t in TILES)
    assert hand_tiles_html(HAND_TILES, True) == "".join(
        reference(HAND_TILE_TEMPLATE, t=t, clickable=True) for t in HAND_TILES
    )
    assert tiles_html(None) == ""


def test_the_tile_templates_draw_through_the_same_functions() -> None:
    from django.template.loader import render_to_string

    assert render_to_string("games/_tile.html", {"t": TILES[4]}) == tile_html(TILES[4])
    assert render_to_string("games/_hand_tile.html", {"t": HAND_TILES[1], "clickable": True}) == (
        hand_tile_html(HAND_TILES[1], True)
    )
