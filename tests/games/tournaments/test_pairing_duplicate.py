"""The pure parts of tournaments: tables of a round, the duplicate rotation, and the duplicate
comparison checked against an example worked by hand (docs/tournaments.md)."""

from __future__ import annotations

import random
from fractions import Fraction

from games.tournaments import deals, duplicate, pairing
from games.tournaments.duplicate import DealScore


def test_people_are_spread_so_bots_fill_as_few_seats_as_possible() -> None:
    assert pairing.table_sizes(8, 4) == [4, 4]
    assert pairing.table_sizes(6, 4) == [3, 3]
    assert pairing.table_sizes(9, 4) == [3, 3, 3]
    assert pairing.table_sizes(5, 2) == [2, 2, 1]
    assert pairing.table_sizes(0, 4) == []


def test_swiss_seats_the_leaders_together_and_bots_last() -> None:
    assert pairing.swiss_tables([5, 3, 1, 2, 4, 6], 4) == [[5, 3, 1, None], [2, 4, 6, None]]


def test_random_tables_seat_everybody_once() -> None:
    tables = pairing.random_tables(list(range(1, 8)), 4, random.Random(1))
    seated = [p for table in tables for p in table if p is not None]
    assert sorted(seated) == list(range(1, 8))
    assert [table.count(None) for table in tables] == [0, 1]


def test_every_hand_of_a_deal_is_held_from_every_seat_across_four_tables() -> None:
    for deal in range(1, 9):
        dealers = [pairing.rotated_dealer(deal, table, 4) for table in range(4)]
        assert sorted(dealers) == [0, 1, 2, 3]
    assert [pairing.deal_wind(d, 4) for d in (1, 4, 5, 8, 9)] == [27, 27, 28, 28, 29]
    assert pairing.position(seat=1, dealer=3, seats=4) == 2


def test_the_duplicate_comparison_matches_the_hand_worked_example() -> None:
    """Two tables play deal 1 of round 1. Table A: the dealer (position 0, alice) wins 30 by
    self-draw, the others pay 10. Table B: position 1 (dave) wins 36 off the others (12 each).

    Averages per position: 0 → (30 − 12)/2 = 9; 1 → (−10 + 36)/2 = 13; 2 and 3 → (−10 − 12)/2 = −11.
    Duplicate: alice 30 − 9 = 21; bob (pos 1 at A) −10 − 13 = −23; carol (pos 2 at A) −10 + 11 = 1;
    a bot (pos 3 at A) 1; erin (pos 0 at B) −12 − 9 = −21; dave 36 − 13 = 23; frank (pos 2 at B)
    −1; a bot (pos 3 at B) −1 — every position sums to zero across the tables."""
    alice, bob, carol, dave, erin, frank = 1, 2, 3, 4, 5, 6
    scores = [
        DealScore(1, 1, 0, alice, 30),
        DealScore(1, 1, 1, bob, -10),
        DealScore(1, 1, 2, carol, -10),
        DealScore(1, 1, 3, None, -10),
        DealScore(1, 1, 0, erin, -12),
        DealScore(1, 1, 1, dave, 36),
        DealScore(1, 1, 2, frank, -12),
        DealScore(1, 1, 3, None, -12),
    ]
    assert duplicate.totals(scores) == {alice: 21, bob: -23, carol: 1, erin: -21, dave: 23, frank: -1}
    assert sum(diff for _, diff in duplicate.compared(scores)) == 0
    # a deal one table did not play is compared among those that did
    scores.append(DealScore(1, 2, 0, alice, 7))
    assert duplicate.totals(scores)[alice] == 21
    assert duplicate.averages([DealScore(1, 1, 0, 1, 1), DealScore(1, 1, 0, 2, 2)])[(1, 1, 0)] == Fraction(
        3, 2
    )


def test_deal_salts_follow_from_the_committed_round_salt() -> None:
    import hashlib

    salt = "ab" * 32
    assert deals.round_commitment(salt) == hashlib.sha256(salt.encode()).hexdigest()
    first, second = deals.deal_salt(salt, 1), deals.deal_salt(salt, 2)
    assert first != second and len(first) == 64
    assert first == hashlib.sha256(f"{salt}:deal:1".encode()).hexdigest()
