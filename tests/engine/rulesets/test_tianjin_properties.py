"""Property tests for 天津麻将 jokers (RULES §5.3) and payments (§5.5).

A hand with jokers wins exactly when some choice of tiles for its jokers
makes a plain winning hand; any win settles to zero.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, product

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine.hand import decompositions, is_complete
from games.engine.scoring.context import WinContext
from games.engine.scoring.tianjin import joker_kinds, score, split_jokers
from games.engine.tiles import KINDS, counts_of, tile


@st.composite
def _fourteen(draw: st.DrawFn) -> list[int]:
    # distinct kinds for the pungs and the pair keep most hands legal
    kinds = draw(st.lists(st.integers(0, 33), min_size=5, max_size=5, unique=True))
    tiles: list[int] = []
    for k in kinds[:4]:
        if draw(st.booleans()):
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            tiles += [suit * 9 + start + j for j in range(3)]
        else:
            tiles += [k] * 3
    return tiles + [kinds[4]] * 2


def complete_hands() -> st.SearchStrategy[list[int]]:
    """Fourteen tiles: four runs/pungs and a pair, at most four of a kind."""
    return _fourteen().filter(lambda tiles: max(Counter(tiles).values()) <= 4)


def _ctx(tiles: list[int], win_index: int, jokers: tuple[int, int], **kw: object) -> WinContext:
    concealed = list(tiles)
    win = concealed.pop(win_index % len(concealed))
    return WinContext(variant="tianjin", concealed=tuple(concealed), win_tile=win, jokers=jokers, **kw)


def _legal(tiles: list[int]) -> bool:
    return max(Counter(tiles).values()) <= 4


@settings(max_examples=200, deadline=None)
@given(complete_hands(), st.integers(0, 33), st.data())
def test_replacing_tiles_by_jokers_keeps_a_win(tiles: list[int], indicator: int, data: st.DataObject) -> None:
    jokers = joker_kinds(indicator)
    n = data.draw(st.integers(0, 4))
    positions = data.draw(st.lists(st.integers(0, 13), min_size=n, max_size=n, unique=True))
    hand = list(tiles)
    for i in positions:
        hand[i] = data.draw(st.sampled_from(jokers))
    assume(_legal(hand))
    out = score(_ctx(hand, data.draw(st.integers(0, 13)), jokers))
    assert out.win


def _plain_win_by_substitution(hand: list[int], jokers: tuple[int, int]) -> bool:
    plain = [t for t in hand if t not in jokers]
    n = len(hand) - len(plain)
    base = counts_of(plain)
    for kinds in product(range(KINDS), repeat=n):
        c = bytearray(base)
        for k in kinds:
            c[k] += 1
        if is_complete(bytes(c)):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(complete_hands(), st.integers(0, 33), st.data())
def test_joker_hand_wins_iff_some_substitution_wins(
    tiles: list[int], indicator: int, data: st.DataObject
) -> None:
    # a near-complete hand: up to two tiles become jokers, and maybe one tile changes
    jokers = joker_kinds(indicator)
    hand = list(tiles)
    for i in data.draw(st.lists(st.integers(0, 13), max_size=2, unique=True)):
        hand[i] = data.draw(st.sampled_from(jokers))
    if data.draw(st.booleans()):
        hand[data.draw(st.integers(0, 13))] = data.draw(st.integers(0, 33))
    assume(_legal(hand) and sum(t in jokers for t in hand) <= 2)
    out = score(_ctx(hand, data.draw(st.integers(0, 13)), jokers))
    assert out.win == _plain_win_by_substitution(hand, jokers)


@settings(max_examples=200, deadline=None)
@given(
    complete_hands(),
    st.integers(0, 33),
    st.data(),
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.sampled_from([1, 2, 5]),
)
def test_every_win_settles_to_zero(
    tiles: list[int],
    indicator: int,
    data: st.DataObject,
    seat: int,
    dealer: int,
    zuozhuang: bool,
    lazhuang: list[int],
    base: int,
) -> None:
    jokers = joker_kinds(indicator)
    ctx = _ctx(
        tiles,
        data.draw(st.integers(0, 13)),
        jokers,
        seat=seat,
        dealer=dealer,
        zuozhuang=zuozhuang,
        lazhuang=tuple(lazhuang),
        base=base,
        after_kong=data.draw(st.booleans()),
    )
    out = score(ctx)
    assert out.win and sum(out.payments) == 0
    # value is a power of two: 1 × the doublings (×4 counts as two)
    assert out.value & (out.value - 1) == 0 and out.value <= 2 * 2 * 2 * 4 * 2
    others = [s for s in range(4) if s != seat]
    assert all(out.payments[s] <= -out.value * base for s in others)


# ---------------------------------------------------------------------------
# The best reading, checked against an independent oracle: every decomposition
# of the hand (hand.decompositions, jokers included), every all-joker meld read
# as any run, the value of each reading computed from the runs it holds.


def _oracle_value(ctx: WinContext) -> int:
    plain, n = split_jokers(ctx.hand_tiles, ctx.jokers)
    fixed = 1
    if not any(t in ctx.jokers for t in ctx.hand_tiles):
        fixed *= 2  # clean
    if ctx.after_kong:
        fixed *= 2
    best = 0
    win_joker = ctx.win_tile in ctx.jokers
    for groups in decompositions(plain, n):
        runs = [(g.tile, g.jokers) for g in groups if g.kind == "run"]
        wild = sum(1 for g in groups if g.kind == "wild_pung")
        starts = (None, *range(0, 7), *range(9, 16), *range(18, 25))
        for extra in combinations_with_replacement(starts, wild):
            all_runs = runs + [(s, (s, s + 1, s + 2)) for s in extra if s is not None]
            low = [s for s, _ in all_runs]
            dragon = any(all(x in low for x in (b, b + 3, b + 6)) for b in (0, 9, 18))
            five = tile("5m")
            catch = any(
                s == five - 1
                and ((five in fill) if win_joker else (ctx.win_tile == five and five not in fill))
                for s, fill in all_runs
            )
            best = max(best, fixed * (4 if dragon else 1) * (2 if catch else 1))
    return best


@st.composite
def dragon_hands(draw: st.DrawFn) -> list[int]:
    """A dragon of one suit (or 4m-5m-6m and a run), one more group and a pair."""
    suit = draw(st.integers(0, 2))
    tiles = [suit * 9 + k for k in range(9)] if draw(st.booleans()) else [3, 4, 5, 18, 19, 20, 9, 10, 11]
    t = draw(st.integers(0, 33))
    tiles += [t] * 3
    tiles += [draw(st.integers(0, 33))] * 2
    return tiles


@settings(max_examples=250, deadline=None)
@given(dragon_hands() | complete_hands(), st.integers(0, 33), st.data())
def test_best_value_matches_the_oracle(tiles: list[int], indicator: int, data: st.DataObject) -> None:
    jokers = joker_kinds(indicator)
    hand = list(tiles)
    for i in data.draw(st.lists(st.integers(0, 13), max_size=4, unique=True)):
        hand[i] = data.draw(st.sampled_from(jokers))
    assume(_legal(hand))
    ctx = _ctx(hand, data.draw(st.integers(0, 13)), jokers, after_kong=data.draw(st.booleans()))
    out = score(ctx)
    assert out.win
    # joker_wait is read on the 13 tiles before the win, not on a reading: take it out
    value = out.value // (2 if "joker_wait" in out.patterns else 1)
    assert value == _oracle_value(ctx)
