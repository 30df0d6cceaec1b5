"""The pattern catalogue's types: one `Pattern` per scoring pattern of a variant.

A pattern's id, Chinese and English name and value live here and only here:
the scoring modules take their values from these entries, the settlement
screen and the history take their names from them, and the rules pages draw
their tables from them, so none of them can disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The unit a value is counted in (the variant's own unit, as the rules pages print it).
UNITS = (
    "flowers",  # shanghai classes 1–2: a fixed number of 花
    "fan",  # 番 that add up (yihua, cantonese, two_player, shanghai class 3)
    "minimum",  # cantonese: raises a hand below this many 番 to it
    "factor",  # tianjin: multiplies the hand's value
    "base",  # yihua eight flowers: value × base stake (the cap)
)


@dataclass(frozen=True)
class Pattern:
    id: str
    name_zh: str
    name_en: str
    value: int
    unit: str
    group: str  # the variant's own section of its pattern table (class 1, special hands …)
    summary_zh: str = ""
    summary_en: str = ""
    # counted once per occurrence (a dragon pung, a flower): the example shows one
    each: bool = False
    # cannot occur with this variant's tiles (two_player's official fans that need
    # 筒 or 条): listed for completeness, without an example hand
    impossible: bool = False

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unknown unit {self.unit!r} for pattern {self.id}")

    def scored_value(self, base: int) -> int:
        """What the scorer's breakdown shows for one occurrence at this base stake."""
        return self.value * base if self.unit == "base" else self.value


@dataclass(frozen=True)
class Group:
    id: str
    name_zh: str
    name_en: str
    note_zh: str = ""
    note_en: str = ""


@dataclass(frozen=True)
class Term:
    """A line of a settlement breakdown that is not a pattern (base flowers, 荒番 …)."""

    id: str
    name_zh: str
    name_en: str


def case(concealed: str, win_tile: str, **more: Any) -> dict[str, Any]:
    """An example hand in the score CLI's input format (docs/rules/README.md, the score CLI)."""
    out: dict[str, Any] = {"concealed": concealed, "win_tile": win_tile}
    for key, value in more.items():
        out["from" if key == "from_" else key] = value
    return out
