"""The buttons of the board: hand prompts (win, claims, choices) and table actions, each carrying
the exact legal entry it sends back."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from games.engine.bots import LEVELS
from games.rendering.labels import split_tiles, tile, tile_name
from games.table.commands import NAMES as COMMAND_NAMES

# --- actions --------------------------------------------------------------------------------


def action_json(action: dict[str, Any]) -> str:
    """The exact text sent back as the `action` field (the legal entry, unchanged)."""
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def _button(action: dict[str, Any], label: str, **extra: Any) -> dict[str, Any]:
    return {"action": action_json(action), "label": label, "type": action["type"], **extra}


def _kind_label(kind: str) -> str:
    return {
        "exposed": _("Kong 明杠"),
        "added": _("Kong 加杠"),
        "concealed": _("Kong 暗杠"),
    }.get(kind, _("Kong 杠"))


def hand_prompts(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons for every legal hand action except plain discards (those are the hand's tiles)."""
    out: list[dict[str, Any]] = []
    for a in legal:
        kind = a["type"]
        if kind == "win":
            out.append(_button(a, _("Win 胡"), tiles=[tile(a["tile"])] if a.get("tile") else [], tone="win"))
        elif kind == "kong":
            out.append(_button(a, _kind_label(a.get("kind", "")), tiles=[tile(a["tile"])], tone="claim"))
        elif kind == "pong":
            out.append(_button(a, _("Pong 碰"), tiles=[tile(a["tile"])], tone="claim"))
        elif kind == "chi":
            run = [tile(t, claimed=(t == a.get("tile"))) for t in split_tiles(a.get("tiles"))]
            out.append(_button(a, _("Chi 吃"), tiles=run, tone="claim"))
        elif kind == "pass":
            out.append(_button(a, _("Pass 过"), tiles=[], tone="pass"))
        elif kind == "choose":
            out.append(_button(a, _choice_label(a), tiles=[], tone="choose"))
        elif kind == "exchange":
            tiles = [tile(t) for t in split_tiles(a.get("tiles"))]
            label = _("Exchange 换牌") if tiles else _("Keep my tiles 不换")
            out.append(_button(a, label, tiles=tiles, tone="choose"))
        elif kind == "cuopai":
            out.append(_button(a, _("Swap the drawn tile for 搓牌"), tiles=[tile(a["tile"])], tone="choose"))
        elif kind == "swap":
            pung = [tile(a["tile"])] * 3
            out.append(_button(a, _("Take the pung 换刻子"), tiles=pung, tone="choose"))
        elif kind != "discard":  # an action this board doesn't know yet: still offer it
            tiles = [tile(t) for t in split_tiles(a.get("tiles") or a.get("tile"))]
            out.append(_button(a, kind, tiles=tiles, tone="choose"))
    order = {"win": 0, "claim": 1, "choose": 2, "pass": 3}
    return sorted(out, key=lambda b: order[b["tone"]])


def _choice_label(a: dict[str, Any]) -> str:
    value = a.get("value", 0)
    if a.get("kind") == "zuozhuang":
        return _("Sit as dealer 坐庄") if value else _("Don't sit 不坐")
    labels = {0: _("No pull 不拉"), 1: _("Pull once 拉一庄"), 2: _("Pull twice 拉两庄")}
    return labels.get(value, f"拉 {value}")


def ready_discards(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discards that also declare 报听 (two_player): shown as their own prompt row."""
    return [
        _button(a, tile_name(a["tile"]), tiles=[tile(a["tile"])], tone="ready")
        for a in legal
        if a["type"] == "discard" and a.get("ready")
    ]


TABLE_ACTIONS = COMMAND_NAMES  # the registry of table commands (games.table.commands)


def table_actions(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Table-level legal actions by type (seat-bound ones keyed by seat)."""
    out: dict[str, Any] = {"sit": {}, "add_bot": {}, "remove_bot": {}}
    for a in legal:
        kind = a["type"]
        if kind == "add_bot":  # one button per strength; the level rides along with the entry
            seat = a.get("seat")
            out[kind][seat] = [{"level": lv, "action": action_json({**a, "level": lv})} for lv in LEVELS]
        elif kind in ("sit", "remove_bot"):
            out[kind][a.get("seat")] = action_json(a)
        elif kind == "set_stake":
            out["set_stake"] = {"min": a.get("min", 1), "even": bool(a.get("even")), "action": a}
        elif kind in TABLE_ACTIONS:
            out[kind] = action_json(a)
            if kind == "auto":
                out["auto_on"] = bool(a.get("on"))
    return out
