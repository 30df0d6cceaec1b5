"""Hand analysis: complete hands (with jokers), decompositions, waits, shanten.

Table-driven, the way fast engines do it: a hand is a 34-byte count vector;
each suit's 9 counts (7 for honours) are a `bytes` key into a memoised table
that says how many jokers that suit alone needs to become melds (and melds
plus the pair). A whole-hand test is then four dictionary look-ups and a few
additions. Jokers are "any tile": they fill gaps, and leftover jokers form
melds (three) or the pair (two) of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.engine.tiles import HONOR, KINDS, Tile, is_honour, is_terminal

INF = 99


# ---------------------------------------------------------------------------
# Per-suit joker cost tables: key (counts of one suit) → (cost without pair,
# cost with the pair in this suit), where cost = fewest jokers that turn every
# tile of the suit into whole groups.


@lru_cache(maxsize=None)
def _cost(counts: tuple[int, ...], runs: bool, pair: bool) -> int:
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return 2 if pair else 0  # a pair of two jokers
    c = counts[i]
    rest = list(counts)
    best = INF
    for use in range(1, min(c, 3) + 1):  # pung: `use` real tiles + jokers
        rest[i] -= use
        best = min(best, 3 - use + _cost(tuple(rest), runs, pair))
        rest[i] += use
    if pair:
        for use in range(1, min(c, 2) + 1):
            rest[i] -= use
            best = min(best, 2 - use + _cost(tuple(rest), runs, False))
            rest[i] += use
    if runs:
        # a run whose lowest real tile is i consumes {i, i+1}, {i, i+2} or
        # {i, i+1, i+2} of the real tiles; jokers fill the rest ({i} alone
        # costs the same as a pung of i with two jokers, tried above)
        for taken in ((i + 1, i + 2), (i + 1,), (i + 2,)):
            if taken[-1] > 8 or any(not rest[k] for k in taken):
                continue
            rest[i] -= 1
            for k in taken:
                rest[k] -= 1
            best = min(best, 2 - len(taken) + _cost(tuple(rest), runs, pair))
            rest[i] += 1
            for k in taken:
                rest[k] += 1
    return best


class _SuitTable(dict):
    """bytes key → (cost without pair, cost with pair); filled on first use."""

    def __init__(self, runs: bool) -> None:
        super().__init__()
        self.runs = runs

    def __missing__(self, key: bytes) -> tuple[int, int]:
        t = tuple(key)
        value = (_cost(t, self.runs, False), _cost(t, self.runs, True))
        self[key] = value
        return value


_SUITED = _SuitTable(runs=True)
_HONOURS = _SuitTable(runs=False)


def joker_cost(counts: bytes) -> int:
    """Fewest jokers that make these tiles (all of them) one complete hand."""
    a0, a1 = _SUITED[counts[0:9]]
    b0, b1 = _SUITED[counts[9:18]]
    c0, c1 = _SUITED[counts[18:27]]
    d0, d1 = _HONOURS[counts[27:34]]
    total = a0 + b0 + c0 + d0
    return total + min(2, a1 - a0, b1 - b0, c1 - c0, d1 - d0)


def is_complete(counts: bytes, jokers: int = 0) -> bool:
    """Four-melds-and-a-pair test (any number of melds: 3k+2 tiles in all).

    `counts` holds the concealed tiles other than jokers; `jokers` how many
    joker tiles stand beside them.
    """
    if (sum(counts) + jokers) % 3 != 2:
        return False
    return joker_cost(counts) <= jokers


def is_seven_pairs(counts: bytes, jokers: int = 0, distinct: bool = False) -> bool:
    """Seven pairs of 14 concealed tiles; four alike count as two pairs unless `distinct`."""
    if sum(counts) + jokers != 14:
        return False
    if distinct:
        kinds = sum(1 for c in counts if c)
        singles = sum(1 for c in counts if c == 1)
        if any(c > 2 for c in counts):
            return False
        return singles <= jokers and kinds + (jokers - singles) // 2 >= 7
    singles = sum(c & 1 for c in counts)
    return singles <= jokers


ORPHANS = tuple(t for t in range(KINDS) if is_terminal(t) or is_honour(t))


def is_thirteen_orphans(counts: bytes, jokers: int = 0) -> bool:
    if sum(counts) + jokers != 14:
        return False
    if any(counts[t] for t in range(KINDS) if t not in ORPHANS):
        return False
    missing = sum(1 for t in ORPHANS if not counts[t])
    has_pair = any(counts[t] >= 2 for t in ORPHANS)
    extra = sum(max(0, counts[t] - 1) for t in ORPHANS)
    if extra > 1:
        return False
    return missing + (0 if has_pair else 1) <= jokers


# ---------------------------------------------------------------------------
# Decompositions (for scoring: every way to read a complete hand).


@dataclass(frozen=True, order=True)
class Group:
    """One meld or the pair of a decomposition.

    kind: 'run' (tile = lowest), 'pung', 'pair', or 'wild_pung' / 'wild_pair'
    for groups made only of jokers (tile = -1: they can be read as anything).
    jokers: the tiles of the group that jokers stand for (empty without jokers).
    """

    kind: str
    tile: Tile
    jokers: tuple[Tile, ...] = ()

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == "run":
            return (self.tile, self.tile + 1, self.tile + 2)
        if self.kind == "pung":
            return (self.tile,) * 3
        if self.kind == "pair":
            return (self.tile,) * 2
        return ()

    @property
    def is_meld(self) -> bool:
        return self.kind in ("run", "pung", "wild_pung")


def decompositions(counts: bytes, jokers: int = 0) -> list[tuple[Group, ...]]:
    """Every distinct reading of a complete concealed part as melds + one pair."""
    if (sum(counts) + jokers) % 3 != 2 or joker_cost(counts) > jokers:
        return []
    found: set[tuple[Group, ...]] = set()
    _decompose(list(counts), jokers, False, [], found)
    return sorted(found)


def _decompose(c: list[int], jokers: int, paired: bool, groups: list[Group], found: set) -> None:
    i = next((k for k in range(KINDS) if c[k]), -1)
    if i < 0:
        rest = list(groups)
        left = jokers
        if not paired:
            if left < 2:
                return
            rest.append(Group("wild_pair", -1))
            left -= 2
        if left % 3:
            return
        rest.extend(Group("wild_pung", -1) for _ in range(left // 3))
        found.add(tuple(sorted(rest)))
        return
    if not paired:
        for use in (2, 1):
            if c[i] >= use and jokers >= 2 - use:
                c[i] -= use
                groups.append(Group("pair", i, (i,) * (2 - use)))
                _decompose(c, jokers - (2 - use), True, groups, found)
                groups.pop()
                c[i] += use
    for use in (3, 2, 1):
        if c[i] >= use and jokers >= 3 - use:
            c[i] -= use
            groups.append(Group("pung", i, (i,) * (3 - use)))
            _decompose(c, jokers - (3 - use), paired, groups, found)
            groups.pop()
            c[i] += use
    if i < HONOR:
        rank = i % 9
        for start in (i - 2, i - 1, i):
            if start < i - rank or start + 2 > i - rank + 8:
                continue
            tiles = (start, start + 1, start + 2)
            # i is the lowest real tile, so positions below i must be jokers
            for mask in range(8):
                real = [t for n, t in enumerate(tiles) if mask >> n & 1]
                if i not in real or any(t < i for t in real):
                    continue
                if any(c[t] < 1 for t in real):
                    continue
                fill = tuple(t for t in tiles if t not in real)
                if len(fill) > jokers:
                    continue
                for t in real:
                    c[t] -= 1
                groups.append(Group("run", start, fill))
                _decompose(c, jokers - len(fill), paired, groups, found)
                groups.pop()
                for t in real:
                    c[t] += 1


# ---------------------------------------------------------------------------
# Waits and shanten.


def waits(counts: bytes, jokers: int = 0) -> list[Tile]:
    """Kinds that complete a 3k+1 hand (kinds already held four times excluded)."""
    if (sum(counts) + jokers) % 3 != 1:
        return []
    out = []
    c = bytearray(counts)
    for t in range(KINDS):
        if c[t] >= 4:
            continue
        c[t] += 1
        if joker_cost(bytes(c)) <= jokers:
            out.append(t)
        c[t] -= 1
    return out


@lru_cache(maxsize=None)
def _partial(counts: tuple[int, ...], runs: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For m = 0..4 melds: fewest jokers to make m melds (and m melds + pair)
    from a subset of these tiles, the other tiles being thrown away."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return (0, 3, 6, 9, 12), (2, 5, 8, 11, 14)
    rest = list(counts)
    rest[i] -= 1
    skip = _partial(tuple(rest), runs)  # throw one copy of tile i away
    rest[i] += 1
    no_pair = list(skip[0])
    with_pair = list(skip[1])
    c = counts[i]

    def take(real: list[int], cost: int, melds: int, pair: bool) -> None:
        for k in real:
            rest[k] -= 1
        sub = _partial(tuple(rest), runs)
        for k in real:
            rest[k] += 1
        if pair:  # this group is the pair
            for m in range(5):
                with_pair[m] = min(with_pair[m], sub[0][m] + cost)
            return
        for m in range(melds, 5):
            no_pair[m] = min(no_pair[m], sub[0][m - melds] + cost)
            with_pair[m] = min(with_pair[m], sub[1][m - melds] + cost)

    take([i] * min(c, 3), 3 - min(c, 3), 1, False)
    if c >= 2:
        take([i, i], 0, 0, True)
    take([i], 1, 0, True)
    take([i], 2, 1, False)
    if runs:
        for a, b in ((1, 2),):
            if i + b <= 8:
                real = [i] + [k for k in (i + a, i + b) if counts[k]]
                take(real, 3 - len(real), 1, False)
                if counts[i + a]:
                    take([i, i + a], 1, 1, False)
                if counts[i + b]:
                    take([i, i + b], 1, 1, False)
        if i + 1 <= 8 and i + 2 > 8 and counts[i + 1]:
            take([i, i + 1], 1, 1, False)  # 8-9 waiting on 7
    return tuple(no_pair), tuple(with_pair)


class _PartialTable(dict):
    def __init__(self, runs: bool) -> None:
        super().__init__()
        self.runs = runs

    def __missing__(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        value = _partial(tuple(key), self.runs)
        self[key] = value
        return value


_SUITED_PARTIAL = _PartialTable(runs=True)
_HONOUR_PARTIAL = _PartialTable(runs=False)


def _combine(a: tuple, b: tuple, melds: int) -> tuple[list[int], list[int]]:
    a0, a1 = a
    b0, b1 = b
    r0 = [INF] * (melds + 1)
    r1 = [INF] * (melds + 1)
    for i in range(melds + 1):
        x0 = a0[i]
        x1 = a1[i]
        for j in range(melds + 1 - i):
            y0 = b0[j]
            s = x0 + y0
            if s < r0[i + j]:
                r0[i + j] = s
            s = min(x1 + y0, x0 + b1[j])
            if s < r1[i + j]:
                r1[i + j] = s
    return r0, r1


def shanten(counts: bytes, jokers: int = 0, melds: int | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready (听牌), 1 one away, …

    `melds` is how many melds the concealed part must still make (4 minus the
    declared melds); by default it is read from the tile count.
    """
    n = sum(counts) + jokers
    if melds is None:
        melds = min(4, n // 3)
    m = _SUITED_PARTIAL[counts[0:9]]
    p = _SUITED_PARTIAL[counts[9:18]]
    s = _SUITED_PARTIAL[counts[18:27]]
    z = _HONOUR_PARTIAL[counts[27:34]]
    x0, x1 = _combine(m, p, melds)
    y0, y1 = _combine(s, z, melds)
    best = INF
    for i in range(melds + 1):
        j = melds - i
        v = min(x0[i] + y1[j], x1[i] + y0[j])
        if v < best:
            best = v
    return max(best - jokers, 0) - 1


def seven_pairs_shanten(counts: bytes, jokers: int = 0) -> int:
    pairs = sum(c // 2 for c in counts)
    kinds = sum(1 for c in counts if c)
    need = 7 - pairs - jokers
    if kinds < 7:
        need += 7 - kinds
    return max(need, 0) - 1 if pairs + jokers < 7 else -1
