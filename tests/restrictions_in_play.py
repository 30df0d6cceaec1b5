"""Proof that a variant's restrictions are active in real play: bots meet each of them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import rulesets
from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import decide
from games.engine.invariants import violations
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandState


def declining_bot(state: HandState, seat: int, rng: random.Random) -> Action:
    """The easy bot, except that it never takes a self-draw (it throws the drawn tile,
    still waiting on it) and takes a discard win only half the time: so the locks arise."""
    options = legal_actions(state, seat)
    if any(a.type == "win" for a in options):
        drawn = state.players[seat].drawn
        if state.phase == "turn" and drawn is not None and Action("discard", drawn) in options:
            return Action("discard", drawn)
        if state.phase == "claim" and rng.random() < 0.5:
            return Action("pass")
    return decide("easy", state, seat, rng)


def codes_met_in_play(
    variant: str, wanted: set[str], monkeypatch: pytest.MonkeyPatch, max_hands: int = 1500
) -> set[str]:
    """Play bot hands until every code in `wanted` was returned by a restriction or a
    refused win (or `max_hands` ran out); the codes met."""
    seen: Counter[str] = Counter()
    real = rulesets.get_ruleset(variant)

    class Recording(type(real)):  # type: ignore[misc]
        def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
            code = super().restriction(state, seat, action)
            seen[code or ""] += 1
            return code

        def win_check(self, state: HandState, seat: int, ctx: WinContext) -> ScoreResult:
            result = super().win_check(state, seat, ctx)
            seen[result.reason] += 1
            return result

    monkeypatch.setitem(rulesets.LOADED, variant, Recording())
    for seed in range(max_hands):  # a few hundred hands usually; the cap only bounds a regression
        rng = random.Random(seed)
        state = new_hand(variant, seed, dealer=seed % 4, base=2)
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            state, _ = apply(state, seat, declining_bot(state, seat, rng))
        assert violations(state) == []
        if wanted <= set(seen):
            break
    return set(seen) & wanted
