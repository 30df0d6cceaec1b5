"""Hand analysis: complete hands (with jokers), decompositions, waits, shanten.

Table-driven, the way fast engines do it: a hand is a 34-byte count vector;
each suit's 9 counts (7 for honours) are a `bytes` key into a memoised table.

- Complete hands: the table says how many jokers that suit alone needs to
  become whole melds, and melds plus the pair. A whole-hand test is then four
  dictionary look-ups and a few additions.
- Shanten: the table gives the id of the suit's *partial-cost vector* (the
  fewest jokers to make m = 0..4 melds, with or without the pair, from a subset
  of the suit's tiles). There are very few distinct vectors (110 for the suits
  and 55 for the honours over every suit of at most 14 tiles), so two suits are
  combined through a second table keyed by the pair of ids, and the two halves
  of the hand through a third. Those tables can only hold a few tens of
  thousands of small ints, so they need no eviction.

Jokers are "any tile": they fill gaps, and leftover jokers form melds (three)
or the pair (two) of their own. Counts of more than four copies are allowed
(a joker may stand for a tile whose four copies are all in sight).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from games.engine.tiles import HONOR, KINDS, Tile, is_honour, is_terminal

INF = 99
MAX_MELDS = 4  # the partial-cost vectors cover m = 0..4 melds


# ---------------------------------------------------------------------------
# Complete hands. Per-suit table: key (counts of one suit) →
# (c0, d, r): c0 = fewest jokers that turn every tile of the suit into whole
# melds; d = min(2, extra jokers needed when the pair is in this suit too), so
# that a whole hand needs sum(c0) + min(d) jokers (2 = a pair of two jokers);
# r = tiles in the suit mod 3, so the 3k+2 test needs no sum over 34 counts.


class _SuitTable(dict):
    """bytes key → (c0, d, r) as above; filled on first use (recursively, so
    every smaller key met on the way is filled too)."""

    def __init__(self, runs: bool) -> None:
        super().__init__()
        self.runs = runs

    def __missing__(self, key: bytes) -> tuple[int, int, int]:
        value = self._costs(key)
        self[key] = value
        return value

    def _sub(self, counts: bytearray, taken: tuple[int, ...]) -> tuple[int, int]:
        for k in taken:
            counts[k] -= 1
        c0, d, _ = self[bytes(counts)]
        for k in taken:
            counts[k] += 1
        return c0, c0 + d

    def _costs(self, key: bytes) -> tuple[int, int, int]:
        # The lowest tile i must be in some group: a pung or the pair of i
        # (real copies of i plus jokers), or a run whose lowest real tile is i.
        i = next((k for k, c in enumerate(key) if c), -1)
        if i < 0:
            return 0, 2, 0  # the pair may be two jokers
        counts = bytearray(key)
        best0 = best1 = INF
        for use in range(1, min(key[i], 3) + 1):  # pung: `use` real tiles + jokers
            s0, s1 = self._sub(counts, (i,) * use)
            best0 = min(best0, 3 - use + s0)
            best1 = min(best1, 3 - use + s1)
        for use in range(1, min(key[i], 2) + 1):  # the pair
            s0, _ = self._sub(counts, (i,) * use)
            best1 = min(best1, 2 - use + s0)
        if self.runs:
            # a run takes {i, i+1, i+2}, {i, i+1} or {i, i+2} of the real
            # tiles; jokers fill the rest ({i} alone costs what a pung of i
            # with two jokers costs, tried above)
            for taken in ((i, i + 1, i + 2), (i, i + 1), (i, i + 2)):
                if taken[-1] >= len(key) or not all(key[k] for k in taken):
                    continue
                s0, s1 = self._sub(counts, taken)
                best0 = min(best0, 3 - len(taken) + s0)
                best1 = min(best1, 3 - len(taken) + s1)
        # best1 <= best0 + 2 always (two jokers make the pair), so d is exact
        return best0, min(best1 - best0, 2), sum(key) % 3


_SUITED = _SuitTable(runs=True)
_HONOURS = _SuitTable(runs=False)


def joker_cost(counts: bytes) -> int:
    """Fewest jokers that make these tiles (all of them) one complete hand."""
    a0, a1, _ = _SUITED[counts[0:9]]
    b0, b1, _ = _SUITED[counts[9:18]]
    c0, c1, _ = _SUITED[counts[18:27]]
    d0, d1, _ = _HONOURS[counts[27:34]]
    return a0 + b0 + c0 + d0 + min(a1, b1, c1, d1)


def is_complete(counts: bytes, jokers: int = 0) -> bool:
    """Four-melds-and-a-pair test (any number of melds: 3k+2 tiles in all).

    `counts` holds the concealed tiles other than jokers; `jokers` how many
    joker tiles stand beside them.
    """
    a0, a1, ar = _SUITED[counts[0:9]]
    b0, b1, br = _SUITED[counts[9:18]]
    c0, c1, cr = _SUITED[counts[18:27]]
    d0, d1, dr = _HONOURS[counts[27:34]]
    if (ar + br + cr + dr + jokers) % 3 != 2:
        return False
    return a0 + b0 + c0 + d0 + min(a1, b1, c1, d1) <= jokers


def seven_pairs_wait(counts: bytes) -> set[Tile]:
    """The kind that could make 13 concealed tiles seven pairs: the one held an odd number of
    times, when there is exactly one (no jokers)."""
    odd = [t for t, c in enumerate(counts[:KINDS]) if c & 1]
    return set(odd) if len(odd) == 1 and sum(counts) == 13 else set()


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
    # 2–8 of any suit rules it out: three slices, not a test per kind (Cantonese asks this of
    # every tile that might complete a hand)
    if any(counts[1:8]) or any(counts[10:17]) or any(counts[19:26]):
        return False
    held = [counts[t] for t in ORPHANS]
    missing = held.count(0)
    has_pair = any(c >= 2 for c in held)
    extra = sum(c - 1 for c in held if c > 1)
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
    if not is_complete(counts, jokers):
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
# Waits.


class _AddOneTable(dict):
    """Suit key → for each position, the (c0, d, r) entry of the suit with one
    more tile there (None where the suit already holds four). The entries are
    the cost table's own tuples, so a row costs nine pointers."""

    def __init__(self, table: _SuitTable) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, key: bytes) -> tuple[tuple[int, int, int] | None, ...]:
        out: list[tuple[int, int, int] | None] = []
        c = bytearray(key)
        for p in range(len(key)):
            if c[p] >= 4:
                out.append(None)
                continue
            c[p] += 1
            out.append(self.table[bytes(c)])
            c[p] -= 1
        value = tuple(out)
        self[key] = value
        return value


