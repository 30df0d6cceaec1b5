"""One line per winner that shows the variant's own arithmetic, from value to payments.

"Value" means something else in every variant (flowers, a capped score, 2^fan × base, a
multiplier, fan), so the settlement states how the engine got from the breakdown to what each
loser pays, e.g. `5 base flowers × 2^1 fan × 2 荒番 = 20 flowers × base 2 = 40, from each`.

The arithmetic is recomputed from the engine's breakdown (docs/engine.md) and checked against
the engine's value: when they disagree (a breakdown this module does not know) the line says
only what was paid, never a formula that does not add up. The amounts are the win's own
payments (before the balance floor, which the payments table shows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.rendering.labels import pattern_name

YIHUA_CAP_FACTOR = 10  # games.engine.scoring.yihua: the score is capped at 10 × base
CANTONESE_CAP = 3  # 爆和


@dataclass(frozen=True)
class Line:
    text: str  # the arithmetic, in the active language
    value: int | None  # the value the arithmetic reaches (None: no formula shown)
    amounts: dict[int, int]  # seat → what it pays this winner (> 0)


def _zh() -> bool:
    return (get_language() or "").startswith("zh")


def _separator() -> str:
    return "，" if _zh() else ", "


def _name(pattern_id: str, variant: str) -> str:
    """The pattern's name in this variant's catalogue (the same id is named differently per variant)."""
    names = pattern_name(pattern_id, variant)
    return names["zh"] if _zh() else names["en"]


def _power(fan: int) -> str:
    return f"2^{fan}"


# --- the value, per variant: (formula text, value it reaches) --------------------------------


def _shanghai(score: dict[str, Any], base: int) -> tuple[str, int]:
    breakdown = dict(score.get("breakdown") or [])
    doubled = "huangfan" in breakdown
    if "base_flowers" in breakdown:
        flowers = breakdown["base_flowers"]
        fan = sum(v for k, v in breakdown.items() if k not in ("base_flowers", "huangfan"))
        value = flowers * 2**fan
        text = _("%(flowers)s base flowers × %(power)s fan") % {"flowers": flowers, "power": _power(fan)}
    else:  # a class pattern: its own flowers, the highest of the class alone
        top, value = max(((k, v) for k, v in breakdown.items() if k != "huangfan"), key=lambda kv: kv[1])
        text = _("%(pattern)s %(flowers)s flowers") % {"pattern": _name(top, "shanghai"), "flowers": value}
    if doubled:
        value *= 2
        text += " × 2 " + _("荒番")
    text += " = " + _("%(flowers)s flowers × base %(base)s = %(unit)s") % {
        "flowers": value,
        "base": base,
        "unit": value * base,
    }
    return text, value


def _yihua(score: dict[str, Any], base: int) -> tuple[str, int]:
    breakdown = dict(score.get("breakdown") or [])
    cap = YIHUA_CAP_FACTOR * base
    if "eight_flowers" in breakdown:
        return _("%(pattern)s: the cap, %(factor)s × base %(base)s = %(cap)s") % {
            "pattern": _name("eight_flowers", "yihua"),
            "factor": YIHUA_CAP_FACTOR,
            "base": base,
            "cap": cap,
        }, cap
    flowers = breakdown.get("flowers", 0)
    fan = sum(v for k, v in breakdown.items() if k != "flowers")
    raw = (base + flowers * base // 2) * 2**fan
    text = _("(base %(base)s + %(flowers)s flowers × %(half)s) × %(power)s fan = %(raw)s") % {
        "base": base,
        "flowers": flowers,
        "half": base // 2,
        "power": _power(fan),
        "raw": raw,
    }
    if raw > cap:
        text += " → " + _("capped at %(cap)s") % {"cap": cap}
    return text, min(raw, cap)


def _cantonese(score: dict[str, Any], base: int) -> tuple[str, int]:
    counted = [v for _k, v in score.get("breakdown") or [] if v]
    value = int(score.get("value") or 0)
    fan = max(0, (value // base).bit_length() - 1) if base else 0  # value = 2^fan × base
    total = sum(counted)
    text = _("fan %(terms)s") % {"terms": " + ".join(str(v) for v in counted) or "0"}
    if len(counted) > 1:
        text += f" = {total}"
    if total > fan:
        text += " → " + _("capped at %(fan)s (爆和)") % {"fan": fan}
    elif total < fan:
        text += " → " + _("raised to %(fan)s") % {"fan": fan}
    text += " → " + _("%(power)s × base %(base)s = %(value)s") % {
        "power": _power(fan),
        "base": base,
        "value": 2**fan * base,
    }
    return text, 2**fan * base


def _tianjin(score: dict[str, Any], base: int) -> tuple[str, int]:
    factors = [(k, v) for k, v in score.get("breakdown") or []]
    value = 1
    parts = []
    for pattern, factor in factors:
        value *= factor
        parts.append(f"{factor} ({_name(pattern, 'tianjin')})")
    times = _("%(value)s × base %(base)s = %(unit)s") % {"value": value, "base": base, "unit": value * base}
    text = " × ".join(parts) + " = " + times if parts else times
    return text, value


def _two_player(score: dict[str, Any], base: int) -> tuple[str, int]:
    fans = [v for _k, v in score.get("breakdown") or []]
    total = sum(fans)
    value = int(score.get("value") or 0)
    text = _("fan %(terms)s") % {"terms": " + ".join(str(v) for v in fans) or "0"}
    if len(fans) > 1:
        text += f" = {total}"
    shown = total
    if total > value:  # the table's cap (option `cap`)
        text += " → " + _("capped at %(cap)s") % {"cap": value}
        shown = value
    text += " " + _("× base %(base)s = %(unit)s") % {"base": base, "unit": shown * base}
    return text, shown


VALUE_FORMULAS: dict[str, Callable[[dict[str, Any], int], tuple[str, int]]] = {
    "shanghai": _shanghai,
    "yihua": _yihua,
    "cantonese": _cantonese,
    "tianjin": _tianjin,
    "two_player": _two_player,
}
UNIT_TIMES_BASE = {"shanghai", "tianjin", "two_player"}  # their value is paid × base


# --- who pays --------------------------------------------------------------------------------


def _payers(amounts: dict[int, int], unit: int, names: Sequence[str]) -> str:
    """ "from each" when everyone pays the unit; else each payer with their multiple."""
    if len(amounts) > 1 and all(a == unit for a in amounts.values()):
        return _("%(amount)s from each") % {"amount": unit}
    parts = []
    for seat, amount in amounts.items():
        name = names[seat] if seat < len(names) else str(seat)
        if unit and amount != unit and amount % unit == 0:
            parts.append(
                _("%(name)s pays %(amount)s (×%(times)s)")
                % {"name": name, "amount": amount, "times": amount // unit}
            )
        else:
            parts.append(_("%(name)s pays %(amount)s") % {"name": name, "amount": amount})
    return _separator().join(parts)


def settlement_line(variant: str, score: dict[str, Any], base: int, names: Sequence[str]) -> Line:
    """The arithmetic of one winner's score (`score`: the result's entry for that seat)."""
    seat = score.get("seat")
    payments = list(score.get("payments") or [])
    amounts = {s: -p for s, p in enumerate(payments) if s != seat and p < 0}
    formula = VALUE_FORMULAS.get(variant)
    text, value = formula(score, base) if formula is not None and base else ("", None)
    if value != score.get("value"):  # never show a formula that does not reach the engine's value
        text, value = "", None
    unit = value * base if value is not None and variant in UNIT_TIMES_BASE else value
    if unit is None:
        unit = min(amounts.values()) if amounts else 0
    payers = _payers(amounts, unit, names)
    return Line(f"{text}{_separator()}{payers}" if text else payers, value, amounts)
