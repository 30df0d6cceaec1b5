"""A kept review as the page shows it: actions and tiles in the viewer's language, the summary's
and hindsight's sentences in that language (the engine writes both), figures rounded."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.rendering.labels import split_tiles, tile, tile_name

GRADE_NAMES = {
    "good": lambda: _("good"),
    "inaccuracy": lambda: _("inaccuracy"),
    "mistake": lambda: _("mistake"),
    "blunder": lambda: _("blunder"),
    "unrated": lambda: _("not rated"),
}
KIND_NAMES = {
    "discard": lambda: _("Discard"),
    "self_draw": lambda: _("Win or play on"),
    "claim": lambda: _("Claim or pass"),
    "win_or_pass": lambda: _("Win or pass"),
    "stakes": lambda: _("Stakes 坐庄/拉庄"),
    "exchange": lambda: _("Exchange 换牌"),
}


def language() -> str:
    """The engine's sentence language for this viewer: "zh" or "en"."""
    return "zh" if (translation.get_language() or "").startswith("zh") else "en"


def action_text(action: dict[str, Any]) -> str:
    """One action in words, e.g. "Discard 三万 3 Characters" / "打 三万"."""
    kind = action.get("type")
    t = action.get("tile")
    if kind == "discard":
        text = _("Discard %(tile)s") % {"tile": tile_name(t)}
        return text + " · " + _("declare ready 报听") if action.get("ready") else text
    if kind == "pass":
        return _("Pass 过")
    if kind == "win":
        return _("Win 胡")
    if kind == "pong":
        return _("Pong %(tile)s 碰") % {"tile": tile_name(t)}
    if kind == "chi":
        return _("Chi %(tiles)s 吃") % {
            "tiles": " ".join(tile_name(x) for x in split_tiles(action.get("tiles")))
        }
    if kind == "kong":
        return _("Kong %(tile)s 杠") % {"tile": tile_name(t)}
    if kind == "exchange":
        tiles = split_tiles(action.get("tiles"))
        return _("Exchange %(tiles)s 换牌") % {"tiles": " ".join(tile_name(x) for x in tiles) or _("nothing")}
    if kind == "choose":
        return {
            ("zuozhuang", 0): _("No 坐庄"),
            ("zuozhuang", 1): "坐庄",
            ("lazhuang", 0): _("No 拉庄"),
            ("lazhuang", 1): "拉一庄",
            ("lazhuang", 2): "拉两庄",
        }.get((action.get("kind"), action.get("value")), str(action))
    if kind == "cuopai":
        return _("Draw %(tile)s 搓牌") % {"tile": tile_name(t)}
    return str(kind)


def _alternative(m: dict[str, Any]) -> dict[str, Any]:
    return {
        **m,
        "text": action_text(m["action"]),
        "tile": tile(m["action"]["tile"]) if m["action"].get("tile") else None,
        "wait_tiles": [{"tile": tile(w["tile"]), "unseen": w["unseen"]} for w in m.get("waits") or []],
    }


def decision(d: dict[str, Any]) -> dict[str, Any]:
    return {
        **d,
        "kind_text": KIND_NAMES.get(d["kind"], lambda: d["kind"])(),
        "grade_text": GRADE_NAMES.get(d["grade"], lambda: d["grade"])(),
        "played_text": action_text(d["played"]),
        "recommended_text": action_text(d["recommended"]),
        "hand_tiles": [tile(t) for t in d["hand"]],
        "offered_tile": tile(d["offered"]["tile"]) if d.get("offered") else None,
        "alternatives": [_alternative(m) for m in d["alternatives"]],
        # the replay's step whose board shows this moment: the state before the action
        "view_step": d["step"],
    }


def review_page(data: dict[str, Any]) -> dict[str, Any]:
    lang = language()
    decisions = [decision(d) for d in data["decisions"]]
    summary = data["summary"]
    by_index = {d["index"]: d for d in decisions}
    mistakes = [
        {
            **m,
            "text": m["text"][lang],
            "grade_text": GRADE_NAMES[m["grade"]](),
            "decision": by_index[m["index"]],
        }
        for m in summary["mistakes"]
    ]
    hindsight = [
        {**h, "text": h["text"][lang], "decision": by_index.get(h["index"])}
        for h in data["hindsight"]["items"]
    ]
    return {
        "raw": data,
        "decisions": decisions,
        "summary": {**summary, "mistakes": mistakes},
        "hindsight": hindsight,
        "grade_counts": [(GRADE_NAMES[g](), g, n) for g, n in summary["grades"].items()],
        # what the viewer's script needs to mark the board: step → the recommended and played tile
        "marks": {
            str(d["step"]): {
                "seat": data["seat"],
                "recommended": d["recommended"].get("tile")
                if d["recommended"]["type"] == "discard"
                else None,
                "played": d["played"].get("tile") if d["played"]["type"] == "discard" else None,
                "index": d["index"],
            }
            for d in data["decisions"]
        },
    }