_SUITED_ADD = _AddOneTable(_SUITED)
_HONOURS_ADD = _AddOneTable(_HONOURS)


def waits(counts: bytes, jokers: int = 0) -> list[Tile]:
    """Kinds that complete a 3k+1 hand (kinds already held four times excluded)."""
    keys = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    now = (_SUITED[keys[0]], _SUITED[keys[1]], _SUITED[keys[2]], _HONOURS[keys[3]])
    if (now[0][2] + now[1][2] + now[2][2] + now[3][2] + jokers) % 3 != 1:
        return []
    total0 = now[0][0] + now[1][0] + now[2][0] + now[3][0]
    ds = (now[0][1], now[1][1], now[2][1], now[3][1])
    # One more tile lowers the cost by at most one (a joker could have stood
    # for it): a hand two jokers short has no wait at all.
    if total0 + min(ds) > jokers + 1:
        return []
    out: list[Tile] = []
    for s in range(4):
        # A drawn tile changes only its own suit: the others keep their cost
        # and their best place for the pair. By the same bound, a suit whose
        # lowered costs still overspend cannot hold a wait.
        c0, d, _ = now[s]
        rest_d = min(ds[:s] + ds[s + 1 :])
        budget = jokers - total0 + c0
        if min(max(c0 + d - 1, 0), max(c0 - 1, 0) + rest_d) > budget:
            continue
        base = 9 * s
        for p, cost in enumerate((_HONOURS_ADD if s == 3 else _SUITED_ADD)[keys[s]]):
            if cost is not None and cost[0] + min(cost[1], rest_d) <= budget:
                out.append(base + p)
    return out


# A server asks the waits help of every seat at every version, and a seat that does not move
# asks it of the same tiles again and again (the seat to play asks it of each 13 tiles it could
# keep, one of which it then waits on). Pure, so kept per (counts, jokers); the least recently
# asked go first when full (~10 MB at most), never the whole memo at once.
@lru_cache(maxsize=20_000)
def waits_known(counts: bytes, jokers: int = 0) -> frozenset[Tile]:
    """`waits`, answered once per (counts, jokers) in this process."""
    return frozenset(waits(counts, jokers))


def forget_waits() -> None:
    """Empty `waits_known`'s answers (a cold pass of a benchmark; `reset_tables` does it too)."""
    waits_known.cache_clear()


# ---------------------------------------------------------------------------
# Shanten. A suit's partial-cost vector is (no_pair, with_pair): for
# m = 0..4, the fewest jokers that make m melds (and m melds + the pair) out
# of a subset of the suit's tiles, the other tiles being thrown away.

_Vector = tuple[tuple[int, ...], tuple[int, ...]]
_VECTORS: list[_Vector] = []  # id → vector
_VECTOR_IDS: dict[_Vector, int] = {}
_EMPTY: _Vector = ((0, 3, 6, 9, 12), (2, 5, 8, 11, 14))  # everything from jokers
_ID_BITS = 16  # join keys are (id_a << 16) | id_b


