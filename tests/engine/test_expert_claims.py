"""expert's answers to a discard raced over its own draws (claims.py): blind, the same orders for
pass and every call, strong's answer unless a call or a pass is clearly better, and the level
`expert_trial` that seats the change beside the kept expert."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import games.engine.bots as bots
from games.engine.actions import Action, legal_actions
from games.engine.bots import PlayerView, search
from games.engine.bots.claims import race_claim, start_after
from games.engine.bots.own_draws import RaceBudget, Start, race_starts
from games.engine.bots.policies import PASS, strong
from games.engine.bots.seen import OtherSeat
from games.engine.tiles import parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import reshuffle_hidden
from tests.engine.threats import strong_claim_windows, turn_view

FIXED = RaceBudget(samples=24, time_ms=None)


def _quiet() -> tuple[OtherSeat, ...]:
    return tuple(OtherSeat(s, tuple(parse("1z2z3z")), (), 0, 0, False, hand_count=13) for s in (1, 2, 3))


def _offered(hand: str, discard: str, by: int, wall_left: int = 74) -> PlayerView:
    """Seat 0's view when seat `by` has just thrown `discard` (Shanghai, the others quiet)."""
    view = turn_view("shanghai", hand, _quiet(), wall_left)
    return replace(view, phase="claim", last_discard=(by, tile(discard), "discard"))


@pytest.mark.parametrize("variant", ["shanghai", "yihua"])
def test_the_claim_race_ignores_hidden_tiles(variant: str) -> None:
    windows = strong_claim_windows(variant, range(3), deal_from=300)[:12]
    assert windows
    for i, (state, seat) in enumerate(windows):
        other = reshuffle_hidden(state, seat, i)
        assert view_for(other, seat) == view_for(state, seat)
        answers = []
        for s in (state, other):
            view = PlayerView.of(view_for(s, seat, hints=False))
            legal = legal_actions(s, seat)
            answers.append(
                race_claim(view, legal, strong(view, legal, random.Random(1)), random.Random(1), FIXED)
            )
        assert answers[0] == answers[1]


def test_pass_and_every_call_meet_the_same_orders() -> None:
    """Two starts from the same hand score the same on every order; a seat that draws first
    (the discard came from the seat just before it) has one more draw to complete with."""
    view = _offered("2m3m4m6m7m3p4p5p7s8s5z5z1z", "5z", by=2)
    hand = bytearray(view.hand)
    hand[tile("1z")] -= 1
    hand[tile("9m")] += 1
    same = Start(view, bytes(hand), frozenset())
    first = Start(view, bytes(hand), frozenset(), draw_first=True)
    a, b, c = race_starts(view, [same, same, first], random.Random(3), FIXED, 0.0)
    assert a == b
    assert sum(c) >= sum(a)


def test_a_dragon_pong_at_the_same_distance_wins_more_in_the_race() -> None:
    """One from ready either way: passing keeps 5z5z as the pair, the pong lays the red dragon
    (two flowers in Shanghai) and throws the lone 1z. strong sees no gain in speed and passes;
    the race counts the wins the pong's flowers add and calls it."""
    view = _offered("2m3m4m6m7m3p4p5p7s8s5z5z1z", "5z", by=2)
    pong = Action("pong", tile("5z"))
    legal = [PASS, pong]
    assert strong(view, legal, random.Random(1)) == PASS
    budget = RaceBudget(samples=400, time_ms=None)
    starts = [s for s in (start_after(view, a) for a in legal) if s is not None]
    passing, calling = race_starts(view, starts, random.Random(7), budget, 0.0)
    assert sum(calling) > sum(passing)


def test_a_hand_too_far_from_ready_is_left_to_strong() -> None:
    view = _offered("1m4m7m2p5p8p3s6s9s1z2z5z5z", "5z", by=2)
    legal = [PASS, Action("pong", tile("5z"))]
    base = strong(view, legal, random.Random(1))
    assert race_claim(view, legal, base, random.Random(1), FIXED) == base


def test_without_orders_strong_answers() -> None:
    view = _offered("2m3m4m6m7m3p4p5p7s8s5z5z1z", "5z", by=2)
    legal = [PASS, Action("pong", tile("5z"))]
    none = RaceBudget(samples=0, time_ms=None)
    assert race_claim(view, legal, PASS, random.Random(1), none) == PASS


def test_the_kept_expert_does_not_race_its_claims() -> None:
    assert not search.CLAIMS_RACED
    view = _offered("2m3m4m6m7m3p4p5p7s8s5z5z1z", "5z", by=2)
    legal = [PASS, Action("pong", tile("5z"))]
    for seed in range(8):
        assert search.expert(view, legal, random.Random(seed)) == strong(view, legal, random.Random(seed))


def test_expert_trial_is_a_level_only_when_a_change_is_named() -> None:
    assert "expert_trial" not in bots.LEVELS  # the environment names no change here
    levels, table = bots.with_trial("claims", bots.LEVELS, bots.BOTS)
    assert levels == (*bots.LEVELS, "expert_trial")
    assert table["expert_trial"] is search.expert_racing_claims
    assert table["expert"] is bots.BOTS["expert"]
    assert bots.with_trial("", bots.LEVELS, bots.BOTS) == (bots.LEVELS, bots.BOTS)
    assert bots.with_trial("unknown", bots.LEVELS, bots.BOTS) == (bots.LEVELS, bots.BOTS)
