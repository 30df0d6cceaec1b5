"""The pattern catalogue: every scoring pattern of every variant, in one place.

`catalogue(variant)` lists a variant's patterns in the order of its rule book;
`pattern(variant, id)` finds one. The scoring modules read values from here,
`games.rendering` reads names from here, and the rules pages print the
tables and example hands from here, so none of them can disagree.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from games.engine.patterns import cantonese, shanghai, tianjin, two_player, yihua
from games.engine.patterns.base import Group, Pattern, Term

__all__ = ["Group", "Pattern", "Term", "catalogue", "examples", "groups", "pattern", "term"]

_MODULES: dict[str, ModuleType] = {
    "shanghai": shanghai,
    "yihua": yihua,
    "cantonese": cantonese,
    "tianjin": tianjin,
    "two_player": two_player,
}
VARIANTS = tuple(_MODULES)

# Settlement lines that are not patterns (the breakdown's bookkeeping), any variant.
TERMS: dict[str, Term] = {
    t.id: t
    for t in (
        Term("base_flowers", "底花", "Base flowers"),
        Term("huangfan", "荒番", "Doubled after a drawn hand"),
        Term("flowers", "花", "Flowers"),
        Term("one_flower_minimum", "一花起胡", "One-flower minimum"),
    )
}

_BY_ID: dict[str, dict[str, Pattern]] = {v: {p.id: p for p in m.PATTERNS} for v, m in _MODULES.items()}


def catalogue(variant: str) -> tuple[Pattern, ...]:
    """Every pattern of `variant` (KeyError for an unknown variant)."""
    return _MODULES[variant].PATTERNS


def groups(variant: str) -> tuple[Group, ...]:
    return _MODULES[variant].GROUPS


def pattern(variant: str, pattern_id: str) -> Pattern | None:
    return _BY_ID.get(variant, {}).get(pattern_id)


def value(variant: str, pattern_id: str) -> int:
    """The value of a pattern the scoring module names (KeyError if the catalogue lacks it)."""
    return _BY_ID[variant][pattern_id].value


def examples(variant: str) -> dict[str, dict[str, Any]]:
    """pattern id → an example hand (the score CLI's input, without `variant`) that scores it."""
    return _MODULES[variant].EXAMPLES


def term(term_id: str) -> Term | None:
    return TERMS.get(term_id)