_INTERN_LOCK = threading.Lock()  # the server may analyse hands in several threads


def _intern(vector: _Vector) -> int:
    vid = _VECTOR_IDS.get(vector)
    if vid is not None:
        return vid
    with _INTERN_LOCK:  # reading the length and appending must be one step
        vid = _VECTOR_IDS.get(vector)
        if vid is None:
            vid = len(_VECTORS)
            if vid >= 1 << _ID_BITS:  # cannot happen: the costs are bounded by 14
                raise OverflowError("too many partial-cost vectors")
            _VECTORS.append(vector)
            _VECTOR_IDS[vector] = vid
    return vid


class _PartialTable(dict):
    """Suit key → id of its partial-cost vector; filled on first use."""

    def __init__(self, runs: bool) -> None:
        super().__init__()
        self.runs = runs

    def __missing__(self, key: bytes) -> int:
        vid = _intern(self._vector(key))
        self[key] = vid
        return vid

    def _sub(self, counts: bytearray, taken: list[int]) -> _Vector:
        for k in taken:
            counts[k] -= 1
        vector = _VECTORS[self[bytes(counts)]]
        for k in taken:
            counts[k] += 1
        return vector

    def _vector(self, key: bytes) -> _Vector:
        # The lowest tile i is either thrown away or in a group: a pung, the
        # pair, or a run that starts at i (a run with jokers below i costs the
        # same as one with the jokers above it, or as a pung of i).
        i = next((k for k, c in enumerate(key) if c), -1)
        if i < 0:
            return _EMPTY
        counts = bytearray(key)
        no_pair, with_pair = (list(v) for v in self._sub(counts, [i]))
        c = key[i]
        n = len(key)

        def take(real: list[int], cost: int, melds: int, pair: bool) -> None:
            sub0, sub1 = self._sub(counts, real)
            if pair:
                for m in range(MAX_MELDS + 1):
                    with_pair[m] = min(with_pair[m], sub0[m] + cost)
                return
            for m in range(melds, MAX_MELDS + 1):
                no_pair[m] = min(no_pair[m], sub0[m - melds] + cost)
                with_pair[m] = min(with_pair[m], sub1[m - melds] + cost)

        # (a pung of fewer copies than min(c, 3) never does better: the copy it
        # leaves out can swap places with a joker of the group it goes to)
        take([i] * min(c, 3), 3 - min(c, 3), 1, False)
        if c >= 2:
            take([i, i], 0, 0, True)
        take([i], 1, 0, True)
        if self.runs:
            if i + 2 < n and key[i + 1] and key[i + 2]:
                take([i, i + 1, i + 2], 0, 1, False)
            if i + 1 < n and key[i + 1]:
                take([i, i + 1], 1, 1, False)  # 8-9 waits on 7 (i + 2 == n)
            if i + 2 < n and key[i + 2]:
                take([i, i + 2], 1, 1, False)
        return tuple(no_pair), tuple(with_pair)


_SUITED_PARTIAL = _PartialTable(runs=True)
_HONOUR_PARTIAL = _PartialTable(runs=False)


class _JoinTable(dict):
    """(id_a << 16 | id_b) → id of the vector of two suits together."""

    def __missing__(self, key: int) -> int:
        (a0, a1), (b0, b1) = _VECTORS[key >> _ID_BITS], _VECTORS[key & ((1 << _ID_BITS) - 1)]
        r0 = [INF] * (MAX_MELDS + 1)
        r1 = [INF] * (MAX_MELDS + 1)
        for i in range(MAX_MELDS + 1):
            for j in range(MAX_MELDS + 1 - i):
                r0[i + j] = min(r0[i + j], a0[i] + b0[j])
                r1[i + j] = min(r1[i + j], a1[i] + b0[j], a0[i] + b1[j])
        vid = _intern((tuple(r0), tuple(r1)))
        self[key] = vid
        return vid


class _FinalTable(dict):
    """(id_x << 16 | id_y) → for m = 0..4, the fewest jokers for m melds + pair."""

    def __missing__(self, key: int) -> tuple[int, ...]:
        (x0, x1), (y0, y1) = _VECTORS[key >> _ID_BITS], _VECTORS[key & ((1 << _ID_BITS) - 1)]
        value = tuple(
            min(min(x0[i] + y1[m - i], x1[i] + y0[m - i]) for i in range(m + 1)) for m in range(MAX_MELDS + 1)
        )
        self[key] = value
        return value


_JOIN = _JoinTable()
_FINAL = _FinalTable()


