"""expert's claims judged by a race: call a chi or pong (and throw the best tile after it), or pass.

strong calls by rules — a claim that makes the hand faster and keeps most of its plan, or keeps
its speed and raises the plan (policies.py). What those rules do not see is the whole race: a
call swaps a random draw for a chosen tile, skips the seats between the discarder and this seat,
opens the hand (a concealed hand's score is gone: 门清, a richer pattern), and fixes a meld
that may shape the win (碰碰胡, 清一色, Shanghai's 大吊车). Here each option is raced over the
same sampled draw orders (own_draws.py: draws and throws from the tiles this seat cannot see,
greedy play, the win scored by the variant's own `Ruleset.score`):

- **pass**: the hand as it is; when the discard came from the seat just before this one, this
  seat draws next, before anybody throws;
- **a chi or pong**: the meld laid, then strong's discard from the hand it leaves (the fastest,
  the most worth), the others throwing before this seat's next draw;
- **choice**: the best mean, only when its paired lead over strong's own answer is `CLEAR`
  standard errors; otherwise strong's answer. Wins, kongs and a folding hand are
  strong's.

Blind: it reads the `PlayerView` and the rng `decide` hands it, nothing else.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace

from games.engine.actions import Action
from games.engine.bots.defence import threats
from games.engine.bots.own_draws import RaceBudget, Start, clearly_better, race_starts
from games.engine.bots.policies import (
    PASS,
    Option,
    after_claim,
    claimed_meld,
    discard_options,
    should_fold,
    strong_style,
)
from games.engine.bots.seen import PlayerView
from games.engine.bots.shape import distance
from games.engine.tiles import KINDS, Tile

# Raced only when the hand after the call would be this close to ready: a farther hand seldom
# completes within the race's horizon under greedy play, so the race could not tell the options
# apart (and would cost the most)
MAX_SHANTEN = 2
CALLS = ("chi", "pong")
# Depart from strong's answer only when the paired lead is this many standard errors clear. At 2
# (the discard race's bar) it called at about one offer in ten and lost points on the same deals
# (Shanghai seed 23, 4,000 hands: −0.152 [−0.376, +0.072] against the kept expert); at 3 it
# departs less and was ahead on both Shanghai seeds, not yet at 95 % (docs/bots.md)
CLEAR = 3.0


def race_claim(
    view: PlayerView, legal: Sequence[Action], base: Action, rng: random.Random, budget: RaceBudget
) -> Action:
    """strong's answer `base` to a discard, or another (pass or a chi/pong) whose race is clearly
    better."""
    started = time.perf_counter()
    if view.phase != "claim" or view.last_discard is None or PASS not in legal:
        return base
    if base.type not in ("pass", *CALLS):
        return base  # a win or a kong: strong's
    options = [PASS, *(a for a in legal if a.type in CALLS and a.tile is not None)]
    if len(options) < 2 or _folding(view):
        return base
    starts: list[Start] = []
    kept: list[Action] = []
    for a in options:
        start = start_after(view, a)
        if start is not None:
            starts.append(start)
            kept.append(a)
    if base not in kept or len(kept) < 2:
        return base
    values = race_starts(view, starts, random.Random(rng.getrandbits(64)), budget, started)
    i_base = kept.index(base)
    best = max(range(len(kept)), key=lambda i: (sum(values[i]), i == i_base))
    if best == i_base or not clearly_better(values[best], values[i_base], CLEAR):
        return base
    return kept[best]


def _folding(view: PlayerView) -> bool:
    """strong folds this hand (then it claims nothing): no race either."""
    now = distance(view.hand, len(view.melds), view.jokers)
    return should_fold(view, [Option(None, now, 0.0, 1.0)], threats(view), strong_style(view.variant))


def start_after(view: PlayerView, a: Action) -> Start | None:
    """Where the race begins after answering the discard with `a`; None when too far to race."""
    assert view.last_discard is not None
    discarder = view.last_discard[0]
    if a.type == "pass":
        if distance(view.hand, len(view.melds), view.jokers) > MAX_SHANTEN + 1:
            return None
        right_after = (discarder + 1) % view.players == view.me
        return Start(view, view.hand, frozenset(), right_after)
    c = after_claim(view.hand, a)
    melds = (*view.melds, claimed_meld(view, a))
    opened = replace(view, melds=melds, hand=c)
    tiles = {t for t in range(KINDS) if c[t]}
    choices = discard_options(opened, c, melds, tiles, [], strong_style(view.variant))
    if not choices:
        return None
    after = min(choices, key=lambda o: (o.shanten, -o.worth))
    if after.shanten > MAX_SHANTEN or after.tile is None:
        return None
    out: Tile = after.tile
    left = bytearray(c)
    left[out] -= 1
    return Start(opened, bytes(left), frozenset((out,)), False)
