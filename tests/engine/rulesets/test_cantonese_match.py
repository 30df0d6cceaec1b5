"""Cantonese wind rounds (风圈) played through the engine: bots play whole matches, each hand
dealt at the place `games.engine.match` gives it. The rule page: "⒈第一圈风圈为东。⒉每打完一圈,
则按照东、南、西、北的次序转换风圈。"; the deal passes to the next seat (下家)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

import pytest

from games.engine import match
from games.engine.rulesets import get_ruleset
from games.engine.simulate import play_hand
from games.engine.tiles import EAST, NORTH, SOUTH, WEST


def play_match(
    seed: int, first_dealer: int, options: dict[str, Any] | None = None
) -> list[tuple[int, int, int]]:
    """(round wind, dealer, 局 of the round) of every hand of one match, in order."""
    options = options or {}
    place = match.start(first_dealer, 4)
    played = []
    for i in range(200):
        state, _log, problems = play_hand(
            "cantonese", seed * 1000 + i, dealer=place.dealer, round_wind=place.round_wind, options=options
        )
        assert problems == []
        assert state.round_wind == place.round_wind  # the hand plays in the match's wind
        played.append((place.round_wind, place.dealer, place.hand_in_round))
        place, over = match.after_hand("cantonese", options, place, state.result.next_dealer)
        if over:
            return played
    raise AssertionError("the match did not end")


def test_four_wind_rounds_is_the_default() -> None:
    assert get_ruleset("cantonese").default_options["rounds"] == 4


@pytest.mark.parametrize(("seed", "first"), [(1, 0), (2, 2)])
def test_a_match_plays_east_south_west_north_the_deal_passing_to_the_next_seat(seed: int, first: int) -> None:
    played = play_match(seed, first)
    winds = [wind for wind, _group in groupby(w for w, _d, _n in played)]
    assert winds == [EAST, SOUTH, WEST, NORTH]
    for (_w, dealer, _n), (_w2, following, _n2) in zip(played, played[1:], strict=False):
        assert following in (dealer, (dealer + 1) % 4)  # the dealer stays or passes to 下家
    for wind in (EAST, SOUTH, WEST, NORTH):
        in_round = [(d, n) for w, d, n in played if w == wind]
        # each round starts with the match's first dealer and gives the deal to all four seats
        assert in_round[0] == (first, 1)
        assert [n for _d, n in in_round] == sorted(n for _d, n in in_round)
        assert {d for d, _n in in_round} == {0, 1, 2, 3}
    assert played[-1][1] == (first + 3) % 4 and played[-1][2] == 4


def test_a_one_round_house_game_ends_after_the_east_round() -> None:
    played = play_match(3, 1, {"rounds": 1})
    assert {w for w, _d, _n in played} == {EAST}
    assert {d for _w, d, _n in played} == {0, 1, 2, 3} and played[-1][1] == 0


def test_a_dealer_who_stays_deals_the_same_hand_of_the_round_again() -> None:
    place = match.start(2, 4)
    again, over = match.after_hand("cantonese", {}, place, next_dealer=2)
    assert again == place and not over
    place, _ = match.after_hand("cantonese", {}, place, next_dealer=3)
    assert (place.round_wind, place.hand_in_round) == (EAST, 2)
