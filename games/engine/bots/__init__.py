"""Bots: four levels (easy, normal, strong, expert) and a random player for fuzzing.

A bot is `(view, legal, rng) -> Action`: it gets a `PlayerView` read from the very dict
`view_for(state, seat)` sends that player, and the player's legal actions — never the
`HandState`, so it cannot look at the wall or another hand. `decide` is the one place that
turns a state into that view; servers, the simulator and the arena all go through it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence

from games.engine.actions import Action, legal_actions
from games.engine.bots.policies import easy, normal, random_level, strong
from games.engine.bots.search import (
    expert,
    expert_at_speed,
    expert_by_win_chance,
    expert_by_win_chance_far,
    expert_claiming_by_win_chance,
    expert_counting_the_set,
    expert_fan_keeping,
    expert_fan_ponging,
    expert_feeding_least,
    expert_folding_carefully,
    expert_joker_waiting,
    expert_race_counted,
    expert_racing_claims,
    expert_racing_on_a_lower_bar,
    expert_reading_the_wall,
    expert_reading_the_wall_always,
    expert_reading_waits,
    expert_value_ponging,
)
from games.engine.bots.seen import PlayerView
from games.engine.errors import EngineError
from games.engine.state import HandState
from games.engine.view import view_for

Bot = Callable[[PlayerView, Sequence[Action], random.Random], Action]

LEVELS: tuple[str, ...] = ("easy", "normal", "strong", "expert")
DEFAULT_LEVEL = "normal"  # quick-match fill and an add-bot request that names no level
BOTS: dict[str, Bot] = {
    "easy": easy,
    "normal": normal,
    "strong": strong,
    "expert": expert,
    "random": random_level,
}
ALIASES = {"baseline": "easy"}  # the single bot of earlier versions

# Screening a change to expert: EXPERT_TRIAL=<name> in the environment adds the level
# `expert_trial`, expert with that change, so the arena seats it beside the kept expert on the
# same deals (`--seats expert_trial,strong,expert,strong --duplicate`; paired trial − kept per
# deal). Read once, at import; never set on a site.
TRIALS: dict[str, Bot] = {
    "claims": expert_racing_claims,
    "value_pong": expert_value_ponging,
    "fan_pong": expert_fan_ponging,
    "fan_keep": expert_fan_keeping,
    "race_counted": expert_race_counted,
    "race_bar": expert_racing_on_a_lower_bar,
    "speed": expert_at_speed,
    "wait_odds": expert_reading_waits,
    "joker_wait": expert_joker_waiting,
    "wall": expert_reading_the_wall,
    "wall_always": expert_reading_the_wall_always,
    "set_count": expert_counting_the_set,
    "unfed": expert_feeding_least,
    "win_chance": expert_by_win_chance,
    "win_chance_claims": expert_claiming_by_win_chance,
    "win_chance_far": expert_by_win_chance_far,
    "careful": expert_folding_carefully,
}


def with_trial(
    trial: str, levels: tuple[str, ...], bots: dict[str, Bot]
) -> tuple[tuple[str, ...], dict[str, Bot]]:
    """The levels and bots with `expert_trial` added when `trial` names a change (else as
    they are). The trial comes last: the arena pairs the later level first (trial − kept)."""
    if trial not in TRIALS:
        return levels, bots
    return (*levels, "expert_trial"), {**bots, "expert_trial": TRIALS[trial]}


LEVELS, BOTS = with_trial(os.environ.get("EXPERT_TRIAL", ""), LEVELS, BOTS)


def check_level(level: object) -> str:
    """The level itself if known; EngineError('unknown_level') otherwise."""
    if isinstance(level, str) and level in LEVELS:
        return level
    raise EngineError("unknown_level", f"bot level must be one of {', '.join(LEVELS)}; got {level!r}")


def decide(level: str, state: HandState, seat: int, rng: random.Random) -> Action:
    """The action the bot of `level` in `seat` takes now, from that seat's view only."""
    bot = BOTS[ALIASES.get(level, level)]
    legal = legal_actions(state, seat)
    return bot(PlayerView.of(view_for(state, seat, hints=False)), legal, rng)


__all__ = ["BOTS", "DEFAULT_LEVEL", "LEVELS", "Bot", "PlayerView", "check_level", "decide"]
