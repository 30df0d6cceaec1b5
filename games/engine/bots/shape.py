"""How far a hand is from winning, and how many unseen tiles bring it closer."""

from __future__ import annotations

from functools import lru_cache

from games.engine.hand import shanten, shanten_each_step
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
    kinds = []
    total = 0
    for t in _lowering(counts, melds, jokers)[1]:
        if unseen[t]:
            kinds.append(t)
            total += unseen[t]
    return total, kinds


# The bots weigh the same hands again and again (every discard's 13 tiles, every draw after it,
# the next decision's hands, expert's second look at strong's options); what lowers a hand's
# shanten does not depend on what is in sight, so it is kept per hand and `unseen` applied after.
@lru_cache(maxsize=1 << 16)
def _lowering(counts: bytes, melds: int, jokers: tuple[Tile, ...]) -> tuple[int, tuple[Tile, ...]]:
    """(distance now, the kinds one more copy of which lowers it) among the kinds a draw can
    help: a joker, or a kind the hand holds or has a suit neighbour of (`_near`)."""
    c, n = plain(counts, jokers)
    need = max(0, 4 - melds)
    now = shanten(c, n, need)
    added = shanten_each_step(c, n, need, 1)
    with_joker = shanten(c, n + 1, need) if jokers else now
    lowering = []
    for t, after in enumerate(added):
        if t in jokers:
            after = with_joker  # a joker drawn is one more joker, whatever its kind
        # the cheap comparison first: few kinds lower the shanten, so `_near` is rarely asked
        if after is not None and after < now and (t in jokers or _near(counts, t)):
            lowering.append(t)
    return now, tuple(lowering)


@lru_cache(maxsize=1 << 15)
def _kept_after_discards(
    counts: bytes, melds: int, jokers: tuple[Tile, ...]
) -> tuple[tuple[Tile, bytes, int | None], ...]:
    """For a 14-tile hand, every discard d it holds: (d, the 13 tiles left, their distance)."""
    c, n = plain(counts, jokers)
    need = max(0, 4 - melds)
    removed = shanten_each_step(c, n, need, -1)
    with_joker = shanten(c, n - 1, need) if n else 0
    out: list[tuple[Tile, bytes, int | None]] = []
    after = bytearray(counts)
    for d in range(KINDS):
        if not counts[d]:
            continue
        after[d] -= 1
        dist = with_joker if d in jokers else removed[d]
        out.append((d, bytes(after), dist))
        after[d] += 1
    return tuple(out)


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


@lru_cache(maxsize=4096)  # expert asks it again of strong's very options
def two_step(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> int:
    """Look two draws ahead (the `strong` bot's tile efficiency): Σ over the unseen kinds that
    lower the shanten of a 13-tile hand of (unseen copies × the most tiles that lower it again
    after the best discard that keeps the gain). A hand one from ready counts each draw by the
    waits it would leave; so of two discards with the same ukeire, the one whose next step
    leaves the better shape (a two-sided wait, not an edge or a closed one) ranks first."""
    now, lowering = _lowering(counts, melds, jokers)
    c = bytearray(counts)
    total = 0
    for t in lowering:
        if not unseen[t]:
            continue
        c[t] += 1
        best = 0
        all_jokers = _all_jokers(c, jokers)
        for d, after, dist in _kept_after_discards(bytes(c), melds, jokers):
            if d == t or (d in jokers and not all_jokers):
                continue
            if dist is not None and dist < now:
                best = max(best, _ukeire(after, melds, jokers, unseen))
        total += unseen[t] * best
        c[t] -= 1
    return total


def after_each_discard(
    counts: bytes, melds: int, jokers: tuple[Tile, ...]
) -> tuple[tuple[Tile, bytes, int | None], ...]:
    """For a 14-tile hand, every discard d it holds: (d, the 13 tiles left, their distance)."""
    return _kept_after_discards(counts, melds, jokers)


def lowering(counts: bytes, melds: int, jokers: tuple[Tile, ...]) -> tuple[int, tuple[Tile, ...]]:
    """(a 13-tile hand's distance, the kinds one more copy of which lowers it) — memoised."""
    return _lowering(counts, melds, jokers)


def ukeire(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> int:
    """The unseen copies of the kinds that lower a 13-tile hand's shanten (memoised)."""
    return _ukeire(counts, melds, jokers, unseen)


def _all_jokers(c: bytearray, jokers: tuple[Tile, ...]) -> bool:
    return sum(c) == sum(c[j] for j in jokers)


@lru_cache(maxsize=16384)
def _ukeire(counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes) -> int:
    return improving(counts, melds, jokers, unseen)[0]
