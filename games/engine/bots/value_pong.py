"""expert's honours worth a fan (Cantonese): pong one when it keeps the hand as close to ready,
and throw a lone honour worth nothing before a lone one worth a fan.

In Cantonese a dragon pung, a pung of the seat's own wind and one of the prevailing wind each add
a fan, and a fan doubles the hand (value 2^fan, capped at 3 fan: RULES §4). strong calls a pong
only when it makes the hand faster, or keeps its speed and raises the plan it prices (one suit,
all pungs) — the honour's fan is not in that plan, so strong passes a dragon it holds a pair of
whenever the pong would not bring the hand closer. Here expert pongs it then, as long as the
hand after the pong and strong's discard is no farther from ready than before.

At a discard, strong counts a lone honour by the copies that would pair it, whatever it is worth:
when it throws a lone dragon (or the seat's or the prevailing wind) and a lone honour worth no
fan would leave the hand as close to ready with as much worth, expert throws that one instead —
the one with the fewest copies unseen — and keeps the honour that could become a fan.

Not for a ready hand (strong already weighs a call from ready by the exact scores of the waits
it leaves), nor while strong folds, nor when a win is on offer (strong's hold-out passed it).
Blind: it reads the `PlayerView` only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from games.engine.actions import Action
from games.engine.bots.defence import threats
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
from games.engine.tiles import DRAGONS, EAST, HONOR, KINDS, Tile

# The variants where an honour pung scores a fan of its own, and expert pongs it at the same
# distance from ready. EXPERT_VALUE_PONG=<variants> in the environment names them (read once, at
# import); none by default until measured ahead of the kept expert (docs/bots.md)
VALUE_PONGED = frozenset(os.environ.get("EXPERT_VALUE_PONG", "").split(",")) - {""}
# Each part alone (the two were screened apart: the keep departs about eight times as often as
# the pong): EXPERT_FAN_PONG=<variants> the pong only — Cantonese by default: with it expert is
# ahead of strong at 95 % on both goal seeds over 16,000 duplicate hands each (docs/bots.md);
# EXPERT_FAN_PONG= (empty) switches it off — and EXPERT_FAN_KEEP the keep only, none by default
FAN_PONGED = VALUE_PONGED | (frozenset(os.environ.get("EXPERT_FAN_PONG", "cantonese").split(",")) - {""})
FAN_KEPT = VALUE_PONGED | (frozenset(os.environ.get("EXPERT_FAN_KEEP", "").split(",")) - {""})
# A lone honour worth nothing replaces strong's lone fan honour only when it leaves at least this
# share of strong's worth (expectation.py's bar for an alike discard)
KEEP_WORTH = 0.8
# Where an honour pung is worth a fan: dragons, the seat's own wind, the prevailing wind
FAN_HONOURS = frozenset({"cantonese"})


def fan_honours(view: PlayerView) -> frozenset[Tile]:
    """The honours whose pung adds a fan for this seat: the dragons, its own wind and the
    prevailing wind."""
    seat_wind = EAST + (view.me - view.dealer) % view.players
    return frozenset((*DRAGONS, seat_wind, view.round_wind))


def value_pong(view: PlayerView, legal: Sequence[Action], base: Action) -> Action:
    """strong's answer `base` to a discard, or the pong of a fan-worth honour when strong passes
    and the pong keeps the hand as close to ready."""
    if view.phase != "claim" or base != PASS or view.variant not in FAN_HONOURS:
        return base
    if any(a.type == "win" for a in legal):
        return base
    honours = fan_honours(view)
    pong = next((a for a in legal if a.type == "pong" and a.tile in honours), None)
    if pong is None:
        return base
    now = distance(view.hand, len(view.melds), view.jokers)
    if now < 1 or _folding(view, now):
        return base
    after = _after_pong(view, pong)
    if after is None or after.shanten > now:
        return base
    return pong


def _folding(view: PlayerView, now: int) -> bool:
    """strong folds this hand (then it claims nothing)."""
    return should_fold(view, [Option(None, now, 0.0, 1.0)], threats(view), strong_style(view.variant))


def _after_pong(view: PlayerView, pong: Action) -> Option | None:
    """The hand after the pong and strong's fastest, most worth discard from it."""
    c = after_claim(view.hand, pong)
    melds = (*view.melds, claimed_meld(view, pong))
    opened = replace(view, melds=melds, hand=c)
    tiles = {t for t in range(KINDS) if c[t]}
    choices = discard_options(opened, c, melds, tiles, [], strong_style(view.variant))
    if not choices:
        return None
    return min(choices, key=lambda o: (o.shanten, -o.worth))


def keep_fan_honour(view: PlayerView, legal: Sequence[Action], base: Action) -> Action:
    """strong's discard `base`, or — when it is a lone honour worth a fan — a lone honour worth
    none that leaves the hand as close to ready with as much worth."""
    if base.type != "discard" or base.tile is None or view.variant not in FAN_HONOURS:
        return base
    honours = fan_honours(view)
    if base.tile not in honours or view.hand[base.tile] != 1:
        return base
    tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
    guests = {t for t in tiles if t >= HONOR and t not in honours and view.hand[t] == 1}
    if not guests:
        return base
    style = strong_style(view.variant)
    options = discard_options(view, view.hand, view.melds, tiles, [], style)
    chosen = next((o for o in options if o.tile == base.tile), None)
    if chosen is None or should_fold(view, options, threats(view), style):
        return base  # a folding hand throws what is safe, not what is worth keeping
    alike = [
        o.tile
        for o in options
        if o.tile in guests and o.shanten == chosen.shanten and o.worth >= KEEP_WORTH * chosen.worth
    ]
    if not alike:
        return base
    out = min(alike, key=lambda t: (view.unseen[t], t))
    same = [a for a in legal if a.type == "discard" and a.tile == out]
    return same[0] if same else base
