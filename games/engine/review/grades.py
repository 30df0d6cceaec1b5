"""Grades from the estimated loss of a decision, in each variant's own points.

A variant's unit is what a typical win is worth to its winner (points collected, base stake 1 —
yihua 2 —, measured over 40 hands of four strong bots per variant: the mean of every winner's
collected payment). The thresholds are fractions of that unit, so "a mistake" costs about the
same share of a win in every variant (docs/review.md lists the resulting points).
"""

from __future__ import annotations

# the typical win, in points collected by the winner (see above)
UNIT: dict[str, float] = {
    "shanghai": 14.0,
    "yihua": 6.0,
    "cantonese": 4.0,
    "tianjin": 4.0,
    "two_player": 26.0,
}
# loss (as a share of UNIT) from which a decision is graded so: below the first, good
INACCURACY = 0.03
MISTAKE = 0.10
BLUNDER = 0.30
GRADES = ("good", "inaccuracy", "mistake", "blunder")
UNRATED = "unrated"  # no estimate (pre-hand stakes, 搓牌): counted in no rate


def thresholds(variant: str) -> dict[str, float]:
    """The loss in points from which each grade starts, for `variant`."""
    unit = UNIT[variant]
    return {
        "inaccuracy": round(INACCURACY * unit, 3),
        "mistake": round(MISTAKE * unit, 3),
        "blunder": round(BLUNDER * unit, 3),
    }


def grade(variant: str, loss: float) -> str:
    """good / inaccuracy / mistake / blunder for an estimated loss in points."""
    t = thresholds(variant)
    if loss >= t["blunder"]:
        return "blunder"
    if loss >= t["mistake"]:
        return "mistake"
    if loss >= t["inaccuracy"]:
        return "inaccuracy"
    return "good"
