"""expert's race over its own draws (own_draws.py): the draws come from what its seat cannot see,
every candidate meets the same draws, it departs from strong only among strong's alike discards,
and never without the samples to show it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import games.engine.bots as bots
from games.engine.actions import Action, legal_actions
from games.engine.bots import PlayerView, own_draws, search
from games.engine.bots.own_draws import (
    STAKE,
    RaceBudget,
    candidates,
    race_discard,
    race_values,
    still_open,
    unseen_tiles,
)
from games.engine.bots.policies import strong
from games.engine.bots.seen import OtherSeat
from games.engine.state import HandState
from games.engine.tiles import KINDS, parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import expert_blind_and_departing, reshuffle_hidden
from tests.engine.threats import strong_turns, turn_view

FIXED = RaceBudget(samples=24, time_ms=None)


def _view(variant: str, hand: str, others: tuple[OtherSeat, ...], wall_left: int = 40) -> PlayerView:
    return turn_view(variant, hand, others, wall_left)


def _quiet(discards: str, seats: int = 3) -> tuple[OtherSeat, ...]:
    return tuple(
        OtherSeat(s, tuple(parse(discards)), (), 0, 0, False, hand_count=13) for s in range(1, seats + 1)
    )


def _turns(variant: str, seed: int, every: int = 3) -> list[tuple[HandState, int]]:
    return strong_turns(variant, seed, every)


@pytest.mark.parametrize("variant", ["tianjin", "two_player", "cantonese"])
def test_the_draws_are_the_tiles_the_seat_cannot_see(variant: str) -> None:
    for state, seat in _turns(variant, 4)[:5]:
        view = PlayerView.of(view_for(state, seat))
        pool = Counter(unseen_tiles(view))
        hidden: Counter[int] = Counter()
        for s, p in enumerate(state.players):
            if s != seat:
                hidden.update(t for t in range(KINDS) for _ in range(p.concealed[t]))
        hidden.update(t for t in state.wall[state.head : state.tail] if t < KINDS)
        assert pool == hidden  # every hidden tile, and nothing this seat can see


def test_a_wait_on_tiles_all_in_sight_is_worth_nothing_in_the_race() -> None:
    """Throwing the 5z waits on the 6z (three unseen); throwing the 6z waits on the 5z, whose
    other three copies the others threw: that one never wins."""
    view = _view("tianjin", "1m2m3m7p8p9p9s9s9s4m5m6m5z6z", _quiet("5z1z"))
    values = race_values(view, [tile("5z"), tile("6z"), tile("5z")], random.Random(1), FIXED, 0.0)
    live, dead, again = values
    assert sum(live) > 0 and sum(dead) == 0
    assert live == again  # the same draws for every candidate: equal plays score alike


def test_the_race_leaves_strong_only_for_one_of_its_alike_discards() -> None:
    rng = random.Random(7)
    departures = 0
    for variant in ("tianjin", "two_player", "cantonese"):
        for state, seat in _turns(variant, 8, every=2):
            view = PlayerView.of(view_for(state, seat))
            legal = legal_actions(state, seat)
            base = strong(view, legal, rng)
            if base.type != "discard" or base.tile is None:
                continue
            choice = race_discard(view, legal, base, random.Random(3), FIXED)
            assert choice in legal
            tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
            assert choice.tile in candidates(view, tiles, base.tile)
            departures += choice != base
    assert departures  # the race does move off strong somewhere


def test_with_no_samples_the_race_keeps_strongs_discard() -> None:
    for state, seat in _turns("tianjin", 5)[:10]:
        view = PlayerView.of(view_for(state, seat))
        legal = legal_actions(state, seat)
        base = strong(view, legal, random.Random(1))
        if base.type == "discard":
            none = RaceBudget(samples=8, time_ms=0.0)
            assert race_discard(view, legal, base, random.Random(2), none) == base


@pytest.mark.parametrize("variant", ["tianjin", "two_player"])
def test_an_expert_racing_is_not_strong_move_for_move(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """It departs seldom (about one discard in 75 in both), but it does — in two-player too when
    raced there (off by default: level with strong over four seeds)."""
    monkeypatch.setattr(search, "RACE_BUDGET", RaceBudget(samples=32, time_ms=None))
    monkeypatch.setattr(search, "RACED", frozenset({variant}))
    differ = 0
    for seed in range(300, 330):
        for state, seat in _turns(variant, seed, every=1):
            view = PlayerView.of(view_for(state, seat))
            legal = legal_actions(state, seat)
            mine: Action = search.expert(view, legal, random.Random(1))
            assert mine in legal
            differ += mine != strong(view, legal, random.Random(1))
        if differ:
            break
    assert differ


def test_two_player_hands_run_on_their_own_ending_curve() -> None:
    """Just after the deal (41 tiles left) two-player's one opponent has seldom finished within
    three rounds of the table; the four-player table read at the same wall would have the hand
    over more often than not."""
    duo = still_open("two_player", 2, 41)
    assert duo[2] > 0.9
    assert duo == sorted(duo, reverse=True) and duo[-1] > 0
    assert still_open("tianjin", 2, 41)[2] < 0.7


def test_a_two_player_win_is_worth_the_opponents_win_it_prevents() -> None:
    """Ready on a lone honour either way (the opponent threw a 7z and a 4z): every order that
    completes scores the win's payment plus what the opponent's win would have cost, so a win
    early in the race is worth more than the stake alone."""
    others = (OtherSeat(1, tuple(parse("7z4z")), (), 0, 0, False, hand_count=13),)
    view = _view("two_player", "1m2m3m4m5m6m7m8m9m1z1z1z5z6z", others, wall_left=30)
    values = race_values(view, [tile("5z"), tile("6z")], random.Random(1), FIXED, 0.0)
    won = [v for vs in values for v in vs if v > 0]
    assert won and max(won) > STAKE["two_player"] + 13


def test_the_counted_race_keeps_a_draw_that_widens_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """One from ready with 7m9m (a closed wait) and a lone 5z: a 6m drawn does not lower the
    shanten, so the greedy play throws it back; the counted play (strong's one-step count)
    keeps it beside 7m9m — more tiles improve that hand — and throws the 5z."""
    monkeypatch.setattr(own_draws, "COUNTED", frozenset({"two_player"}))
    others = (OtherSeat(1, tuple(parse("7z4z")), (), 0, 0, False, hand_count=13),)
    view = _view("two_player", "1m2m3m4m5m6m1z1z6z6z7m9m5z6m", others, wall_left=30)
    race = own_draws.Race(view, 1)
    h = bytearray(view.hand)
    assert race.counted
    assert race.counted_discard(h, tile("6m")) == tile("5z")
    greedy = own_draws.Race(view, 1)
    greedy.counted = False
    after = bytearray(h)
    after[tile("6m")] -= 1
    # the greedy play only moves when the draw lowers the shanten; this one does not
    assert greedy.dist(h) == greedy.dist(after)


def test_the_counted_race_is_off_by_default() -> None:
    assert not own_draws.COUNTED


def test_the_counted_race_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Raced in two-player with the counted play: re-dealing every tile the seat cannot see
    leaves expert's discard unchanged (its orders come from the view and the rng only), and
    over these turns it does leave strong's discard somewhere, so the comparison bites."""
    monkeypatch.setattr(search, "RACE_BUDGET", RaceBudget(samples=32, time_ms=None))
    monkeypatch.setattr(search, "RACED", frozenset({"two_player"}))
    monkeypatch.setattr(own_draws, "COUNTED", frozenset({"two_player"}))
    counts = [
        expert_blind_and_departing(_turns("two_player", seed, every=1), seed) for seed in range(300, 306)
    ]
    assert sum(c for c, _ in counts) and sum(d for _, d in counts)


def test_one_race_can_ask_for_the_counted_play_where_the_variant_does_not() -> None:
    """The screening level asks for the counted play in Tianjin, which COUNTED does not list:
    that race plays by strong's count, another race of the same view greedily."""
    view = _view("tianjin", "1m2m3m4m5m6m1z1z6z6z7m9m5z6m", _quiet("7z4z"))
    assert "tianjin" not in own_draws.COUNTED
    assert not own_draws.Race(view, 1).counted
    assert own_draws.Race(view, 1, counted=True).counted
    assert not own_draws.Race(view, 1, counted=False).counted


def test_the_counted_race_in_tianjin_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """expert with its race played by strong's count (the screening level) in Tianjin:
    re-dealing every tile the seat cannot see leaves its move unchanged, and over these turns
    it does leave strong's discard somewhere, so the comparison bites."""
    monkeypatch.setattr(search, "RACE_BUDGET", RaceBudget(samples=32, time_ms=None))
    compared = differ = 0
    for seed in range(300, 340):
        for i, (state, seat) in enumerate(_turns("tianjin", seed, every=1)):
            other = reshuffle_hidden(state, seat, seed * 100 + i)
            assert view_for(other, seat) == view_for(state, seat)
            legal = legal_actions(state, seat)
            mine = [
                search.expert_race_counted(
                    PlayerView.of(view_for(s, seat, hints=False)), legal, random.Random(1)
                )
                for s in (state, other)
            ]
            assert mine[0] == mine[1]
            compared += 1
            differ += mine[0] != strong(
                PlayerView.of(view_for(state, seat, hints=False)), legal, random.Random(1)
            )
        if differ:
            break
    assert compared and differ


def test_a_lower_bar_departs_where_the_kept_bar_holds_strongs_discard() -> None:
    """The screening level `race_bar` departs at 1.5 standard errors: over these Tianjin turns
    some race clear by 1.5 but not by 2 is taken there and not by the kept bar, and a bar no
    race can clear keeps strong's discard everywhere."""
    lower = kept = 0
    for seed in range(300, 320):
        for state, seat in _turns("tianjin", seed, every=1):
            view = PlayerView.of(view_for(state, seat))
            legal = legal_actions(state, seat)
            base = strong(view, legal, random.Random(1))
            if base.type != "discard":
                continue
            moves = [
                race_discard(view, legal, base, random.Random(3), FIXED, clear=c) for c in (1.5, 2.0, 1e9)
            ]
            assert moves[2] == base
            lower += moves[0] != base
            kept += moves[1] != base
        if lower > kept:
            break
    assert lower > kept


def test_the_race_departs_two_standard_errors_clear_by_default() -> None:
    assert own_draws.CLEAR == 2.0


def test_the_counted_race_can_be_asked_for_where_counted_does_not_name_the_variant() -> None:
    """The trial `race_counted` plays the counted race in Cantonese with COUNTED empty; the
    kept race there stays greedy."""
    view = _view("cantonese", "1m2m3m4m5m6m1z1z6z6z7m9m5z6m", (), wall_left=60)
    assert not own_draws.Race(view, 4).counted
    assert own_draws.Race(view, 4, counted=True).counted
    levels, table = bots.with_trial("race_counted", bots.LEVELS, bots.BOTS)
    assert levels == (*bots.LEVELS, "expert_trial")
    assert table["expert_trial"] is search.expert_race_counted
