"""What a replay says, in the viewer's language: each step as a sentence, the board's labels,
and the settlement with pattern names and the variant's arithmetic.

The replay page's script only places these strings; the engine notation ("chi 6s 567s") stays
in the JSON API (`replays.build`), which programs read.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.tiles import WIND_EN, WIND_ZH
from games.rendering.labels import pattern_name, split_tiles, tile_en, tile_zh
from games.rendering.settlement_lines import settlement_line


def _zh() -> bool:
    return (get_language() or "").startswith("zh")


def tile_text(name: str | None) -> str:
    if not name:
        return ""
    try:
        return tile_zh(name) if _zh() else tile_en(name)
    except (ValueError, KeyError, IndexError):
        return name


def _tiles_text(text: str | None) -> str:
    return " ".join(tile_text(t) for t in split_tiles(text))


def _choice(action: dict[str, Any]) -> str:
    value = action.get("value", 0)
    if action.get("kind") == "zuozhuang":
        return _("chooses to sit as dealer (坐庄)") if value else _("does not sit as dealer (不坐)")
    if not value:
        return _("does not pull (不拉)")
    return _("pulls %(n)s (拉庄)") % {"n": value}


KONG_KINDS = {"exposed": "明杠", "added": "加杠", "concealed": "暗杠"}


def _verb(action: dict[str, Any]) -> str:
    kind, tile = action.get("type"), tile_text(action.get("tile"))
    if kind == "discard":
        said = _("discards %(tile)s") % {"tile": tile}
        return said + (" · " + _("declares ready (报听)") if action.get("ready") else "")
    if kind == "chi":
        return _("chows %(tile)s into %(run)s") % {"tile": tile, "run": _tiles_text(action.get("tiles"))}
    if kind == "pong":
        return _("pongs %(tile)s") % {"tile": tile}
    if kind == "kong":
        label = KONG_KINDS.get(action.get("kind") or "", "杠")
        return _("declares a kong (%(kind)s) of %(tile)s") % {"kind": label, "tile": tile}
    if kind == "win":
        return _("declares a win on %(tile)s") % {"tile": tile} if tile else _("declares a win")
    if kind == "pass":
        return _("passes")
    if kind == "choose":
        return _choice(action)
    if kind == "exchange":
        tiles = _tiles_text(action.get("tiles"))
        return _("exchanges %(tiles)s") % {"tiles": tiles} if tiles else _("keeps their tiles")
    if kind == "swap":
        return _("takes a pung of %(tile)s for %(tiles)s (游戏中换牌)") % {
            "tile": tile,
            "tiles": _tiles_text(action.get("tiles")),
        }
    if kind == "cuopai":
        return _("swaps the drawn tile for %(tile)s (搓牌)") % {"tile": tile}
    return str(kind)


def step_text(action: dict[str, Any] | None, actor: str | None, name: str) -> str:
    """One step, e.g. '机器人 2 碰 五万' / 'Bot 2 pongs 5 Characters'."""
    if not action:
        return _("The deal")
    text = f"{name} {_verb(action)}"
    if actor == "timeout":
        text += " (" + _("time ran out") + ")"
    elif actor == "auto":
        text += " (" + _("auto-play 托管") + ")"
    return text


def info_text(view: dict[str, Any]) -> str:
    """The board's centre line: wall, round wind and what the hand waits for."""
    wind = view.get("round_wind") or ""
    parts = [_("Wall %(n)s") % {"n": view.get("wall_left", 0)}]
    if wind:
        parts.append(
            _("Round %(wind)s") % {"wind": WIND_ZH.get(wind, "") if _zh() else WIND_EN.get(wind, "")}
        )
    phase = view.get("phase")
    if phase == "claim":
        parts.append(_("Claim window"))
    elif phase == "over":
        parts.append(_("Hand over"))
    elif phase == "choose":
        parts.append(_("Choosing 坐庄 / 拉庄"))
    return " · ".join(parts)


def replay_text(data: dict[str, Any]) -> dict[str, Any]:
    """The replay's words for the page (`replays.build` output in, strings out)."""
    names = data["players"]
    steps = [
        step_text(
            step.get("action"), step.get("actor"), names[step["seat"]] if step.get("seat") is not None else ""
        )
        for step in data["steps"]
    ]
    result = data.get("result") or {}
    base = int((data.get("setup") or {}).get("base") or 0)
    scores = []
    for score in result.get("scores", []):
        breakdown = score.get("breakdown") or [[p, None] for p in score.get("patterns", [])]
        patterns = []
        for pattern, value in breakdown:
            label = pattern_name(pattern, data["variant"])["zh" if _zh() else "en"]
            patterns.append(f"{label} {value}" if value is not None else label)
        scores.append(
            {
                "name": names[score["seat"]] if score["seat"] < len(names) else "",
                "value": score.get("value"),
                "patterns": patterns,
                "line": settlement_line(data["variant"], score, base, names).text,
            }
        )
    return {
        "steps": steps,
        "info": [info_text(step["view"]) for step in data["steps"]],
        "scores": scores,
        "value": _("value"),
        "dealer": _("Dealer"),
        "no_patterns": _("No patterns"),
        # payments with a bot are practice: shown beside the points, never applied (as the history)
        "practice": _("practice 练习"),
        "practice_hint": _("Payments with a bot are practice: no points move"),
        "drawn": _("Draw 荒牌 — no winner") if result.get("drawn") or not result.get("winners") else "",
        "winds": WIND_ZH if _zh() else WIND_EN,
    }
