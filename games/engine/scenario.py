"""Rigged hands for tests and rule examples: say who holds what and what comes next.

`scenario("shanghai", hands=["123m…", …], draws="5m9p…")` returns the state
right after the dealer's first draw, as if the wall had been shuffled so: each
seat holds the given 13 tiles, the front of the wall yields `draws` in order,
the back yields `replacements` (flower and kong replacements) in order, and
every other tile of the set fills the middle of the wall. The state is an
ordinary HandState; everything after it goes through `apply`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.actions import draw_tile, new_hand
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.state import PlayerState, evolve
from games.engine.tiles import EAST, Tile, counts_of, is_flower, parse


def scenario(
    variant: str,
    hands: list[str],
    draws: str = "",
    replacements: str = "",
    dealer: int = 0,
    flowers: list[str] | None = None,
    round_wind: Tile = EAST,
    base: int = 1,
    options: dict[str, Any] | None = None,
    jokers: str = "",
    choose: bool = False,
) -> Any:
    rules = get_ruleset(variant)
    n = rules.players
    if len(hands) != n:
        raise EngineError("bad_input", f"{variant} needs {n} hands")
    held = [parse(h) for h in hands]
    if any(len(h) != 13 for h in held):
        raise EngineError("bad_input", "each hand is 13 tiles (the dealer draws the 14th from `draws`)")
    laid = [parse(f) for f in (flowers or [""] * n)]
    front = parse(draws)
    back = parse(replacements)
    left = Counter(rules.wall_tiles())
    for t in [t for h in held for t in h] + [t for f in laid for t in f] + front + back:
        left[t] -= 1
        if left[t] < 0:
            raise EngineError("bad_input", "more tiles used than the set holds")
    middle = [t for t in sorted(left.elements())]
    wall = tuple(front + middle + list(reversed(back)))
    base_state = new_hand(variant, 1, dealer=dealer, round_wind=round_wind, base=base, options=options)
    players = tuple(
        PlayerState(concealed=counts_of(h), flowers=tuple(f)) for h, f in zip(held, laid, strict=True)
    )
    joker_kinds = tuple(parse(jokers))
    state = evolve(
        base_state,
        wall=wall,
        head=0,
        tail=len(wall),
        players=players,
        phase="turn",
        turn=dealer,
        jokers=joker_kinds,
        indicator=None,
        choices=(),
        huangfan=False,
    )
    if any(is_flower(t) for h in held for t in h):
        raise EngineError("bad_input", "flowers go in `flowers`, not in hands")
    if choose:
        return evolve(state, phase="choose")
    return draw_tile(rules, state, dealer, start="deal")
