"""Two-player outs counted on the copies likely left in the wall (opponent_hand.py): an honour the
one opponent threw is nearly all in the wall, the counts add up to the opponent's hand, strong's
discards change by the reading, and the level that uses it stays blind. And two-player's unseen
counts kept within its set, so the hold-out's self-draw chance reads copies that exist."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import decide, search
from games.engine.bots.opponent_hand import HELD, SCALE, feature, feeding, wall_counts
from games.engine.bots.policies import (
    strong,
    strong_counting_the_set,
    strong_feeding_least,
    strong_reading_the_wall,
)
from games.engine.bots.seen import OtherSeat, PlayerView, unseen_pool
from games.engine.state import HandState
from games.engine.tiles import KINDS, parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import (
    departures_from_strong,
    reshuffle_hidden,
    two_player_expert_blind_and_departing,
)
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
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset())  # this lever alone
    compared, departed = two_player_expert_blind_and_departing(range(300, 330))
    assert compared and departed


def test_expert_is_strong_in_two_player_while_the_reading_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "WALL_READ", frozenset())
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset())  # on by default in two-player
    assert departures_from_strong("two_player", 309) == 0


def _claim_window(seed: int, step: int) -> tuple[HandState, int]:
    """The claim window `step` actions into a hand of two strong bots (seed `seed`)."""
    state = new_hand("two_player", seed, base=2)
    rng = random.Random(seed)
    while state.step < step or state.phase != "claim":
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, decide("strong", state, seat, rng))
    return state, seats_to_act(state)[0]


def test_two_player_unseen_counts_read_4_of_the_suits_it_plays_without() -> None:
    state, seat = _claim_window(300, 19)
    view = PlayerView.of(view_for(state, seat, hints=False))
    assert sum(view.unseen) - sum(unseen_pool(view)) == 72  # 18 kinds of 筒 and 条 × 4


def test_counting_the_set_holds_out_where_strong_takes_the_win() -> None:
    """With the self-draw's chance read on copies that exist, the hold-out passes a discard win
    strong takes; the same on a table whose hidden tiles were dealt again (blind)."""
    state, seat = _claim_window(300, 19)
    view = PlayerView.of(view_for(state, seat, hints=False))
    legal = legal_actions(state, seat)
    assert strong(view, legal, random.Random(1)).type == "win"
    assert strong_counting_the_set(view, legal, random.Random(1)).type == "pass"
    other = reshuffle_hidden(state, seat, 7)
    assert view_for(other, seat) == view_for(state, seat)
    again = PlayerView.of(view_for(other, seat, hints=False))
    assert strong_counting_the_set(again, legal_actions(other, seat), random.Random(1)).type == "pass"


def test_feeding_least_throws_the_honour_the_opponent_cannot_pong() -> None:
    # 2z and 3z are lone honours strong ranks alike (it throws the first, 2z); the opponent threw
    # a 3z, so it hardly ever holds the two a pong wants — that one goes
    view = _view("2m2m4m4m8m9m9m2z3z5z5z6z6z7z", "3z")
    legal = _discards(view)
    assert feeding(view, tile("3z")) < feeding(view, tile("2z")) / 10
    assert strong(view, legal, random.Random(0)).tile == tile("2z")
    assert strong_feeding_least(view, legal, random.Random(0)).tile == tile("3z")


def test_feeding_least_keeps_strongs_discard_outside_a_tie() -> None:
    # a lone 9m beside a hand of pairs and runs: strong's discard is not tied with another
    view = _view("1m2m3m4m5m6m7m8m9m1z1z5z5z9m", "3z")
    legal = _discards(view)
    assert strong_feeding_least(view, legal, random.Random(0)) == strong(view, legal, random.Random(0))


@pytest.mark.parametrize("bot", [strong_feeding_least, strong_reading_the_wall, strong_counting_the_set])
def test_the_two_player_readings_ignore_hidden_tiles(bot: Callable[..., Action]) -> None:
    """Each base move gives the same on a table whose hidden tiles were dealt again."""
    for seed in range(300, 304):
        for i, (state, seat) in enumerate(strong_turns("two_player", seed, every=1)):
            other = reshuffle_hidden(state, seat, seed * 100 + i)
            moves = [
                bot(PlayerView.of(view_for(s, seat, hints=False)), legal_actions(s, seat), random.Random(1))
                for s in (state, other)
            ]
            assert moves[0] == moves[1]
