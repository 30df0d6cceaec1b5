"""Duplicate scoring (pure): a deal's score at one table against the average of the same hand of
the same deal at every table (docs/tournaments.md, "Duplicate scoring").

    duplicate(player, deal) = points(player, deal) − mean over tables t of points(t, deal, position)

where `position` is the player's place relative to the dealer (the hand of the deal they held).
Summed over a hand's positions at each table the comparison is zero: the luck of the deal cancels
and what is left is how well each hand was played against the others who held it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class DealScore:
    round: int
    deal: int  # 1, 2, … within the round
    position: int  # place relative to the dealer
    player: int | None  # None: a bot (its scores count in the average, for nobody)
    points: int  # as played, bots included


def averages(scores: list[DealScore]) -> dict[tuple[int, int, int], Fraction]:
    sums: dict[tuple[int, int, int], list[int]] = defaultdict(list)
    for s in scores:
        sums[(s.round, s.deal, s.position)].append(s.points)
    return {key: Fraction(sum(v), len(v)) for key, v in sums.items()}


def compared(scores: list[DealScore]) -> list[tuple[DealScore, Fraction]]:
    """Each score with its duplicate result (points − that hand's average across tables)."""
    mean = averages(scores)
    return [(s, s.points - mean[(s.round, s.deal, s.position)]) for s in scores]


def totals(scores: list[DealScore]) -> dict[int, Fraction]:
    """Each person's duplicate points over every deal they played."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for s, diff in compared(scores):
        if s.player is not None:
            out[s.player] += diff
    return dict(out)
