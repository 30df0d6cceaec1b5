"""An exact win chance over a hand's remaining own draws (two-player's discards).

strong ranks its fastest discards by the unseen copies of the tiles that improve the hand and
breaks ties two draws ahead (shape.two_step); sampled races over the seat's own draws
(own_draws.py) were too noisy to beat that. This computes, without sampling, the chance a
13-tile hand completes within the `turns` own draws it has left, as riichi calculators do — an
expectimax over the graph of hands one tile apart:

- per draw, kind k comes with probability u_k / N (u_k: the copies of k this seat cannot see,
  less those the line of play has drawn already; N: every unseen tile — drawing without
  replacement is approximated by a fixed denominator);
- only draws that lower the shanten are followed (the standard pruning): any other draw is thrown
  again and leaves the hand as it was; after an improving draw the best discard that keeps the
  gain is chosen again, for every number of draws left (max over the discards per turn);
- a complete hand is worth `self_pay` (1: a self-draw); a ready hand also wins on the
  opponent's throw before each of its draws, with chance `throw` × its outs / N, worth
  `discard_pay` (two-player pays a discard win about a third of a self-draw);
- each round is discounted by the chance the opponent has not finished the hand by then
  (`survive[i]`: the chance the hand is still open at this seat's i-th draw from now).

Memoised per hand within a decision: a hand's values for every number of draws left come out of
one pass (`_Table.values`); a 14-tile hand's best gain-keeping discard once per decision (hands
one tile apart meet again by other draws), its gain-keeping discards across decisions (`_kept`).
The cost is the number of hands within reach × their improving kinds × turns, most of it the
shanten of hands not met before. Past `max_states` hands it gives up (None), and the caller keeps
its own move: never a late one.

`chances` reads counts only; `strong_by_win_chance` (strong with its fastest discards ranked by
this, two-player) reads the `PlayerView` and nothing else.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from games.engine.actions import Action
from games.engine.bots.own_draws import HORIZON, still_open
from games.engine.bots.policies import PASS, after_claim, strong
from games.engine.bots.seen import PlayerView, unseen_pool
from games.engine.bots.shape import after_each_discard, lowering
from games.engine.tiles import KINDS, Tile

# At most this many distinct 13-tile hands per decision: a hand one from ready in two-player's
# 16 kinds reaches a few hundred (all its discards), two from ready up to about 1,500; past it the
# decision keeps strong's move
MAX_STATES = int(os.environ.get("EXPERT_WIN_CHANCE_STATES") or 1500)
# Looked at from this close to ready (a ready hand keeps strong's exact pricing of its waits)
REACH = int(os.environ.get("EXPERT_WIN_CHANCE_REACH") or 2)
# The chance from further out (strong_by_win_chance_far, a screening level: level with the reach
# of 2, docs/bots.md): 3 from ready, the hands within reach a median 530 and up to about 1,500
FAR_REACH = 3
FAR_STATES = int(os.environ.get("EXPERT_WIN_CHANCE_FAR_STATES") or 5000)
# ...and never past this much CPU time on one decision (None: states only, reproducible —
# an arena with EXPERT_WORLDS set, as the race's budget)
TIME_MS: float | None = None if os.environ.get("EXPERT_WORLDS", "").isdigit() else 60.0
# two-player: the one opponent throws one of a ready hand's waits about half as often as the
# waits' share of the unseen tiles (policies.RACES[2].throw), and a discard win pays about a
# third of a self-draw (6.3 against 18 a hand, docs/benchmarks.md)
THROW = 0.5
DISCARD_PAY = 0.35


class OverBudget(Exception):
    """More hands within reach than the decision may weigh."""


@dataclass(frozen=True)
class Race:
    """The fixed facts of one decision's look-ahead."""

    unseen: bytes  # per kind, copies this seat cannot see (within the variant's set)
    root: bytes  # the 14-tile hand the decision starts from (draws beyond it come from `unseen`)
    melds: int  # melds already laid
    turns: int  # own draws left
    survive: tuple[float, ...] = ()  # per draw from now, the chance the hand is still open (1s)
    throw: float = 0.0  # a ready hand's chance per round the opponent throws one of N's tiles
    discard_pay: float = 0.0  # a discard win's worth (a self-draw is 1)
    max_states: int = MAX_STATES
    deadline: float | None = None  # time.perf_counter() past which it gives up


@lru_cache(maxsize=1 << 14)
def _kept(hand14: bytes, melds: int, now: int) -> tuple[bytes, ...]:
    """The 13-tile hands a 14-tile hand leaves by the discards that keep the gain of an improving
    draw (closer than `now`, the distance before it). Pure (no counts of what is in sight), so
    kept across decisions: the next decision and the other candidates' look-aheads meet the same
    hands again (16k hands of a few kept discards each: about 15 MB)."""
    return tuple(
        after for _, after, dist in after_each_discard(hand14, melds, ()) if dist is not None and dist < now
    )


