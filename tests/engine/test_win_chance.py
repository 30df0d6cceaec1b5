"""The exact win chance over a hand's own draws (win_chance.py): the chances a hand can be worked
out for by hand, more copies of a wait worth more, never above 1, and the level that uses it
blind."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from games.engine.actions import Action, legal_actions
from games.engine.bots import search, win_chance
from games.engine.bots.policies import strong
from games.engine.bots.seen import OtherSeat, PlayerView
from games.engine.bots.shape import distance
from games.engine.bots.win_chance import (
    FAR_STATES,
    Race,
    chances,
    strong_by_win_chance,
    strong_by_win_chance_far,
    strong_claiming_by_win_chance,
)
from games.engine.tiles import HONOR, KINDS, counts_of, parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import (
    departures_from_strong,
    reshuffle_hidden,
    two_player_expert_blind_and_departing,
)
from tests.engine.threats import strong_claim_windows, turn_view

TWO_PLAYER_KINDS = (*range(9), *range(HONOR, KINDS))


def _unseen(**copies: int) -> bytes:
    """Unseen copies by tile name ('z5': 3 is 5z), every other kind 0."""
    u = bytearray(KINDS)
    for name, n in copies.items():
        u[tile(name[1:] + name[0])] = n
    return bytes(u)


def test_a_ready_hand_completes_as_the_draws_say() -> None:
    # 123m 456m 789m 1z1z1z and a lone 5z: throwing the 6z leaves a single wait with 3 copies
    root = counts_of(parse("123456789m1115z6z"))
    unseen = _unseen(z5=3, z2=4, m1=3, m5=2)
    n = sum(unseen)
    p = 3 / n
    got = chances(Race(unseen, root, 0, turns=3), [tile("6z")])
    assert got is not None
    assert got[tile("6z")] == pytest.approx(1 - (1 - p) ** 3)


def test_a_hand_one_from_ready_gets_the_hand_computed_chance() -> None:
    # three melds laid; concealed 1z1z 5z 7z and a drawn 3z. Thrown, the 3z leaves a hand one from
    # ready whose improving draws are 1z (then a single wait on 5z or 7z: 3 copies), 5z (then
    # 1z and 5z pairs: 2 + 2 copies) and 7z (1z and 7z: 2 + 2); with two draws left the hand
    # completes only on an improving draw and then the wait
    root = counts_of(parse("11357z"))
    unseen = _unseen(z1=2, z5=3, z7=3, z3=3, m2=4)
    n = sum(unseen)
    want = (2 / n) * (3 / n) + (3 / n) * (4 / n) + (3 / n) * (4 / n)
    got = chances(Race(unseen, root, 3, turns=2), [tile("3z")])
    assert got is not None
    assert got[tile("3z")] == pytest.approx(want)
    # one draw left: it cannot complete
    once = chances(Race(unseen, root, 3, turns=1), [tile("3z")])
    assert once is not None and once[tile("3z")] == 0.0


def test_no_draws_left_is_worth_nothing() -> None:
    root = counts_of(parse("123456789m1115z6z"))
    got = chances(Race(_unseen(z5=3), root, 0, turns=0, survive=(0.9, 0.8)), [tile("6z")])
    assert got == {tile("6z"): 0.0}


def test_more_unseen_copies_of_the_wait_complete_more_often() -> None:
    root = counts_of(parse("123456789m1115z6z"))
    few = chances(Race(_unseen(z5=1, z2=6), root, 0, turns=8), [tile("6z")])
    many = chances(Race(_unseen(z5=3, z2=4), root, 0, turns=8), [tile("6z")])
    assert few is not None and many is not None
    assert many[tile("6z")] > few[tile("6z")]


def test_the_opponent_finishing_first_and_its_throws_enter() -> None:
    root = counts_of(parse("123456789m1115z6z"))
    unseen = _unseen(z5=3, z2=4, m1=3, m5=2)
    alone = chances(Race(unseen, root, 0, turns=6), [tile("6z")])
    raced = chances(Race(unseen, root, 0, turns=6, survive=(0.9, 0.7, 0.5, 0.3, 0.2, 0.1)), [tile("6z")])
    # a discard win paid as a self-draw adds chances; paid a third, it takes the place of self-draws
    thrown = chances(Race(unseen, root, 0, turns=6, throw=0.5, discard_pay=1.0), [tile("6z")])
    cheap = chances(Race(unseen, root, 0, turns=6, throw=0.5, discard_pay=0.35), [tile("6z")])
    assert alone is not None and raced is not None and thrown is not None and cheap is not None
    assert raced[tile("6z")] < alone[tile("6z")] < thrown[tile("6z")]
    assert cheap[tile("6z")] < alone[tile("6z")]


def test_the_chance_never_exceeds_one() -> None:
    for seed in range(12):
        wall = [t for t in TWO_PLAYER_KINDS for _ in range(4)]
        random.Random(seed).shuffle(wall)
        root = counts_of(wall[:14])
        unseen = bytes(4 - root[t] if t in TWO_PLAYER_KINDS else 0 for t in range(KINDS))
        race = Race(unseen, root, 0, turns=14, throw=1.0, discard_pay=1.0, max_states=800)
        got = chances(race, [t for t in range(KINDS) if root[t]])
        if got is None:
            continue
        assert all(0.0 <= v <= 1.0 + 1e-12 for v in got.values())


def test_over_budget_it_gives_up_and_strongs_discard_stands() -> None:
    root = counts_of(parse("1358m2469m13567z"))  # far from ready: many hands within reach
    unseen = bytes(4 - root[t] if t in TWO_PLAYER_KINDS else 0 for t in range(KINDS))
    assert chances(Race(unseen, root, 0, turns=14, max_states=10), [tile("1z")]) is None


def _view(hand: str) -> PlayerView:
    opponent = OtherSeat(1, tuple(parse("3z6z")), (), 0, 0, False, hand_count=13)
    return turn_view("two_player", hand, (opponent,), wall_left=30)


def test_it_departs_from_strong_only_among_the_fastest_discards() -> None:
    view = _view("1m2m4m5m6m7m9m9m1z1z2z2z6z7z")
    legal = [Action("discard", t) for t in range(KINDS) if view.hand[t]]
    mine = strong_by_win_chance(view, legal, random.Random(0))
    base = strong(view, legal, random.Random(0))
    assert mine.type == "discard" and mine.tile is not None and base.tile is not None
    # whichever it throws keeps the hand as close to ready as strong's choice
    after = bytearray(view.hand)
    after[mine.tile] -= 1
    kept = bytearray(view.hand)
    kept[base.tile] -= 1
    assert distance(bytes(after), 0, ()) == distance(bytes(kept), 0, ())


def test_other_variants_play_strong() -> None:
    view = turn_view("cantonese", "1m2m4m5m6m7m9m9m1z1z2z2z6z7z", (), wall_left=30)
    legal = [Action("discard", t) for t in range(KINDS) if view.hand[t]]
    assert strong_by_win_chance(view, legal, random.Random(0)) == strong(view, legal, random.Random(0))


def test_expert_by_win_chance_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched on for two-player: re-dealing every tile the seat cannot see leaves expert's move
    unchanged, and over these turns it does leave strong's somewhere (the look-ahead bites)."""
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset({"two_player"}))
    monkeypatch.setattr(win_chance, "TIME_MS", None)  # the budget on states alone: reproducible
    compared, departed = two_player_expert_blind_and_departing(range(300, 312))
    assert compared and departed


