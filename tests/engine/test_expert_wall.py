"""Two-player outs counted on the copies likely left in the wall (opponent_hand.py): an honour the
one opponent threw is nearly all in the wall, the counts add up to the opponent's hand, strong's
discards change by the reading, and the level that uses it stays blind."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Action
from games.engine.bots import decide, search
from games.engine.bots.opponent_hand import HELD, SCALE, feature, wall_counts
from games.engine.bots.policies import strong, strong_reading_the_wall
from games.engine.bots.seen import OtherSeat, PlayerView, unseen_pool
from games.engine.tiles import KINDS, parse, tile
from tests.engine.test_bots import expert_blind_and_departing
from tests.engine.threats import strong_turns, turn_view


def _view(hand: str, discards: str, variant: str = "two_player") -> PlayerView:
    opponent = OtherSeat(1, tuple(parse(discards)), (), 0, 0, False, hand_count=13)
    return turn_view(variant, hand, (opponent,), wall_left=30)


def _discards(view: PlayerView) -> list[Action]:
    return [Action("discard", t) for t in range(KINDS) if view.hand[t]]


def test_an_honour_the_opponent_threw_is_hardly_ever_in_its_hand() -> None:
    thrown = {tile("7z")}
    assert HELD[feature(tile("7z"), thrown, 1)] < 0.02
    assert HELD[feature(tile("4z"), thrown, 1)] > 0.2
    # a 万 beside one it threw is held less often than one far from its throws
    assert HELD[feature(tile("5m"), {tile("6m")}, 1)] < HELD[feature(tile("5m"), {tile("9m")}, 1)]


def test_wall_counts_take_the_opponents_hand_out_of_the_unseen() -> None:
    view = _view("3m3m4m5m5m7m8m8m9m2z2z4z5z7z", "3z6z6z7z")
    wall = wall_counts(view)
    pool = unseen_pool(view)
    # the thrown honour keeps nearly every unseen copy, the unthrown one about three quarters
    assert wall[tile("7z")] >= pool[tile("7z")] * SCALE - 1
    assert wall[tile("4z")] < pool[tile("4z")] * SCALE * 0.8
    # what was taken out is the opponent's 13 tiles (to rounding)
    taken = sum(pool[t] * SCALE - wall[t] for t in range(KINDS) if pool[t])
    assert abs(taken - 13 * SCALE) <= 8
    # kinds outside two-player's set keep the view's count, scaled
    assert wall[tile("5p")] == view.unseen[tile("5p")] * SCALE


def test_reading_the_wall_keeps_the_honour_whose_pair_is_in_the_wall() -> None:
    # three lone honours to throw: strong throws the 7z, of which 2 copies are unseen against 3
    # of 4z and 5z; but the opponent threw a 7z, so both its other copies are in the wall, while
    # with eight tiles in its river it holds two fifths of the copies of an honour it never threw
    # — the reading keeps the 7z and throws the 4z
    view = _view("3m3m4m5m5m7m8m8m9m2z2z4z5z7z", "3z6z6z7z1m1m9m9m")
    legal = _discards(view)
    assert strong(view, legal, random.Random(0)).tile == tile("7z")
    assert strong_reading_the_wall(view, legal, random.Random(0)).tile == tile("4z")


def test_other_variants_play_strong() -> None:
    view = _view("3m3m4m5m5m7m8m8m9m2z2z4z5z7z", "3z6z6z7z", variant="cantonese")
    legal = _discards(view)
    assert strong_reading_the_wall(view, legal, random.Random(0)) == strong(view, legal, random.Random(0))


def test_expert_reading_the_wall_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched on for two-player: re-dealing every tile the seat cannot see leaves expert's
    move unchanged, and over these turns it does leave strong's somewhere (the reading bites)."""
    monkeypatch.setattr(search, "WALL_READ", frozenset({"two_player"}))
    counts = [
        expert_blind_and_departing(strong_turns("two_player", seed, every=1), seed)
        for seed in range(300, 330)
    ]
    assert sum(c for c, _ in counts) and sum(d for _, d in counts)


def test_expert_is_strong_in_two_player_while_the_reading_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "WALL_READ", frozenset())
    for state, seat in strong_turns("two_player", 309, every=1):
        assert decide("expert", state, seat, random.Random(1)) == decide(
            "strong", state, seat, random.Random(1)
        )