class _Table:
    """The values of every hand within reach, memoised (one decision)."""

    def __init__(self, race: Race) -> None:
        self.race = race
        self.total = sum(race.unseen)
        self.memo: dict[bytes, list[float]] = {}
        # per distance before the draw, per 14-tile hand: the best discard's values
        self.after: list[dict[bytes, list[float]]] = [{} for _ in range(16)]
        self.ready: dict[int, list[float]] = {}
        # per round, the chance the hand is still open given it was at the round before
        alive = [*race.survive[: race.turns]]
        alive += [alive[-1] if alive else 1.0] * (race.turns - len(alive))
        before = [1.0, *alive][: len(alive)]  # (no draws left: no rounds)
        self.step = [a / b if b > 0 else 0.0 for a, b in zip(alive, before, strict=True)]
        # v[t] = step[turns - t] × (…): the discount of the round with t draws left, by t
        self.discount = [0.0, *reversed(self.step)]

    def unseen(self, hand: bytes, k: Tile) -> int:
        """Copies of k still to come, the ones this line of play drew beyond the root taken out."""
        drawn = hand[k] - self.race.root[k]
        return max(0, self.race.unseen[k] - max(0, drawn))

    def values(self, hand: bytes) -> list[float]:
        """v[t]: the hand's worth with t own draws left (v[0] = 0)."""
        got = self.memo.get(hand)
        if got is not None:
            return got
        if len(self.memo) >= self.race.max_states:
            raise OverBudget
        if (
            self.race.deadline is not None
            and not len(self.memo) % 32
            and time.perf_counter() > self.race.deadline
        ):
            raise OverBudget
        v = self._compute(hand)  # no cycles: every step lowers the shanten
        self.memo[hand] = v
        return v

    def _compute(self, hand: bytes) -> list[float]:
        race, total = self.race, self.total
        now, kinds = lowering(hand, race.melds, ())
        if now == 0:
            return self._ready(sum(self.unseen(hand, k) for k in kinds))
        turns = race.turns
        grow: list[float] | None = None  # grow[t - 1]: the improving draws' worth with t draws left
        stay = 1.0
        after = self.after[now]
        c = bytearray(hand)
        for k in kinds:
            u = self.unseen(hand, k)
            if not u or not total:
                continue
            p = u / total
            stay -= p
            c[k] += 1
            hand14 = bytes(c)
            c[k] -= 1
            best = after.get(hand14)
            if best is None:
                best = after[hand14] = self._best_after(hand14, now)
            if grow is None:
                grow = [p * b for b in best]
            else:
                grow = [g + p * b for g, b in zip(grow, best, strict=True)]
        v = [0.0] * (turns + 1)
        if grow is None:
            return v
        discount = self.discount
        for t in range(1, turns + 1):
            v[t] = discount[t] * (grow[t - 1] + stay * v[t - 1])
        return v

    def _ready(self, outs: int) -> list[float]:
        """A ready hand's values depend only on its outs (a win ends the line): kept per count."""
        got = self.ready.get(outs)
        if got is not None:
            return got
        race, turns = self.race, self.race.turns
        p = outs / self.total if self.total else 0.0
        d = min(1.0, race.throw * p)
        v = [0.0] * (turns + 1)
        for t in range(1, turns + 1):
            v[t] = self.discount[t] * (d * race.discard_pay + (1.0 - d) * (p + (1.0 - p) * v[t - 1]))
        self.ready[outs] = v
        return v

    def _best_after(self, hand14: bytes, now: int) -> list[float]:
        """After an improving draw: per number of draws left (0 … turns − 1), the best of the
        discards that keep the gain, with one draw fewer."""
        kids = [self.values(after) for after in _kept(hand14, self.race.melds, now)]
        if len(kids) == 1:
            return kids[0][:-1]
        if not kids:  # (a hand of the wrong size: nothing to gain)
            return [0.0] * self.race.turns
        return list(map(max, *kids))[:-1]


def chances(race: Race, discards: Sequence[Tile]) -> dict[Tile, float] | None:
    """Per discard of the root hand, the worth of the 13 tiles it leaves with `race.turns` own
    draws left; None when the hands within reach exceed the budget."""
    table = _Table(race)
    out: dict[Tile, float] = {}
    c = bytearray(race.root)
    try:
        for d in discards:
            if not c[d]:
                continue
            c[d] -= 1
            out[d] = table.values(bytes(c))[race.turns]
            c[d] += 1
    except OverBudget:
        return None
    return out


def worth(race: Race, hand13: bytes) -> float | None:
    """The worth of a 13-tile hand with `race.turns` own draws left (the first one now: no
    opponent's throw before it); None over budget."""
    try:
        return _Table(race).values(hand13)[race.turns]
    except OverBudget:
        return None