def shanten(counts: bytes, jokers: int = 0, melds: int | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready (听牌), 1 one away, …

    `melds` (0..4) is how many melds the concealed part must still make (4
    minus the declared melds); by default it is read from the tile count.
    Like the joker rule, it does not count copies left: a hand whose only
    wait is the fifth copy of a kind it holds four of is ready here, while
    `waits` leaves that kind out.
    """
    if melds is None:
        melds = min(MAX_MELDS, (sum(counts) + jokers) // 3)
    x = _JOIN[_SUITED_PARTIAL[counts[0:9]] << _ID_BITS | _SUITED_PARTIAL[counts[9:18]]]
    y = _JOIN[_SUITED_PARTIAL[counts[18:27]] << _ID_BITS | _HONOUR_PARTIAL[counts[27:34]]]
    best = _FINAL[x << _ID_BITS | y][melds]
    return max(best - jokers, 0) - 1


class _PartialStepTable(dict):
    """Suit key → for each position, the partial-cost id of the suit with one tile more
    (`step` 1) or one fewer (`step` -1) there; None where the suit has no copy to take away.
    A hand's neighbours (one tile drawn, one thrown) then differ from it in one suit's id only."""

    def __init__(self, partial: _PartialTable, step: int) -> None:
        super().__init__()
        self.partial = partial
        self.step = step

    def __missing__(self, key: bytes) -> tuple[int | None, ...]:
        out: list[int | None] = []
        c = bytearray(key)
        for p in range(len(key)):
            if c[p] + self.step < 0:
                out.append(None)
                continue
            c[p] += self.step
            out.append(self.partial[bytes(c)])
            c[p] -= self.step
        value = tuple(out)
        self[key] = value
        return value


_SUITED_STEPS = {step: _PartialStepTable(_SUITED_PARTIAL, step) for step in (1, -1)}
_HONOUR_STEPS = {step: _PartialStepTable(_HONOUR_PARTIAL, step) for step in (1, -1)}


def shanten_each_step(counts: bytes, jokers: int, melds: int, step: int) -> tuple[int | None, ...]:
    """For every kind t, `shanten` of the hand with one more copy of t (`step` 1) or one fewer
    (`step` -1; None where the hand holds none), `melds` given. One pass over the kinds, each a
    join of the changed suit's id with the others' (the bots ask this of every hand they weigh:
    which draws lower the shanten, which discards keep it)."""
    keys = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    ids = (
        _SUITED_PARTIAL[keys[0]],
        _SUITED_PARTIAL[keys[1]],
        _SUITED_PARTIAL[keys[2]],
        _HONOUR_PARTIAL[keys[3]],
    )
    join, final = _JOIN, _FINAL
    x = join[ids[0] << _ID_BITS | ids[1]]
    y = join[ids[2] << _ID_BITS | ids[3]]
    out: list[int | None] = []
    for s in range(4):
        steps = (_HONOUR_STEPS if s == 3 else _SUITED_STEPS)[step][keys[s]]
        first = s % 2 == 0  # the changed suit is the first of its join's two ids
        partner = ids[s + 1] if first else ids[s - 1]
        for changed in steps:
            if changed is None:
                out.append(None)
                continue
            joined = join[changed << _ID_BITS | partner] if first else join[partner << _ID_BITS | changed]
            left = (final[joined << _ID_BITS | y] if s < 2 else final[x << _ID_BITS | joined])[melds] - jokers
            out.append(left - 1 if left > 0 else -1)  # as `shanten`: max(left, 0) - 1
    return tuple(out)


def seven_pairs_shanten(counts: bytes, jokers: int = 0, distinct: bool = False) -> int:
    """Shanten toward seven pairs (as `is_seven_pairs`: four alike are two
    pairs unless `distinct`)."""
    if distinct:
        pairs = sum(1 for c in counts if c >= 2)
        singles = sum(1 for c in counts if c == 1)
    else:
        pairs = sum(c // 2 for c in counts)
        singles = sum(c & 1 for c in counts)
    missing = max(7 - pairs, 0)
    # a single needs one joker to become a pair; a pair from nothing needs two
    # (with `distinct` it must be a new kind, which is always available)
    need = min(missing, singles) + 2 * max(missing - singles, 0)
    return max(need - jokers, 0) - 1


def reset_tables(combinations_only: bool = False) -> None:
    """Empty the memo tables (for cold-cache benchmarks and tests; not while
    other threads analyse hands); with `combinations_only`, only the tables
    that join suits together."""
    _JOIN.clear()
    _FINAL.clear()
    forget_waits()
    if combinations_only:
        return
    for table in (_SUITED, _HONOURS, _SUITED_ADD, _HONOURS_ADD, _SUITED_PARTIAL, _HONOUR_PARTIAL):
        table.clear()
    for steps in (*_SUITED_STEPS.values(), *_HONOUR_STEPS.values()):
        steps.clear()  # they hold vector ids, which are renumbered from here
    _VECTORS.clear()
    _VECTOR_IDS.clear()
