"""The settlement panel: patterns with values, payments, balances, extras and penalties."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.rendering.labels import extra_name, huangfan_name, pattern_name, tile
from games.rendering.settlement_lines import settlement_line


def settlement_model(
    table: dict[str, Any], view: dict[str, Any] | None, seats: list[dict[str, Any]], jokers: set[str]
) -> dict[str, Any] | None:
    """The settlement panel: patterns with values, payments, balances; None while no result."""
    last = table.get("last_result") or None
    result = (last or {}).get("result") or (view or {}).get("result")
    if not result:
        return None
    n = len(seats)
    names = _names(seats, (last or {}).get("names") or [], (last or {}).get("bots") or [])
    variant = table.get("variant", "")
    base = (last or {}).get("base") or table.get("base") or 0
    cause = (view or {}).get("huangfan_cause") or (last or {}).get("huangfan_cause")
    scores = []
    for score in result.get("scores", []):
        breakdown = score.get("breakdown") or [[p, None] for p in score.get("patterns", [])]
        scores.append(
            {
                "seat": score["seat"],
                "name": names[score["seat"]] if score["seat"] < n else "",
                "value": score.get("value"),
                "win": score.get("win", True),
                "patterns": [{**_pattern(p, variant, cause), "value": v} for p, v in breakdown],
                "line": settlement_line(variant, score, base, names).text,
            }
        )
    payments = (last or {}).get("payments") or result.get("payments") or [0] * n
    balances = (last or {}).get("balances") or [s.get("balance") for s in seats]
    practice = (last or {}).get("practice") or [0] * n  # payments with a bot: shown, not applied
    hands = (last or {}).get("hands") or [None] * n
    due = result.get("payments") or []  # what the hand asked of each seat, before the balance floor
    rows = []
    for s in seats:
        i = s["index"]
        hand_names = hands[i] if i < len(hands) and hands[i] is not None else None
        if hand_names is None and view and i < len(view.get("seats", [])):
            hand_names = view["seats"][i].get("hand")
        rows.append(
            {
                "seat": s,
                "name": names[i] if i < n else "",
                "payment": payments[i] if i < len(payments) else 0,
                "practice": practice[i] if i < len(practice) else 0,
                "due": _floored(i, payments, practice, due),
                "balance": balances[i] if i < len(balances) else None,
                "hand": [tile(t, joker=t in jokers) for t in hand_names or []],
                "melds": s.get("melds", []),
                "flowers": s.get("flowers", []),  # so "Base flowers 6" can be checked
                "winner": i in result.get("winners", []),
            }
        )
    extras = [
        {
            **extra_name(e.get("reason", "")),
            "payments": e.get("payments", []),
            # each amount beside the seat that paid or got it ("东 alice −2"), not a bare list
            "by_seat": [
                {
                    "wind_zh": seats[i].get("wind_zh", "") if i < n else "",
                    "name": names[i] if i < n else "",
                    "amount": a,
                }
                for i, a in enumerate(e.get("payments", []))
            ],
        }
        for e in result.get("extras", [])
    ]
    penalties = [
        {
            **p,
            "name": names[p["seat"]] if p.get("seat") is not None and p["seat"] < n else "",
            "label": extra_name(p.get("reason", "escape")),
        }
        for p in (last or {}).get("penalties", [])
    ]
    return {
        "drawn": result.get("drawn") or not result.get("winners"),
        "by": result.get("by"),
        "from": result.get("from"),
        "from_name": names[result["from"]] if result.get("from") is not None and result["from"] < n else "",
        "win_tile": tile(result["win_tile"]) if result.get("win_tile") else None,
        "scores": scores,
        "rows": rows,
        "extras": extras,
        "penalties": penalties,
        "hand": (last or {}).get("hand"),
    }


def _pattern(pattern_id: str, variant: str, huangfan_cause: str | None) -> dict[str, Any]:
    if pattern_id == "huangfan":
        return huangfan_name(huangfan_cause)
    return pattern_name(pattern_id, variant)


def _names(seats: list[dict[str, Any]], played: list[str | None], bots: list[bool]) -> list[str]:
    """Who played each seat in the hand settled: the person recorded at settlement (their seat
    may be empty or taken since), else a bot recorded there (named even once the table is
    closed and its bots gone), else the seat's occupant now, else a dash."""
    names = []
    for s in seats:
        i = s["index"]
        recorded = played[i] if i < len(played) else None
        if recorded is None and i < len(bots) and bots[i]:
            recorded = _("Bot %(number)s") % {"number": i + 1}
        names.append(recorded or s.get("name") or pgettext("empty seat", "—"))
    return names


def _floored(i: int, payments: list[int], practice: list[int], due: list[int]) -> int | None:
    """What seat i was due when the balance floor changed it (a loser ran out of points, so
    they paid, or a winner got, less than the hand asked), else None."""
    if i >= len(due) or i >= len(payments):
        return None
    moved = payments[i] + (practice[i] if i < len(practice) else 0)
    return due[i] if moved != due[i] else None
