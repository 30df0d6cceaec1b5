"""A match between hands: who deals next, the prevailing wind, and when the match is over.

A hand ends with `result.next_dealer` (the rule set's dealer rotation). Around it, a match keeps
its place: the prevailing wind (风圈) and the seat that dealt the match's first hand. The deal has
gone round once the next dealer is that seat again after a change of dealer; then the wind moves
on, East → South → West → North, and a rule set that counts wind rounds (cantonese: four, or one
as a house option) ends the match when they are played. The first dealer of a match is drawn at
random by whoever starts it (a table, RULES §1.3); nothing here is random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.rulesets import get_ruleset
from games.engine.tiles import EAST, Tile


@dataclass(frozen=True)
class MatchPlace:
    """Where a match stands before a hand."""

    round_wind: Tile
    dealer: int
    first_dealer: int  # who dealt the match's first hand (each wind round starts with this seat)
    players: int

    @property
    def hand_in_round(self) -> int:
        """第 n 局 of the wind round: the dealer's place after the round's first dealer, 1-based
        (a dealer who stays deals the same 局 again, as at a real table)."""
        return (self.dealer - self.first_dealer) % self.players + 1


def start(first_dealer: int, players: int) -> MatchPlace:
    """A new match: East round, its first hand dealt by `first_dealer`."""
    return MatchPlace(round_wind=EAST, dealer=first_dealer, first_dealer=first_dealer, players=players)


def after_hand(
    variant: str, options: dict[str, Any], place: MatchPlace, next_dealer: int
) -> tuple[MatchPlace, bool]:
    """The place of the next hand, and whether the match is over with this hand."""
    over = False
    wind = place.round_wind
    if next_dealer != place.dealer and next_dealer == place.first_dealer:  # the deal has gone round
        rounds_done = place.round_wind - EAST + 1
        limit = get_ruleset(variant).match_rounds(options)
        over = limit is not None and rounds_done >= limit
        wind = EAST + rounds_done % 4
    return MatchPlace(wind, next_dealer, place.first_dealer, place.players), over
