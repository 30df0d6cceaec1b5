"""Two-player ready waits weighed by how each kind of tile wins (wait_odds.py): an honour's copy
counts for more than a 万 copy, both ways of winning are priced, and the level that uses it
stays blind."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Action
from games.engine.bots import search
from games.engine.bots.policies import strong, strong_reading_waits
from games.engine.bots.seen import OtherSeat, PlayerView
from games.engine.bots.wait_odds import ODDS, ready_worth, tile_class
from games.engine.tiles import KINDS, parse, tile
from tests.engine.test_bots import departures_from_strong, two_player_expert_blind_and_departing
from tests.engine.threats import turn_view


def _view(hand: str, variant: str = "two_player") -> PlayerView:
    quiet = OtherSeat(1, tuple(parse("1z3z")), (), 0, 0, False, hand_count=13)
    return turn_view(variant, hand, (quiet,), wall_left=36)


def _discards(view: PlayerView) -> list[Action]:
    return [Action("discard", t) for t in range(KINDS) if view.hand[t]]


def test_an_honour_copy_wins_on_the_discard_more_often_than_a_suit_copy() -> None:
    assert tile_class(tile("2z")) == "honour" and tile_class(tile("5m")) == "suit"
    honour_discard, honour_self = ODDS["honour"]
    suit_discard, suit_self = ODDS["suit"]
    assert honour_discard > 2 * suit_discard
    assert abs(honour_self - suit_self) < 0.01  # self-drawn about as often


def test_reading_waits_takes_the_honour_pair_wait_strong_leaves() -> None:
    # after 4m: a closed wait on 8m, 4 unseen copies; after 9m: 7m and 2z, 2 + 2 copies. strong
    # counts copies × the self-draw; the odds see the 2z thrown by an opponent keeping its 万
    view = _view("2m3m4m4m5m6m7m7m9m1z1z1z2z2z")
    legal = _discards(view)
    assert strong(view, legal, random.Random(0)).tile == tile("4m")
    assert strong_reading_waits(view, legal, random.Random(0)).tile == tile("9m")


def test_ready_worth_prices_both_ways_of_winning() -> None:
    view = _view("2m3m4m4m5m6m7m7m9m1z1z1z2z2z")
    hand = bytearray(view.hand)
    hand[tile("9m")] -= 1
    c13 = bytes(hand)
    pair_wait = ready_worth(view, c13, view.melds, (tile("7m"), tile("2z")))
    honour_alone = ready_worth(view, c13, view.melds, (tile("2z"),))
    suit_alone = ready_worth(view, c13, view.melds, (tile("7m"),))
    assert pair_wait == honour_alone + suit_alone
    assert honour_alone > suit_alone > 0  # same copies (2 each), the honour won more often
    # a wait with no unseen copy is worth nothing
    assert ready_worth(view, c13, view.melds, (tile("1z"),)) == 0


def test_other_variants_play_strong() -> None:
    view = turn_view("cantonese", "2m3m4m4m5m6m7m7m9m1z1z1z2z2z", (), wall_left=36)
    legal = _discards(view)
    assert strong_reading_waits(view, legal, random.Random(0)) == strong(view, legal, random.Random(0))


def test_expert_with_the_wait_odds_ignores_hidden_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched on for two-player: re-dealing every tile the seat cannot see leaves expert's
    move unchanged, and over these turns it does leave strong's somewhere (the odds bite)."""
    monkeypatch.setattr(search, "WAIT_ODDS", frozenset({"two_player"}))
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset())  # this lever alone
    compared, departed = two_player_expert_blind_and_departing(range(300, 360))
    assert compared and departed


def test_expert_is_strong_in_two_player_while_the_odds_are_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "WAIT_ODDS", frozenset())
    monkeypatch.setattr(search, "WIN_CHANCE", frozenset())  # on by default in two-player
    assert departures_from_strong("two_player", 301) == 0
