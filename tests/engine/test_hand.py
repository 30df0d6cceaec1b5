"""Hand analysis checked against slow, obviously correct references.

The references below know nothing of the engine's tables:

- a hand is complete when some pair can be taken out and the rest falls into
  pungs and runs, found by taking the lowest tile into a pung or a run that
  starts at it (it cannot be anywhere else);
- with jokers, when some choice of a kind for every joker (all 34 kinds, for
  each joker) makes a complete hand;
- waits: the kinds (not already held four times) whose addition completes it;
- shanten: how many of the hand's tiles the best complete hand of the right
  size can keep — every other tile must be drawn (or be a joker), and the
  hand is ready (0) when one draw is missing.

Thousands of seeded random hands are built from random melds and a pair (a
random 14-tile hand is almost never complete), then some are perturbed, some
lose tiles to jokers, and some are plain random deals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from games.engine import hand
from games.engine.hand import (
    Group,
    decompositions,
    is_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    joker_cost,
    seven_pairs_shanten,
    shanten,
    shanten_each_step,
    waits,
)
from games.engine.tiles import counts_of, parse

Counts = tuple[int, ...]
KINDS = 34

# every meld shape as its three tiles: 34 pungs and 3 × 7 runs
PUNGS = [(t, t, t) for t in range(KINDS)]
RUNS = [(s + r, s + r + 1, s + r + 2) for s in (0, 9, 18) for r in range(7)]
MELDS = PUNGS + RUNS


def c_of(text: str) -> bytes:
    return counts_of(parse(text))


# ---------------------------------------------------------------------------
# The references.


def _minus(c: Counts, *tiles: int) -> Counts:
    out = list(c)
    for t in tiles:
        out[t] -= 1
    return tuple(out)


def _plus(c: Counts, tiles: tuple[int, ...]) -> Counts:
    out = list(c)
    for t in tiles:
        out[t] += 1
    return tuple(out)


@cache
def ref_melds(c: Counts) -> bool:
    """Every tile in pungs and runs: the lowest tile starts a pung or a run."""
    i = next((k for k in range(KINDS) if c[k]), -1)
    if i < 0:
        return True
    if c[i] >= 3 and ref_melds(_minus(c, i, i, i)):
        return True
    return i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0 and ref_melds(_minus(c, i, i + 1, i + 2))


def ref_complete(c: Counts) -> bool:
    """Some pair out, the rest all melds."""
    return sum(c) % 3 == 2 and any(c[p] >= 2 and ref_melds(_minus(c, p, p)) for p in range(KINDS))


def ref_complete_jokers(c: Counts, jokers: int) -> bool:
    """Some kind for every joker makes a complete hand."""
    return any(ref_complete(_plus(c, sub)) for sub in combinations_with_replacement(range(KINDS), jokers))


def ref_waits(c: Counts, jokers: int) -> list[int]:
    return [t for t in range(KINDS) if c[t] < 4 and ref_complete_jokers(_plus(c, (t,)), jokers)]


def ref_decompositions(c: Counts) -> set[tuple[Group, ...]]:
    """Every reading without jokers: the lowest tile is in the pair, a pung, or a run it starts."""
    found: set[tuple[Group, ...]] = set()

    def walk(c: Counts, paired: bool, groups: tuple[Group, ...]) -> None:
        i = next((k for k in range(KINDS) if c[k]), -1)
        if i < 0:
            if paired:
                found.add(tuple(sorted(groups)))
            return
        if not paired and c[i] >= 2:
            walk(_minus(c, i, i), True, groups + (Group("pair", i),))
        if c[i] >= 3:
            walk(_minus(c, i, i, i), paired, groups + (Group("pung", i),))
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            walk(_minus(c, i, i + 1, i + 2), paired, groups + (Group("run", i),))

    walk(c, False, ())
    return found


def _mark_jokers(groups: tuple[Group, ...], sub: tuple[int, ...]) -> set[tuple[Group, ...]]:
    """Every way to say which tiles of a joker-free reading the jokers `sub` were."""
    out: set[tuple[Group, ...]] = set()
    fills: list[list[int]] = [[] for _ in groups]

    def place(k: int) -> None:
        if k == len(sub):
            marked = []
            for g, f in zip(groups, fills, strict=True):
                if len(f) == len(g.tiles):  # nothing real left: a group of jokers alone
                    marked.append(Group("wild_pair" if g.kind == "pair" else "wild_pung", -1))
                else:
                    marked.append(Group(g.kind, g.tile, tuple(sorted(f))))
            out.add(tuple(sorted(marked)))
            return
        for gi, g in enumerate(groups):
            if g.tiles.count(sub[k]) > fills[gi].count(sub[k]):
                fills[gi].append(sub[k])
                place(k + 1)
                fills[gi].pop()

    place(0)
    return out


def ref_joker_decompositions(c: Counts, jokers: int) -> set[tuple[Group, ...]]:
    found: set[tuple[Group, ...]] = set()
    for sub in combinations_with_replacement(range(KINDS), jokers):
        for d in ref_decompositions(_plus(c, sub)):
            found |= _mark_jokers(d, sub)
    return found


def ref_kept(c: Counts, melds: int) -> int:
    """Most tiles of `c` that one complete hand of `melds` melds + a pair can keep.

    Shapes that touch none of the hand's kinds keep nothing, so only shapes
    touching it are tried; fewer shapes than `melds` means the rest keep nothing.
    """
    kinds = {t for t in range(KINDS) if c[t]}
    shapes = [m for m in MELDS if kinds.intersection(m)]
    pairs = [(t, t) for t in sorted(kinds)] + [()]
    best = 0
    for pair in pairs:
        for combo in combinations_with_replacement(shapes + [()], melds):
            left = list(c)
            kept = 0
            for shape in (pair, *combo):
                for t in shape:
                    if left[t]:
                        left[t] -= 1
                        kept += 1
            best = max(best, kept)
    return best


def ref_shanten(c: Counts, jokers: int, melds: int | None = None) -> int:
    n = sum(c) + jokers
    if melds is None:
        melds = min(4, n // 3)
    draws = max(3 * melds + 2 - jokers - ref_kept(c, melds), 0)
    return draws - 1


# ---------------------------------------------------------------------------
# Hands.


def random_meld(rng: random.Random) -> tuple[int, ...]:
    return rng.choice(RUNS) if rng.random() < 0.6 else rng.choice(PUNGS)


def built_hand(rng: random.Random, melds: int) -> list[int]:
    """`melds` random melds and a pair, at most four copies of a kind."""
    while True:
        tiles = [t for _ in range(melds) for t in random_meld(rng)] + [rng.randrange(KINDS)] * 2
        if max(Counter(tiles).values()) <= 4:
            return tiles


def perturbed(rng: random.Random, tiles: list[int], swaps: int) -> list[int]:
    out = list(tiles)
    for _ in range(swaps):
        i = rng.randrange(len(out))
        choices = [t for t in range(KINDS) if out.count(t) < 4 and t != out[i]]
        out[i] = rng.choice(choices)
    return out


def dealt(rng: random.Random, size: int) -> list[int]:
    return rng.sample([t for t in range(KINDS) for _ in range(4)], size)


def sample_hands(seed: int, count: int, jokers: int, drop: int = 0) -> Iterator[tuple[Counts, int]]:
    """(counts, jokers) of 3k+2 - drop tiles in all: 45 % built complete, 35 %
    built then perturbed, 20 % dealt at random; then `jokers` random tiles
    become jokers (so a complete hand stays complete)."""
    rng = random.Random(seed)
    for i in range(count):
        melds = rng.choice((0, 1, 2, 3, 4, 4, 4, 4))
        roll = i % 20
        if roll < 9:
            tiles = built_hand(rng, melds)
        elif roll < 16:
            tiles = perturbed(rng, built_hand(rng, melds), 1 + roll % 2)
        else:
            tiles = dealt(rng, 3 * melds + 2)
        rng.shuffle(tiles)
        keep = max(len(tiles) - jokers - drop, 0)
        yield tuple(counts_of(tiles[:keep])), min(jokers, len(tiles) - drop)


# ---------------------------------------------------------------------------
# Complete hands.


@pytest.mark.parametrize(("jokers", "count"), [(0, 4000), (1, 1500), (2, 250), (3, 30)])
def test_is_complete_agrees_with_brute_force(jokers: int, count: int) -> None:
    complete = 0
    for c, j in sample_hands(100 + jokers, count, jokers):
        expected = ref_complete_jokers(c, j)
        assert is_complete(bytes(c), j) == expected, (c, j)
        complete += expected
    # both answers are well represented
    assert count * 0.3 < complete < count * 0.9


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_hands_of_the_wrong_size_are_never_complete(jokers: int) -> None:
    for c, j in sample_hands(200 + jokers, 300, jokers, drop=1):
        assert not is_complete(bytes(c), j)
    assert not is_complete(c_of("11m"), 1)
    assert not is_complete(bytes(KINDS), 0)  # no pair


def test_is_complete_examples() -> None:
    assert is_complete(c_of("123m456p789s111z22z"))
    assert is_complete(c_of("11m"))  # only the pair (four melds declared)
    assert is_complete(c_of("11122233344455m"))  # several readings
    assert not is_complete(c_of("123m456p789s111z23z"))
    assert not is_complete(c_of("891m456p789s111z22z"))  # no run wraps 9 → 1
    assert not is_complete(c_of("123z456p789s111m22m"))  # no honour runs
    # jokers: J stands for 3m; two jokers as the pair; one as the lone pair partner
    assert is_complete(c_of("12m456p789s111z22z"), 1)
    assert is_complete(c_of("123m456p789s111z"), 2)
    assert is_complete(c_of("123m456p789s111z2z"), 1)
    assert is_complete(bytes(KINDS), 2)
    assert is_complete(bytes(KINDS), 14)
    # a joker may stand for a kind whose four copies are all in the hand
    assert is_complete(c_of("1111m"), 1)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_joker_cost_is_the_fewest_jokers(jokers: int) -> None:
    # (the brute force can afford up to three jokers)
    checked = threes = 0
    for c, _ in sample_hands(300 + jokers, 300, jokers):
        need = joker_cost(bytes(c))
        assert need % 3 == (2 - sum(c)) % 3  # the size must come out 3k+2
        if need == 3:
            threes += 1
            if threes > 12:
                continue
        if need <= 3:
            assert ref_complete_jokers(c, need), c
            checked += 1
        if 3 <= need <= 5:  # three fewer keep the size right: must not be enough
            assert not ref_complete_jokers(c, need - 3), c
    assert checked > 100


# ---------------------------------------------------------------------------
# Decompositions.


def _assert_is_a_reading(c: Counts, jokers: int, d: tuple[Group, ...]) -> None:
    """The groups and their joker fills re-make the hand exactly."""
    assert sum(g.kind in ("pair", "wild_pair") for g in d) == 1
    real: Counter[int] = Counter()
    used = 0
    for g in d:
        if g.kind.startswith("wild"):
            assert g.tile == -1 and g.jokers == ()
            used += 3 if g.kind == "wild_pung" else 2
            continue
        if g.kind == "run":
            assert g.tile < 27 and g.tile % 9 <= 6
        assert len(g.jokers) < len(g.tiles)  # at least one real tile
        left = Counter(g.tiles)
        left.subtract(g.jokers)
        assert min(left.values()) >= 0  # jokers stand for tiles of this group
        real.update(+left)
        used += len(g.jokers)
    assert used == jokers
    assert +real == Counter({t: n for t, n in enumerate(c) if n})


def test_decompositions_without_jokers_equal_the_brute_force() -> None:
    for c, _ in sample_hands(400, 1500, 0):
        found = decompositions(bytes(c))
        assert found == sorted(set(found))  # sorted, no repeats
        assert set(found) == ref_decompositions(c), c


@pytest.mark.parametrize(("jokers", "count"), [(1, 300), (2, 40)])
def test_decompositions_with_jokers_equal_the_brute_force(jokers: int, count: int) -> None:
    # brute force: substitute the jokers, read the full hand every way, and
    # mark the jokers in every group that holds their kind
    for c, j in sample_hands(500 + jokers, count, jokers):
        found = decompositions(bytes(c), j)
        assert found == sorted(set(found))
        assert set(found) == ref_joker_decompositions(c, j), (c, j)


@pytest.mark.parametrize("jokers", [0, 1, 2, 3, 4])
def test_every_decomposition_remakes_the_hand(jokers: int) -> None:
    for c, j in sample_hands(600 + jokers, 300 if jokers < 3 else 100, jokers):
        found = decompositions(bytes(c), j)
        assert bool(found) == is_complete(bytes(c), j)
        for d in found:
            _assert_is_a_reading(c, j, d)


def test_decomposition_examples() -> None:
    # 111222333m + 44m pair: three pungs, or three 123m runs
    found = decompositions(c_of("11122233344m"))
    assert (Group("pair", 3), Group("pung", 0), Group("pung", 1), Group("pung", 2)) in found
    assert (Group("pair", 3), Group("run", 0), Group("run", 0), Group("run", 0)) in found
    # 12m + joker: the joker is the 3m of a run
    assert decompositions(c_of("12m55p"), 1) == [(Group("pair", 13), Group("run", 0, (2,)))]
    # 123m + two jokers (one meld and the pair): the jokers are the pair, or
    # one joker partners a real tile in the pair and the other completes a run
    assert set(decompositions(c_of("123m"), 2)) == {
        (Group("run", 0), Group("wild_pair", -1)),
        (Group("pair", 0, (0,)), Group("run", 0, (0,))),  # 1m+J, J(1m)-2m-3m
        (Group("pair", 0, (0,)), Group("run", 1, (3,))),  # 1m+J, 2m-3m-J(4m)
        (Group("pair", 1, (1,)), Group("run", 0, (1,))),  # 2m+J, 1m-J(2m)-3m
        (Group("pair", 2, (2,)), Group("run", 0, (2,))),  # 3m+J, 1m-2m-J(3m)
    }
    assert (Group("wild_pair", -1), Group("wild_pung", -1)) in decompositions(bytes(KINDS), 5)
    assert decompositions(c_of("123m456p789s111z23z")) == []


# ---------------------------------------------------------------------------
# Waits.


@pytest.mark.parametrize(("jokers", "count"), [(0, 1500), (1, 120), (2, 6)])
def test_waits_agree_with_brute_force(jokers: int, count: int) -> None:
    ready = 0
    for c, j in sample_hands(700 + jokers, count, jokers, drop=1):
        expected = ref_waits(c, j)
        assert waits(bytes(c), j) == expected, (c, j)
        ready += bool(expected)
    assert ready > count * 0.2


def test_waits_examples() -> None:
    assert waits(c_of("123m456p789s11z23s")) == parse("1s4s")
    assert waits(c_of("1112345678999m")) == parse("123456789m")  # nine gates
    assert waits(c_of("123m456p789s111z2z")) == parse("2z")
    # the fifth 1m does not exist: 1111m2m55p waits on 3m only, and 1111m
    # beside three melds waits on nothing (though it is one tile from complete)
    assert waits(c_of("1111m2m55p")) == parse("3m")
    assert waits(c_of("1111m234p567p789s")) == []
    # one joker beside four melds: any kind completes the pair
    assert waits(c_of("123m456p789s111z"), 1) == list(range(KINDS))
    assert waits(c_of("123m456p789s111z22z")) == []  # 14 tiles: not a waiting size


# ---------------------------------------------------------------------------
# Shanten.


@pytest.mark.parametrize("jokers", [0, 1, 2])
@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8])
def test_shanten_of_small_hands_agrees_with_brute_force(size: int, jokers: int) -> None:
    rng = random.Random(size * 10 + jokers)
    for i in range(150):
        n = size - jokers
        if n < 0:
            return
        if i % 2:
            melds = (n + 1) // 3
            tiles = perturbed(rng, built_hand(rng, melds), 1 + i % 3)[:n]
        else:
            tiles = dealt(rng, n)
        c = tuple(counts_of(tiles))
        assert shanten(bytes(c), jokers) == ref_shanten(c, jokers), (c, jokers)


def test_shanten_of_one_suit_hands_agrees_with_brute_force() -> None:
    rng = random.Random(9)
    for size in (10, 11, 13, 14):
        for _ in range(4):
            tiles = rng.sample([t for t in range(9) for _ in range(4)], size)
            c = tuple(counts_of(tiles))
            assert shanten(bytes(c)) == ref_shanten(c, 0), c


def test_shanten_with_fewer_melds_agrees_with_brute_force() -> None:
    # `melds`: a hand with declared melds still needs 4 - declared of them
    rng = random.Random(11)
    for _ in range(120):
        c = tuple(counts_of(dealt(rng, 7)))
        for melds in (0, 1, 2):
            assert shanten(bytes(c), 0, melds) == ref_shanten(c, 0, melds), (c, melds)


def _regular_hands(seed: int, count: int, size: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    for i in range(count):
        if i % 4 == 0:
            tiles = dealt(rng, size)
        else:
            tiles = perturbed(rng, built_hand(rng, 4), i % 4 - 1)
            rng.shuffle(tiles)
            tiles = tiles[:size]
        yield counts_of(tiles)


@pytest.mark.parametrize("size", [13, 14])
def test_shanten_agrees_with_the_mahjong_library(size: int) -> None:
    # the regular-shape method only: seven pairs and orphans must not interfere.
    # The library also knows that a fifth copy cannot be drawn, which we do not
    # (a joker could be it), so with a kind held four times we may be one lower.
    same = 0
    for c in _regular_hands(800 + size, 3000, size):
        ours = shanten(c)
        theirs = Shanten.calculate_shanten_for_regular_hand(list(c))
        if max(c) < 4:
            assert ours == theirs, list(c)
            same += 1
        else:
            assert theirs - 1 <= ours <= theirs, list(c)
    assert same > 2500


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_shanten_minus_one_means_complete(jokers: int) -> None:
    for c, j in sample_hands(900 + jokers, 800, jokers):
        assert (shanten(bytes(c), j) == -1) == is_complete(bytes(c), j), (c, j)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_shanten_zero_means_waiting(jokers: int) -> None:
    for c, j in sample_hands(1000 + jokers, 800, jokers, drop=1):
        if max(c) == 4:
            continue  # a tile waiting on its own fifth copy is no wait
        assert (shanten(bytes(c), j) == 0) == bool(waits(bytes(c), j)), (c, j)
        assert shanten(bytes(c), j) >= 0  # 3k+1 tiles are never complete


def test_fourteen_tiles_are_as_far_as_the_best_discard() -> None:
    # a 14-tile hand is complete, or as far as its best 13-tile hand after a discard
    for c in _regular_hands(1100, 600, 14):
        if is_complete(c):
            assert shanten(c) == -1
            continue
        best = min(shanten(bytes(hand_minus), 0, 4) for hand_minus in _discards(c))
        assert shanten(c) == best


def _discards(c: bytes) -> Iterator[bytes]:
    for t in range(KINDS):
        if c[t]:
            out = bytearray(c)
            out[t] -= 1
            yield bytes(out)


def test_shanten_examples() -> None:
    assert shanten(c_of("123m456p789s111z22z")) == -1
    assert shanten(c_of("123m456p789s111z2z")) == 0
    assert shanten(c_of("123m456p789s11z23s")) == 0
    # 23z is no run: keep 3 melds + 11z + 2z (12 tiles), two draws → 1
    assert shanten(c_of("123m456p789s11z23z")) == 1
    # three melds + four lone honours: keep 9 + 1 + 1 = 11 of 14, three draws → 2
    assert shanten(c_of("123m456p789s1234z")) == 2
    # the worst hand: no two tiles within two of each other in a suit, no pair:
    # each of the four melds and the pair keeps one tile (5 of 14) → 9 draws → 8
    assert shanten(c_of("147m258p369s1234z")) == 8
    # jokers are tiles that are already right (11 tiles = three melds + pair)
    assert shanten(c_of("123m456p789s1z"), 1) == -1
    assert shanten(c_of("123m456p789s"), 2) == -1
    assert shanten(c_of("123m456p789s1z"), 0) == 0
    # with one meld declared, three to make: 78s waits on 6s/9s
    assert shanten(c_of("123m456p78s11z"), 0, 3) == 0
    assert shanten(c_of("123m456p789s11z"), 0, 3) == -1
    # more jokers than the melds asked for need: still just complete
    assert shanten(c_of("123m"), 5, 1) == -1
    # a hand whose only wait is a fifth copy still counts as ready here
    assert shanten(c_of("111234m3333s666z")) == 0
    assert waits(c_of("111234m3333s666z")) == []


@pytest.mark.parametrize(("size", "step"), [(13, 1), (14, -1)])
def test_each_step_is_the_shanten_of_the_hand_one_tile_changed(size: int, step: int) -> None:
    # the bots' one pass over a hand's neighbours (a tile drawn, a tile thrown) must agree with
    # asking `shanten` of each neighbour, jokers and declared melds included
    for i, c in enumerate(_regular_hands(2600 + size, 300, size)):
        jokers, melds = i % 3, 4 - i % 2
        each = shanten_each_step(c, jokers, melds, step)
        for t in range(KINDS):
            if c[t] + step < 0:
                assert each[t] is None
                continue
            changed = bytearray(c)
            changed[t] += step
            assert each[t] == shanten(bytes(changed), jokers, melds), (c, t)


def test_tables_rebuild_to_the_same_answers() -> None:
    hands = list(_regular_hands(1200, 200, 13))
    before = [(shanten(c), waits(c), joker_cost(c)) for c in hands]
    drawn = [shanten_each_step(c, 0, 4, 1) for c in hands[:100]]
    hand.reset_tables()
    assert [(shanten(c), waits(c), joker_cost(c)) for c in hands] == before
    assert [shanten_each_step(c, 0, 4, 1) for c in hands[:100]] == drawn
    hand.reset_tables(combinations_only=True)
    assert [shanten(c) for c in hands] == [b[0] for b in before]


# ---------------------------------------------------------------------------
# Properties (hypothesis).

suited_meld = st.sampled_from(MELDS)


@settings(max_examples=300, deadline=None)
@given(st.lists(suited_meld, max_size=4), st.integers(0, 33), st.permutations([0, 1, 2]))
def test_completeness_does_not_depend_on_which_suit_is_which(
    melds: list[tuple[int, ...]], pair: int, perm: list[int]
) -> None:
    tiles = [t for m in melds for t in m] + [pair, pair]

    def swap(t: int) -> int:
        return t if t >= 27 else perm[t // 9] * 9 + t % 9

    c = counts_of(tiles)
    swapped = counts_of([swap(t) for t in tiles])
    assert is_complete(c) and is_complete(swapped)
    assert shanten(swapped) == shanten(c) == -1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=13), st.integers(0, 2))
def test_a_joker_is_worth_at_least_any_tile(tiles: list[int], jokers: int) -> None:
    # replacing a real tile by a joker never takes the hand further from complete
    c = counts_of(tiles)
    with_joker = counts_of(tiles[1:])
    assert shanten(with_joker, jokers + 1, 4) <= shanten(c, jokers, 4)
    if is_complete(c, jokers):
        assert is_complete(with_joker, jokers + 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13))
def test_one_draw_moves_shanten_by_at_most_one(tiles: list[int]) -> None:
    c = counts_of(tiles)
    s = shanten(c)
    for t in range(KINDS):
        after = shanten(counts_of(tiles + [t]), 0, 4)
        assert s - 1 <= after <= s


# ---------------------------------------------------------------------------
# Seven pairs and thirteen orphans.

ORPHANS = parse("19m19p19s1234567z")


def test_seven_pairs_examples() -> None:
    assert is_seven_pairs(c_of("1122m3344p5566s77z"))
    assert is_seven_pairs(c_of("1122m3344p5566s7z"), 1)
    assert is_seven_pairs(c_of("1122m3344p55s"), 4)
    assert not is_seven_pairs(c_of("1122m3344p5566s17z"))
    assert not is_seven_pairs(c_of("1122m3344p5566s"), 1)  # 13 tiles
    assert not is_seven_pairs(c_of("111m22m3344p5566s7z"))
    # four alike are two pairs, unless the table asks for distinct pairs
    assert is_seven_pairs(c_of("1111m3344p5566s77z"))
    assert not is_seven_pairs(c_of("1111m3344p5566s77z"), distinct=True)
    assert is_seven_pairs(c_of("1122m3344p5566s7z"), 1, distinct=True)
    assert is_seven_pairs(c_of("1122m3344p55s6s7z"), 2, distinct=True)
    assert not is_seven_pairs(c_of("111m3344p5566s77z"), 1, distinct=True)


def _ref_seven_pairs(c: Counts, jokers: int, distinct: bool) -> bool:
    for sub in combinations_with_replacement(range(KINDS), jokers):
        full = _plus(c, sub)
        if sum(full) != 14 or any(n % 2 for n in full):
            continue
        if not distinct or max(full) <= 2:
            return True
    return False


@pytest.mark.parametrize("distinct", [False, True])
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_seven_pairs_agrees_with_brute_force(jokers: int, distinct: bool) -> None:
    rng = random.Random(jokers * 2 + distinct)
    for i in range(300):
        kinds = rng.sample(range(KINDS), 7)
        tiles = [t for k in kinds for t in (k, k)]
        if i % 3 == 1:
            tiles[0] = tiles[2]  # four alike
        if i % 3 == 2:
            tiles = perturbed(rng, tiles, 1)
        rng.shuffle(tiles)
        c = tuple(counts_of(tiles[jokers:]))
        assert is_seven_pairs(bytes(c), jokers, distinct) == _ref_seven_pairs(c, jokers, distinct)


def _ref_seven_pairs_shanten(c: Counts, jokers: int, distinct: bool) -> int:
    """Draws needed, from the most tiles that seven pairs can keep."""
    if distinct:  # seven kinds, each keeps up to two tiles
        kept = sum(sorted((min(n, 2) for n in c), reverse=True)[:7])
    else:
        # seven pairs handed out one at a time: a pair of two held copies keeps
        # two tiles, a pair built on an odd copy keeps one, any other none
        gains = sorted([2] * sum(n // 2 for n in c) + [1] * sum(n % 2 for n in c), reverse=True)
        kept = sum(gains[:7])
    return max(14 - jokers - kept, 0) - 1


def test_seven_pairs_shanten_agrees_with_the_library_for_distinct_pairs() -> None:
    rng = random.Random(13)
    for _ in range(2000):
        c = counts_of(dealt(rng, rng.choice((13, 14))))
        expected = Shanten.calculate_shanten_for_chiitoitsu_hand(list(c))
        assert seven_pairs_shanten(c, 0, distinct=True) == expected
        assert seven_pairs_shanten(c, 0, distinct=True) == _ref_seven_pairs_shanten(tuple(c), 0, True)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_seven_pairs_shanten(jokers: int) -> None:
    rng = random.Random(17 + jokers)
    for _ in range(1000):
        c = counts_of(dealt(rng, rng.choice((13, 14)) - jokers))
        s = seven_pairs_shanten(c, jokers)
        assert s == _ref_seven_pairs_shanten(tuple(c), jokers, False)
        assert (s == -1) == is_seven_pairs(c, jokers)
    # four alike are two pairs: 1111m22m33m44m55m6m waits on 6m
    assert seven_pairs_shanten(c_of("1111m2233445566m")) == -1
    assert seven_pairs_shanten(c_of("1111m22334455m6m")) == 0
    assert seven_pairs_shanten(c_of("1111m22334455m6m"), distinct=True) == 2  # keeps 11 of 14
    assert seven_pairs_shanten(c_of("11m22p33s44z55z6z"), 3) == -1


def test_thirteen_orphans_examples() -> None:
    assert is_thirteen_orphans(c_of("19m19p19s12345677z"))
    assert is_thirteen_orphans(c_of("119m19p19s1234567z"))
    assert not is_thirteen_orphans(c_of("19m19p19s1234567z"))  # 13 tiles
    assert not is_thirteen_orphans(c_of("119m19p19s1234566z"))  # two pairs, 7z missing
    assert not is_thirteen_orphans(c_of("29m19p19s12345677z"))  # 2m is no orphan
    assert is_thirteen_orphans(c_of("19m19p19s1234567z"), 1)  # the joker is the pair
    assert is_thirteen_orphans(c_of("19m19p19s123456z"), 2)
    assert is_thirteen_orphans(c_of("9m19p19s1234567z"), 2)
    assert is_thirteen_orphans(c_of("19m19p19s12345z"), 3)
    assert not is_thirteen_orphans(c_of("111m9m19p19s12345z"), 1)  # three alike


def _ref_thirteen_orphans(c: Counts, jokers: int) -> bool:
    for sub in combinations_with_replacement(ORPHANS, jokers):
        full = _plus(c, sub)
        # all thirteen, nothing else, one of them twice
        orphans_only = sum(full) == sum(full[t] for t in ORPHANS) == 14
        if orphans_only and all(full[t] >= 1 for t in ORPHANS) and max(full) == 2:
            return True
    return False


@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_thirteen_orphans_agrees_with_brute_force(jokers: int) -> None:
    rng = random.Random(19 + jokers)
    hits = 0
    for i in range(400):
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
        if i % 4 == 1:
            tiles = perturbed(rng, tiles, 1)
        if i % 4 == 2:
            tiles[rng.randrange(14)] = rng.choice(ORPHANS)
        rng.shuffle(tiles)
        c = tuple(counts_of(tiles[jokers:]))
        expected = _ref_thirteen_orphans(c, jokers)
        assert is_thirteen_orphans(bytes(c), jokers) == expected, (c, jokers)
        hits += expected
    assert 100 < hits < 390


def test_waits_known_is_waits_kept_per_tiles_and_jokers() -> None:
    hand.forget_waits()
    rng = random.Random(7)
    for _ in range(300):
        tiles = rng.sample([t for t in range(34) for _ in range(4)], 13)
        c = bytes(Counter(tiles).get(t, 0) for t in range(34))
        jokers = rng.choice((0, 0, 1))
        assert hand.waits_known(c, jokers) == frozenset(hand.waits(c, jokers))
        assert hand.waits_known(c, jokers) is hand.waits_known(c, jokers)  # answered once
    ready = c_of("123m456m789m123p5p")
    kept = hand.waits_known(ready)
    assert kept == {parse("5p")[0]} and hand.waits_known(ready) is kept
    hand.forget_waits()
    assert hand.waits_known(ready) is not kept  # answered afresh
