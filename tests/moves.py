"""A small script language for hand moves in tests: "1: chi 4m 456m", "2: pass", "0: win"."""

from __future__ import annotations

from typing import Any

from games.engine.actions import Action, apply, seats_to_act
from games.engine.state import HandState
from games.engine.tiles import parse
from games.engine.tiles import tile as T


def act(text: str) -> Action:
    """'discard 5m' | 'pong 5m' | 'chi 4m 456m' | 'kong 5m added' | 'win' | 'win 5m' | 'pass'."""
    words = text.split()
    kind = words[0]
    if kind == "pass":
        return Action("pass")
    if kind == "win":
        return Action("win", T(words[1])) if len(words) > 1 else Action("win")
    if kind == "chi":
        return Action("chi", T(words[1]), tiles=tuple(parse(words[2])))
    if kind == "kong":
        return Action("kong", T(words[1]), kind=words[2])
    return Action(kind, T(words[1]))


def pass_all(state: HandState) -> HandState:
    while state.phase == "claim":
        state, _ = apply(state, seats_to_act(state)[0], Action("pass"))
    return state


def _turn_move(action: Action) -> bool:
    """Moves made on one's own turn (the others answer a claim window)."""
    if action.type == "win":
        return action.tile is None
    return action.type == "discard" or (action.type == "kong" and action.kind != "exposed")


def run(state: HandState, *moves: str) -> HandState:
    """Apply the moves in order; a claim window the next move does not answer is passed by all."""
    for move in moves:
        seat_text, text = move.split(":")
        seat, action = int(seat_text), act(text.strip())
        if state.phase == "claim" and (seat not in seats_to_act(state) or _turn_move(action)):
            state = pass_all(state)
        state, _ = apply(state, seat, action)
    return state


def bare_state(variant: str, **fields: Any) -> HandState:
    """A HandState with nothing dealt, for ruleset hooks that read only a few fields."""
    base: dict[str, Any] = dict(
        variant=variant,
        seed=1,
        num_players=4,
        dealer=0,
        round_wind=27,
        base=1,
        options=(),
        wall=(),
        head=0,
        tail=0,
        dice=(2, 3),
        players=(),
        phase="turn",
        turn=0,
    )
    base.update(fields)
    return HandState(**base)
