"""Property tests for 天津麻将 jokers (RULES §5.3) and payments (§5.5).

A hand with jokers wins exactly when some choice of tiles for its jokers
makes a plain winning hand; any win settles to zero.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine.hand import is_complete
from games.engine.scoring.context import WinContext
from games.engine.scoring.tianjin import joker_kinds, score
from games.engine.tiles import KINDS, counts_of


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
