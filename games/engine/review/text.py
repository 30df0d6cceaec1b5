"""One plain sentence per graded decision, in English and in Chinese (the summary's mistakes).

The review is engine output, not a page: the sentences are built here in both languages (the
site shows the one of the viewer's language) from the measures of the move played and of the
recommended one, e.g. "Discarding 3m left 6 effective tiles at shanten 2; keeping it and
discarding 9p left 14 effective tiles at shanten 2 (about 1.2 points more expected)."
"""

from __future__ import annotations

from typing import Any

ZH_ACTION = {"pass": "过", "win": "胡", "pong": "碰", "chi": "吃", "kong": "杠", "exchange": "换牌"}


def _find(d: dict[str, Any], key: str) -> dict[str, Any] | None:
    return next((m for m in d["alternatives"] if m[key]), None)


def _outcome(m: dict[str, Any], lang: str) -> str:
    sh = m.get("shanten")
    value = m.get("value")
    if sh is None:
        if value is None:
            return "no estimate" if lang == "en" else "无估值"
        return f"an expected {value:.1f} points" if lang == "en" else f"期望{value:.1f}分"
    if sh < 0:
        pts = f"{value:.0f}" if value is not None else "?"
        return f"a win worth {pts} points" if lang == "en" else f"和牌（{pts}分）"
    if sh == 0:
        waits = " ".join(w["tile"] for w in m["waits"])
        n = m["effective"]
        return f"you ready on {waits} ({n} unseen)" if lang == "en" else f"听{waits}（未见{n}张）"
    e = m["effective"]
    if lang == "en":
        return f"{e} effective tiles at shanten {sh}"
    return f"{sh}向听、有效牌{e}张"


def _zh_label(m: dict[str, Any]) -> str:
    a = m["action"]
    t = a.get("tile", "")
    if a["type"] == "discard":
        return f"打出{t}" + ("并报听" if a.get("ready") else "")
    if a["type"] == "chi":
        return f"吃{a.get('tiles', '')}"
    if a["type"] == "choose":
        return m["label"]
    if a["type"] == "exchange":
        return "换" + (a.get("tiles") or "0张")
    return ZH_ACTION.get(a["type"], a["type"]) + t


def _en_label(m: dict[str, Any]) -> str:
    a = m["action"]
    if a["type"] == "discard":
        return f"Discarding {a['tile']}" + (" with 报听" if a.get("ready") else "")
    if a["type"] == "pass":
        return "Passing"
    if a["type"] == "win":
        return "Winning"
    return m["label"][0].upper() + m["label"][1:]


def sentence(d: dict[str, Any], lang: str) -> str:
    """What was played, what it left; what the recommendation would have left; the loss."""
    played, rec = _find(d, "played"), _find(d, "recommended")
    if played is None or rec is None:
        return ""
    loss = d.get("loss") or 0.0
    both_discards = played["action"]["type"] == rec["action"]["type"] == "discard"
    same_tile = both_discards and played["action"]["tile"] == rec["action"]["tile"]
    if lang == "en":
        first = f"{_en_label(played)} left {_outcome(played, 'en')}"
        if both_discards and not same_tile:
            second = f"keeping it and discarding {rec['action']['tile']} left {_outcome(rec, 'en')}"
        else:
            second = f"{rec['label']} would have left {_outcome(rec, 'en')}"
        return f"{first}; {second} (about {loss:.1f} points more expected)."
    first = f"{_zh_label(played)}后{_outcome(played, 'zh')}"
    if both_discards and not same_tile:
        second = f"留着它、改打{rec['action']['tile']}则{_outcome(rec, 'zh')}"
    else:
        second = f"{_zh_label(rec)}则{_outcome(rec, 'zh')}"
    return f"{first}；{second}（期望约多{loss:.1f}分）。"
