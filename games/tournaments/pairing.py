"""Who sits where (pure): tables of a round, random or Swiss, and the duplicate rotation of the
dealer so that one deal is played from a different seat at each table (docs/tournaments.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence

EAST = 27


def table_sizes(count: int, seats: int) -> list[int]:
    """How many people sit at each table: as few tables as hold everybody, the people spread
    evenly (sizes differ by one at most), so bots fill as few seats per table as possible."""
    if count <= 0:
        return []
    tables = -(-count // seats)
    base, extra = divmod(count, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def split(ordered: Sequence[int], seats: int) -> list[list[int | None]]:
    """The people in this order, table after table; None (a bot) fills each table's last seats."""
    out: list[list[int | None]] = []
    at = 0
    for size in table_sizes(len(ordered), seats):
        people: list[int | None] = list(ordered[at : at + size])
        out.append(people + [None] * (seats - size))
        at += size
    return out


def random_tables(people: Sequence[int], seats: int, rng: random.Random) -> list[list[int | None]]:
    shuffled = list(people)
    rng.shuffle(shuffled)
    return split(shuffled, seats)


def swiss_tables(standing_order: Sequence[int], seats: int) -> list[list[int | None]]:
    """Swiss by standings: the leaders together at the first table, the next ones at the next."""
    return split(standing_order, seats)


def rotated_dealer(deal: int, table_number: int, seats: int) -> int:
    """The dealer of deal `deal` (1, 2, …) at table `table_number` (0, 1, …): the dealer passes
    every deal, and each table starts one seat further on, so the same wall — dealt from the
    dealer — puts each hand of the deal in a different seat at each table."""
    return (deal - 1 + table_number) % seats


def deal_wind(deal: int, seats: int) -> int:
    """The round wind of deal `deal` when the dealer passes every deal: East for the first
    `seats` deals, then South, …"""
    return EAST + ((deal - 1) // seats) % 4


def position(seat: int, dealer: int, seats: int) -> int:
    """A seat's place relative to the dealer (0: the dealer): the hand of the deal it holds."""
    return (seat - dealer) % seats