def view_race(view: PlayerView, started: float | None = None, max_states: int = MAX_STATES) -> Race:
    """The look-ahead of a seat at its discard, read from its view: its unseen copies within the
    variant's set, its own draws left (at most own_draws.HORIZON), two-player's ending curve."""
    deadline = None if TIME_MS is None or started is None else started + TIME_MS / 1000
    return Race(
        unseen=bytes(unseen_pool(view)),
        root=view.hand,
        melds=len(view.melds),
        turns=min(HORIZON, view.wall_left // view.players),
        survive=tuple(still_open(view.variant, view.players, view.wall_left)),
        throw=THROW,
        discard_pay=DISCARD_PAY,
        max_states=max_states,
        deadline=deadline,
    )


def strong_by_win_chance(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong, its fastest discards (two-player, 1–`REACH` from ready, no joker) ranked by the
    exact win chance over its own draws left; strong's choice where it ranks first or ties, where
    strong heads for a slower, richer plan, or where the look-ahead is over budget."""
    return ranked_by_win_chance(view, legal, rng, REACH, MAX_STATES)


def strong_by_win_chance_untimed(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong_by_win_chance on its budget of hands alone, with no clock: the same move however
    busy the machine (the review's expert)."""
    return ranked_by_win_chance(view, legal, rng, REACH, MAX_STATES, timed=False)


def strong_by_win_chance_far(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong_by_win_chance from `FAR_REACH` (3) from ready, on `FAR_STATES` hands."""
    return ranked_by_win_chance(view, legal, rng, FAR_REACH, FAR_STATES)


def ranked_by_win_chance(
    view: PlayerView,
    legal: Sequence[Action],
    rng: random.Random,
    reach: int,
    max_states: int,
    timed: bool = True,
) -> Action:
    """strong, its fastest discards ranked by the win chance where they are 1–`reach` from ready
    (two-player, no joker), the look-ahead weighing at most `max_states` hands (and, `timed`,
    given up past TIME_MS)."""
    started = time.perf_counter() if timed else None
    base = strong(view, legal, rng)
    if view.variant != "two_player" or view.phase != "turn" or base.type != "discard" or view.jokers:
        return base
    # each legal discard's distance from the memoised shapes (strong's own options hold the same
    # figures, but are not handed out: asking strong's whole evaluation again cost as much again)
    tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
    dists = {
        t: dist
        for t, _after, dist in after_each_discard(view.hand, len(view.melds), ())
        if t in tiles and dist is not None
    }
    fastest = min(dists.values(), default=-1)
    if dists.get(base.tile) != fastest or not 1 <= fastest <= reach:
        return base
    cands = [t for t, dist in dists.items() if dist == fastest]
    got = chances(view_race(view, started, max_states), cands) if len(cands) > 1 else None
    if got is None or base.tile not in got:
        return base
    best = max(cands, key=lambda t: (got[t], t == base.tile))
    if got[best] <= got[base.tile] * (1 + 1e-9):
        return base
    same = [a for a in legal if a.type == "discard" and a.tile == best]
    return min(same, key=lambda a: a.ready != base.ready) if same else base


def strong_claiming_by_win_chance(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong_by_win_chance, and its answer to a discard (two-player: chi, pong or pass, 1–`REACH`
    from ready) by the same chance: passing keeps the hand and draws now; a call lays a meld and
    throws its best tile, one own draw fewer. strong's answer where none is better, where it wins
    or calls a kong, or over budget."""
    started = time.perf_counter()
    base = strong_by_win_chance(view, legal, rng)
    if view.variant != "two_player" or view.phase != "claim" or base.type not in ("pass", "chi", "pong"):
        return base
    calls = [a for a in legal if a.type in ("chi", "pong") and a.tile is not None]
    if not calls or PASS not in legal or view.jokers:
        return base
    now = lowering(view.hand, len(view.melds), ())[0]
    if not 1 <= now <= REACH:
        return base
    race = view_race(view, started)
    # passing draws now, before the opponent's next turn
    passed = worth(replace(race, survive=(1.0, *race.survive)), view.hand)
    if passed is None:
        return base
    values: list[tuple[float, Action]] = [(passed, PASS)]
    for a in calls:
        got = _after_call(view, race, a)
        if got is None:
            return base
        values.append((got, a))
    base_value = next((v for v, a in values if a == base), None)
    if base_value is None:
        return base
    best_value, best = max(values, key=lambda va: (va[0], va[1] == base))
    return best if best_value > base_value * (1 + 1e-9) else base


def _after_call(view: PlayerView, race: Race, a: Action) -> float | None:
    """The call's worth: the best discard of what the meld leaves, one own draw fewer (its next
    draw comes after the opponent's turn, as passing's second one does)."""
    root = after_claim(view.hand, a)
    after = replace(race, root=root, melds=race.melds + 1, turns=max(0, race.turns - 1))
    got = chances(after, [t for t in range(KINDS) if root[t]])
    return max(got.values(), default=0.0) if got is not None else None


__all__ = [
    "KINDS",
    "MAX_STATES",
    "OverBudget",
    "Race",
    "chances",
    "ranked_by_win_chance",
    "strong_by_win_chance",
    "strong_by_win_chance_far",
    "strong_claiming_by_win_chance",
    "worth",
]
