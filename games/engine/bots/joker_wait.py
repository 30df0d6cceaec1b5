"""expert in Tianjin: pass a self-drawn win to sit on a joker wait (混吊, RULES tianjin §4).

A ready hand that draws a joker can always win with it (the joker stands for the wait), and
every level takes that win. But the same fourteen tiles can often throw a plain tile instead
and keep thirteen that are 混吊: four melds and a joker (单混吊; a 单骑 hand that drew a joker) or
three melds, a pair and two jokers (双混吊). Such a hand wins on *any* tile drawn, at ×2 — so
the win is only put off to this seat's next draw, and doubled, unless another seat self-draws
first. The pass pays when

    survive × E[payoff of the next draw] − (1 − survive) × LOSS  >  payoff now

where survive = (1 − q) ^ (other seats' draws before this seat's next), q the chance that one
other seat's draw wins (its self-draw ends the hand), and LOSS what this seat pays on average
when another seat wins. The next draw's payoff is scored exactly by the variant's own scoring
over the unseen tiles (`wait_payoff`), so 捉5 or 龙 that the wait keeps count too.

It does not know whether the win now blooms on a kong's replacement (杠开 ×2; the view does not
say how the turn began): such a win is read at its plain value, a rare case (2 % of Tianjin's
wins are 杠开).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.bots.seen import PlayerView
from games.engine.bots.value import wait_payoff
from games.engine.scoring.tianjin import is_joker_wait
from games.engine.tiles import tiles_of

# The variants where expert passes a win for a joker wait: only Tianjin scores 混吊
JOKER_WAITED = frozenset(os.environ.get("EXPERT_JOKER_WAIT", "tianjin").split(",")) - {""}
# The chance that one other seat's draw wins the hand. Tianjin ends nearly every hand in a
# self-draw (0.0 % drawn, docs/benchmarks.md "Bots"), and a seat that passes a win is itself
# ready, so the hand is late: the others are more often ready than on average. 0.1 per draw
# makes the pass pay for a plain 混吊 (survive 0.73: 0.73 × 6 − 0.27 × 1.3 = 4.0 > 3).
OTHER_WINS_PER_DRAW = float(os.environ.get("EXPERT_JOKER_WAIT_Q", "0.1"))
# What this seat pays when another seat wins: the mean plain win's value at m = 1
# (strong's mean win in Tianjin is 1.28, docs/benchmarks.md "Bots")
LOSS = 1.3


def joker_wait_discard(
    view: PlayerView, legal: Sequence[Action], base: Action, variants: frozenset[str] = JOKER_WAITED
) -> Action:
    """`base` (the win strong takes), or the discard that keeps a joker wait worth more, where
    `variants` lists the variant."""
    if view.variant not in variants or base.type != "win" or view.phase != "turn":
        return base
    if view.drawn is None or view.discarded_joker:
        return base
    draws = view.players - 1  # the others' draws before this seat draws again
    if view.wall_left < view.players:
        return base  # the wall may run out before this seat's next draw
    best = best_joker_wait(view, legal)
    if best is None:
        return base
    action, later = best
    now = _win_now(view)
    survive = (1 - OTHER_WINS_PER_DRAW) ** draws
    if survive * later - (1 - survive) * LOSS <= now:
        return base
    return action


def best_joker_wait(view: PlayerView, legal: Sequence[Action]) -> tuple[Action, float] | None:
    """The discard that leaves a 混吊 hand with the highest mean payoff of the next draw, and
    that payoff; None if no discard leaves one."""
    c = bytearray(view.hand)
    unseen = sum(view.unseen)
    if not unseen:
        return None
    best: tuple[Action, float] | None = None
    for a in legal:
        t = a.tile
        if a.type != "discard" or t is None or t in view.jokers:
            continue  # a joker thrown forbids the win (小相公)
        c[t] -= 1
        c13 = bytes(c)
        c[t] += 1
        if not is_joker_wait(tiles_of(c13), view.jokers):
            continue
        mean = sum(n * wait_payoff(view, c13, w) for w, n in enumerate(view.unseen) if n) / unseen
        if best is None or mean > best[1]:
            best = (a, mean)
    return best


def _win_now(view: PlayerView) -> float:
    """What the win on the drawn tile pays this seat (at m = 1, as the wait's payoffs are)."""
    assert view.drawn is not None
    c = bytearray(view.hand)
    c[view.drawn] -= 1
    return float(wait_payoff(view, bytes(c), view.drawn))
