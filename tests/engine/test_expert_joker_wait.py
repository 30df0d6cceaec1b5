"""expert in Tianjin passes a self-drawn win to sit on a joker wait (joker_wait.py): only when
a plain tile thrown leaves 混吊, only with a draw of its own still to come, and never when the
win now is already worth what the wait would bring."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import BOTS, LEVELS, PlayerView, decide, joker_wait, with_trial
from games.engine.bots.joker_wait import best_joker_wait, joker_wait_discard
from games.engine.bots.search import expert
from games.engine.bots.seen import OtherSeat
from games.engine.state import HandState
from games.engine.tiles import KINDS, parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import reshuffle_hidden
from tests.engine.threats import turn_view

JOKERS = (tile("3p"), tile("4p"))
WIN = Action("win")


def _quiet() -> tuple[OtherSeat, ...]:
    return tuple(OtherSeat(s, tuple(parse("1z2z")), (), 0, 0, False, hand_count=13) for s in (1, 2, 3))


def _drew(hand: str, drawn: str, wall_left: int = 40) -> PlayerView:
    """Seat 0's Tianjin turn: `hand` (14 tiles, the drawn one included) after drawing `drawn`."""
    view = turn_view("tianjin", hand, _quiet(), wall_left)
    return replace(view, jokers=JOKERS, drawn=tile(drawn))


def _legal(view: PlayerView) -> list[Action]:
    return [WIN, *(Action("discard", t) for t in range(KINDS) if view.hand[t])]


def test_a_single_wait_that_drew_a_joker_throws_the_single_for_the_joker_wait() -> None:
    """123m 456m 789s 222z waiting on the 7z draws a joker: it wins at 1, or throws the 7z and
    wins on any tile at 2 one draw later."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z2z7z3p", "3p")
    legal = _legal(view)
    assert joker_wait_discard(view, legal, WIN) == Action("discard", tile("7z"))
    assert expert(view, legal, random.Random(1)) == Action("discard", tile("7z"))


def test_the_win_is_taken_when_the_wall_may_end_before_the_next_draw() -> None:
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z2z7z3p", "3p", wall_left=3)
    assert joker_wait_discard(view, _legal(view), WIN) == WIN


def test_a_win_already_on_a_joker_wait_is_taken() -> None:
    """Four melds and a joker that draws the 7z: the win is 混吊 now, worth what waiting brings."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z2z3p7z", "7z")
    legal = _legal(view)
    assert best_joker_wait(view, legal) is not None  # throwing the 7z again would keep it
    assert joker_wait_discard(view, legal, WIN) == WIN


def test_a_win_with_no_joker_wait_in_reach_is_taken() -> None:
    """Three melds, a pair and a two-sided wait completed by a joker: no plain tile thrown leaves
    four melds and a joker."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z4s5s3p", "3p")
    legal = _legal(view)
    assert best_joker_wait(view, legal) is None
    assert joker_wait_discard(view, legal, WIN) == WIN


def test_a_joker_is_never_thrown_for_the_wait() -> None:
    """Two jokers and a single: the single goes (双混吊), never a joker (小相公 forbids the win)."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z3p4p7z", "4p")
    assert joker_wait_discard(view, _legal(view), WIN) == Action("discard", tile("7z"))  # 双混吊


@pytest.mark.parametrize("variant", ["shanghai", "cantonese"])
def test_other_variants_keep_the_win(variant: str) -> None:
    view = replace(_drew("1m2m3m4m5m6m7s8s9s2z2z2z7z3p", "3p"), variant=variant)
    assert joker_wait_discard(view, _legal(view), WIN) == WIN


def test_the_pass_weighs_the_others_winning_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """If another seat were sure to win before the next draw, waiting would only lose."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z2z7z3p", "3p")
    monkeypatch.setattr(joker_wait, "OTHER_WINS_PER_DRAW", 0.9)
    assert joker_wait_discard(view, _legal(view), WIN) == WIN


def _a_pass_in_play(seeds: range) -> tuple[HandState, int, int]:
    """(state, seat, seed) of the first decision of four strong bots' hands where expert would
    pass the win for a joker wait."""
    for seed in seeds:
        state = new_hand("tianjin", seed, base=1)
        rng = random.Random(seed)
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if state.phase == "turn" and any(a.type == "win" for a in legal):
                view = PlayerView.of(view_for(state, seat, hints=False))
                if joker_wait_discard(view, legal, WIN) != WIN:
                    return state, seat, seed
            state, _ = apply(state, seat, decide("strong", state, seat, rng))
    raise AssertionError("no joker wait passed in these hands")


def test_the_pass_ignores_hidden_tiles() -> None:
    """Re-dealing what the seat cannot see changes nothing of the pass (the re-deal test of
    tests/engine/test_bots.py, at a decision where the pass happens)."""
    state, seat, seed = _a_pass_in_play(range(200))
    other = reshuffle_hidden(state, seat, seed)
    assert other.wall != state.wall or other.players != state.players
    a = decide("expert", state, seat, random.Random(1))
    assert a.type == "discard"
    assert decide("expert", other, seat, random.Random(1)) == a


def test_switched_off_the_win_is_taken_and_the_screening_level_still_passes_it() -> None:
    """EXPERT_JOKER_WAIT= (empty) leaves the win to strong; the screening level
    (EXPERT_TRIAL=joker_wait) passes it whatever the setting, beside the kept expert."""
    view = _drew("1m2m3m4m5m6m7s8s9s2z2z2z7z3p", "3p")
    legal = _legal(view)
    assert joker_wait_discard(view, legal, WIN, frozenset()) == WIN
    levels, bots_ = with_trial("joker_wait", LEVELS, BOTS)
    assert levels[-1] == "expert_trial"
    assert bots_["expert_trial"](view, legal, random.Random(1)) == Action("discard", tile("7z"))