def test_expert_is_strong_in_two_player_while_the_win_chance_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset())
    assert departures_from_strong("two_player", 309) == 0


def test_its_answers_to_a_discard_ignore_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-dealing every tile the seat cannot see leaves its chi, pong or pass unchanged, and over
    these windows it does answer otherwise than strong somewhere."""
    monkeypatch.setattr(win_chance, "TIME_MS", None)
    departed = 0
    for i, (state, seat) in enumerate(strong_claim_windows("two_player", range(300, 312))):
        other = reshuffle_hidden(state, seat, i)
        moves = [
            strong_claiming_by_win_chance(
                PlayerView.of(view_for(s, seat, hints=False)), legal_actions(s, seat), random.Random(1)
            )
            for s in (state, other)
        ]
        assert moves[0] == moves[1]
        view = PlayerView.of(view_for(state, seat, hints=False))
        departed += moves[0] != strong(view, legal_actions(state, seat), random.Random(1))
    assert departed


def _brute_force(root: bytes, melds: int, unseen: bytes) -> Callable[[bytes, int], float]:
    """The same model worked out the long way: every kind tried at every draw, distances from
    `distance` alone (none of the look-ahead's memoised graph), no opponent."""
    total = sum(unseen)

    @cache
    def worth(hand: bytes, t: int) -> float:
        if t == 0:
            return 0.0
        now = distance(hand, melds, ())
        value, stay = 0.0, 1.0
        for k in range(KINDS):
            u = max(0, unseen[k] - max(0, hand[k] - root[k]))
            if not u:
                continue
            c = bytearray(hand)
            c[k] += 1
            if now == 0:
                kids = [] if distance(bytes(c), melds, ()) >= 0 else [None]
            else:
                kids = [kid for kid in _each_discard(bytes(c)) if distance(kid, melds, ()) < now]
            if kids:
                stay -= u / total
                value += u / total * max(1.0 if kid is None else worth(kid, t - 1) for kid in kids)
        return value + stay * worth(hand, t - 1)

    return worth


def _each_discard(hand: bytes) -> list[bytes]:
    out = []
    for d in range(KINDS):
        if hand[d]:
            c = bytearray(hand)
            c[d] -= 1
            out.append(bytes(c))
    return out


@pytest.mark.parametrize("turns", [4, 5, 6])
def test_three_from_ready_the_chance_is_the_brute_force_figure(turns: int) -> None:
    # two melds laid; concealed 1z1z 3z 5z 7z 1m 5m and a drawn 9m: thrown, the 9m leaves a hand
    # three from ready (a pair, and two melds to make out of singles)
    root = counts_of(parse("1z1z3z5z7z1m5m9m"))
    unseen = _unseen(z1=2, z3=3, z5=2, z7=3, m1=3, m2=2, m3=1, m6=2, m9=3, z2=4)
    left = bytearray(root)
    left[tile("9m")] -= 1
    assert distance(bytes(left), 2, ()) == 3
    got = chances(Race(unseen, root, 2, turns=turns, max_states=FAR_STATES), [tile("9m")])
    assert got is not None
    assert got[tile("9m")] == pytest.approx(_brute_force(root, 2, unseen)(bytes(left), turns), rel=1e-12)
    if turns == 4:  # four draws from three away: every one must improve the hand
        assert 0.0 < got[tile("9m")] < (sum(unseen) - 4) / sum(unseen) * 0.1


# three from ready: strong throws the 1m; from this far the chance prefers the 5z
FAR = "1m3m4m6m7m9m2z2z3z3z4z4z5z7z"


def test_from_three_away_it_departs_and_over_budget_strongs_discard_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(win_chance, "TIME_MS", None)
    view = _view(FAR)
    legal = [Action("discard", t) for t in range(KINDS) if view.hand[t]]
    base = strong(view, legal, random.Random(0))
    assert base.tile == tile("1m")
    assert strong_by_win_chance(view, legal, random.Random(0)) == base  # the kept reach: 1–2 away
    far = strong_by_win_chance_far(view, legal, random.Random(0))
    assert far.tile == tile("5z")
    monkeypatch.setattr(win_chance, "FAR_STATES", 100)  # fewer hands than are within reach
    assert strong_by_win_chance_far(view, legal, random.Random(0)) == base
    monkeypatch.setattr(win_chance, "FAR_STATES", 5000)
    monkeypatch.setattr(win_chance, "TIME_MS", 0.0)  # the clock already out
    assert strong_by_win_chance_far(view, legal, random.Random(0)) == base


def test_expert_by_the_chance_from_three_away_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset({"two_player"}))
    monkeypatch.setattr(search, "strong_by_win_chance", strong_by_win_chance_far)
    monkeypatch.setattr(win_chance, "TIME_MS", None)
    compared, departed = two_player_expert_blind_and_departing(range(300, 306))
    assert compared and departed
