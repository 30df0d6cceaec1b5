"""How far a hand is from winning, and how many unseen tiles bring it closer."""

from __future__ import annotations

from functools import lru_cache

from games.engine.hand import shanten
from games.engine.tiles import HONOR, KINDS, Tile


def plain(counts: bytes, jokers: tuple[Tile, ...]) -> tuple[bytes, int]:
    """Counts without the joker kinds, and the number of jokers held."""
    if not jokers:
        return counts, 0
    c = bytearray(counts)
    n = 0
    for t in jokers:
        n += c[t]
        c[t] = 0
    return bytes(c), n


def distance(counts: bytes, melds: int, jokers: tuple[Tile, ...]) -> int:
    """Shanten of the concealed part that must still make 4 − melds melds and a pair."""
    c, n = plain(counts, jokers)
    return shanten(c, n, max(0, 4 - melds))


def improving(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> tuple[int, list[Tile]]:
    """(unseen copies of the kinds that lower the shanten of a 13-tile hand, those kinds)."""
    now = distance(counts, melds, jokers)
    c = bytearray(counts)
    total = 0
    kinds = []
    for t in range(KINDS):
        if not unseen[t] or (t not in jokers and not _near(counts, t)):
            continue
        c[t] += 1
        if distance(bytes(c), melds, jokers) < now:
            total += unseen[t]
            kinds.append(t)
        c[t] -= 1
    return total, kinds


def _near(counts: bytes, t: Tile) -> bool:
    """A drawn tile can only help if the hand holds it or a suit neighbour within two
    (a lone new tile is a pair candidate only with a copy): skips most of the 34 tries."""
    if counts[t]:
        return True
    if t >= HONOR:
        return False
    r = t % 9
    lo, hi = t - min(r, 2), t + min(8 - r, 2)
    return any(counts[lo : hi + 1])


def isolation(counts: bytes, t: Tile) -> int:
    """Higher = more useless: honours and terminals alone first (easy's tie-break)."""
    if counts[t] >= 2:
        return 0
    if t >= HONOR:
        return 6
    r = t % 9
    lo, hi = max(t - r, t - 2), min(t - r + 8, t + 2)
    near = sum(counts[lo : hi + 1]) - counts[t]
    return 4 - min(near, 3) + (1 if r in (0, 8) else 0)


def two_step(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> int:
    """Look two draws ahead (the `strong` bot's tile efficiency): Σ over the unseen kinds that
    lower the shanten of a 13-tile hand of (unseen copies × the most tiles that lower it again
    after the best discard that keeps the gain). A hand one from ready counts each draw by the
    waits it would leave; so of two discards with the same ukeire, the one whose next step
    leaves the better shape (a two-sided wait, not an edge or a closed one) ranks first."""
    now = distance(counts, melds, jokers)
    c = bytearray(counts)
    total = 0
    for t in range(KINDS):
        if not unseen[t] or (t not in jokers and not _near(counts, t)):
            continue
        c[t] += 1
        if distance(bytes(c), melds, jokers) < now:
            best = 0
            for d in range(KINDS):
                if not c[d] or d == t or (d in jokers and not _all_jokers(c, jokers)):
                    continue
                c[d] -= 1
                after = bytes(c)
                c[d] += 1
                if distance(after, melds, jokers) < now:
                    best = max(best, _ukeire(after, melds, jokers, unseen))
            total += unseen[t] * best
        c[t] -= 1
    return total


def _all_jokers(c: bytearray, jokers: tuple[Tile, ...]) -> bool:
    return sum(c) == sum(c[j] for j in jokers)


@lru_cache(maxsize=16384)
def _ukeire(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> int:
    return improving(counts, melds, jokers, unseen)[0]
