"""expert's pre-hand stakes in Tianjin (bots/stakes.py): as the dealer it chooses 坐庄, as a
non-dealer it does not 拉; strong keeps the first option; the choice reads nothing hidden; and
the stakes it chooses are the ones the hand settles with."""

from __future__ import annotations

import random

from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import decide, stakes
from games.engine.rulesets.tianjin import LA, ZUO
from games.engine.state import HandState
from tests.engine.test_bots import reshuffle_hidden


def _choosing(seed: int, dealer: int = 0) -> HandState:
    state = new_hand("tianjin", seed, dealer=dealer)
    assert state.phase == "choose"
    return state


def test_the_measured_dealer_edge_is_positive_so_the_rule_doubles_the_dealers_side() -> None:
    assert stakes.DEALER_EDGE_PER_PAIR > 0


def test_expert_as_dealer_chooses_zuozhuang_and_strong_keeps_the_first_option() -> None:
    for dealer in range(4):
        state = _choosing(3, dealer)
        assert decide("expert", state, dealer, random.Random(1)) == Action("choose", kind=ZUO, value=1)
        assert decide("strong", state, dealer, random.Random(1)) == legal_actions(state, dealer)[0]
        assert legal_actions(state, dealer)[0].value == 0  # the first option is no 坐庄


def test_expert_as_a_non_dealer_does_not_double_the_losing_side() -> None:
    state = _choosing(4, dealer=1)
    for seat in (0, 2, 3):
        assert decide("expert", state, seat, random.Random(1)) == Action("choose", kind=LA, value=0)
        assert decide("strong", state, seat, random.Random(1)) == Action("choose", kind=LA, value=0)


def test_the_choice_follows_the_sign_of_the_measured_edge(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    state = _choosing(5, dealer=0)
    monkeypatch.setattr(stakes, "DEALER_EDGE_PER_PAIR", -0.1)
    assert decide("expert", state, 0, random.Random(1)) == Action("choose", kind=ZUO, value=0)
    assert decide("expert", state, 2, random.Random(1)) == Action("choose", kind=LA, value=1)


def test_the_stakes_choice_ignores_hidden_tiles() -> None:
    for seed in range(6):
        state = _choosing(seed, dealer=seed % 4)
        for seat in range(4):
            other = reshuffle_hidden(state, seat, seed + 100)
            assert other.players != state.players or other.wall != state.wall
            for level in ("strong", "expert"):
                assert decide(level, state, seat, random.Random(1)) == decide(
                    level, other, seat, random.Random(1)
                )


def test_the_dealers_zuozhuang_doubles_what_the_hand_settles() -> None:
    # expert deals and three strong bots play the same deal: with 坐庄 every payment between the
    # dealer and a non-dealer is doubled, between two non-dealers not
    def settle(dealer_level: str) -> tuple[int, ...]:
        state = _choosing(11, dealer=0)
        rng = random.Random(7)
        while state.phase != "over":
            for seat in seats_to_act(state):
                if state.phase == "over" or seat not in seats_to_act(state):
                    continue
                level = dealer_level if seat == 0 and state.phase == "choose" else "strong"
                state, _ = apply(state, seat, decide(level, state, seat, rng))
        assert state.result is not None
        return state.result.payments

    plain, doubled = settle("strong"), settle("expert")
    assert plain[0] != 0
    assert doubled[0] == 2 * plain[0]
