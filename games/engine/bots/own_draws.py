"""expert's race: strong's near-equal discards told apart by playing this hand's own draws.

Where no discard is dangerous (Tianjin: nobody wins on a discard), and beside the deal-in
tables in Cantonese, what decides a hand is how soon this seat completes it and what the win is
worth. strong ranks its discards by the improving tiles of the next draw (× the plan it heads
for) and breaks ties two draws ahead; this looks at the whole race: for each candidate discard
it plays the seat's remaining turns in sampled orders and scores the wins by the variant's own
`Ruleset.score`.

- **orders**: per round, this seat's draw and — where a discard can win — one tile thrown by
  each other seat, dealt from the tiles it cannot see (the variant's set less everything
  visible), as many rounds as it has turns left (at most `HORIZON`); the same orders for every
  candidate (common random numbers: the paired differences carry little noise);
- **play**: greedy — win when the hand is complete and the scoring accepts it (a self-draw, or
  a thrown tile of a kind it did not throw itself); keep a draw only when it lowers the shanten
  (then throw the most isolated tile that keeps the gain; never a joker), else throw it;
- **value**: (the win's payment + `STAKE`, what an opponent's win would have cost) × the chance
  no other seat has finished by that round (`ENDS`: how often hands end, by the tiles left;
  two-player counts its own, `ENDS_BY_VARIANT`);
- **candidates**: strong's choice and its alike discards — as close to ready, at least
  `KEEP_WORTH` of its worth and no poorer in plan (strong's 龙, one-suit and pung plans stand),
  from at most `MAX_SHANTEN` away;
- **choice**: the best mean, only when its paired difference to strong's is `CLEAR` standard
  errors above zero; otherwise strong's move.

Blind: it reads the `PlayerView` and the rng `decide` hands it, nothing else.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine.actions import Action
from games.engine.bots.policies import Option, discard_options, strong_style
from games.engine.bots.seen import PlayerView, unseen_pool
from games.engine.bots.shape import after_each_discard, ukeire
from games.engine.bots.value import wait_payoff
from games.engine.hand import shanten
from games.engine.rulesets import get_ruleset
from games.engine.tiles import HONOR, KINDS, Tile

# The alternatives: as close to ready, at least this share of strong's worth
KEEP_WORTH = 0.6
# Depart from strong's choice only when the paired difference is this many standard errors
# above zero
CLEAR = 2.0
# Per round of the table, the chance the hand ends (somebody wins), by the tiles left in the
# wall: (at most this many left, chance). Counted on 300 hands of four strong bots each in
# Tianjin and Cantonese (seed 91,000+; their hands end alike: after 7–8 own draws on average,
# seldom before 68 tiles are left, mostly between 68 and 44). The race uses the others' share,
# (players − 1) / players of it.
ENDS = ((44, 0.45), (52, 0.36), (60, 0.28), (68, 0.18), (76, 0.08), (200, 0.02))
# Two-player's own curve: its 72-tile set leaves 38–45 tiles in the wall after the deal, and
# hands end far sooner than four players' do — 1 % in the first two rounds of the table, then
# 7 %, 16 %, 32 % per round (600 hands of two strong bots, seeds 91,000+: 310 discard wins, 289
# self-draws, 1 drawn; most end with 24–35 tiles left). The four-player table read there would
# give 45 % from the first draw on: the race took every later win for nearly worthless and
# chased the quickest wait.
ENDS_BY_VARIANT = {
    "two_player": ((23, 0.38), (27, 0.37), (31, 0.32), (35, 0.16), (39, 0.07), (200, 0.01)),
}
# What finishing first saves: about what an opponent's win would have cost this seat. In
# two-player the one opponent's win costs this seat all of it: 24.6 on average over those 600
# hands (a discard win 13 or more, a self-draw three times that)
STAKE = {"tianjin": 1.2, "cantonese": 1.0, "two_player": 24.6}
# Raced only from this close to ready: a farther hand seldom completes within the horizon under
# the greedy play, so the race could not tell its discards apart (and would cost the most)
MAX_SHANTEN = 2
# The variants whose race plays each draw as strong's one-step count does (the discard that
# leaves the hand closest to ready, then with the most unseen improving tiles) instead of the
# greedy play that keeps a draw only when it lowers the shanten; none by default
COUNTED = frozenset(os.environ.get("EXPERT_RACE_COUNTED", "").split(",")) - {""}
# Every this many orders the race stops unless an alternative is ahead of strong's choice
LOOK = 8
# At most this many own draws are played (a far horizon adds cost, little signal)
HORIZON = 14


@dataclass(frozen=True)
class RaceBudget:
    """At most `samples` draw orders per decision, none started past `time_ms` (None: samples
    only, reproducible)."""

    samples: int = 32
    time_ms: float | None = 40.0


def race_discard(
    view: PlayerView,
    legal: Sequence[Action],
    base: Action,
    rng: random.Random,
    budget: RaceBudget,
    counted: bool | None = None,
) -> Action:
    """strong's discard `base`, or an alike discard whose race is clearly better. `counted`:
    whether each draw is played by strong's count (None: where COUNTED names the variant)."""
    started = time.perf_counter()
    if base.tile is None:
        return base
    tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
    cands = candidates(view, tiles, base.tile)
    if len(cands) < 2:
        return base
    values = race_values(view, cands, random.Random(rng.getrandbits(64)), budget, started, counted)
    i_base = cands.index(base.tile)
    best = max(range(len(cands)), key=lambda i: (sum(values[i]), i == i_base))
    if best == i_base or not _clearly_better(values[best], values[i_base]):
        return base
    same = [a for a in legal if a.type == "discard" and a.tile == cands[best]]
    return min(same, key=lambda a: a.ready != base.ready) if same else base


def candidates(view: PlayerView, tiles: set[Tile], base_tile: Tile) -> list[Tile]:
    """strong's choice first, then its alike discards (see the module's doc)."""
    options = discard_options(view, view.hand, view.melds, tiles, [], strong_style(view.variant))
    chosen = next((o for o in options if o.tile == base_tile), None)
    if chosen is None:
        return [base_tile]
    if chosen.shanten > MAX_SHANTEN:
        return [base_tile]
    alike = [o for o in options if o.tile != base_tile and _alike(o, chosen)]
    return [base_tile, *(o.tile for o in alike if o.tile is not None)]


def _alike(o: Option, chosen: Option) -> bool:
    return (
        o.shanten == chosen.shanten
        and o.worth >= KEEP_WORTH * chosen.worth
        and o.multiplier >= chosen.multiplier * 0.999
    )


def _clearly_better(a: list[float], b: list[float]) -> bool:
    return clearly_better(a, b, CLEAR)


def unseen_tiles(view: PlayerView) -> list[Tile]:
    """The tiles this seat cannot see, each copy once (`seen.unseen_pool`)."""
    pool = unseen_pool(view)
    return [t for t in range(KINDS) for _ in range(pool[t])]


def race_values(
    view: PlayerView,
    cands: list[Tile],
    rng: random.Random,
    budget: RaceBudget,
    started: float,
    counted: bool | None = None,
) -> list[list[float]]:
    """Per candidate, the value of each sampled order (the same orders for all). An order is,
    per round of the table, this seat's draw and then — where a discard can win — one tile
    thrown by each other seat."""

    def players(per_round: int) -> Callable[[int, list[Tile]], float]:
        race = Race(view, per_round, counted)
        return lambda k, order: race.play(cands[k], order)

    return _sampled_races(view, len(cands), players, rng, budget, started)


def _sampled_races(
    view: PlayerView,
    count: int,
    players: Callable[[int], Callable[[int, list[Tile]], float]],
    rng: random.Random,
    budget: RaceBudget,
    started: float,
) -> list[list[float]]:
    """`count` candidates' values over the same sampled orders, dealt from what `view`'s seat
    cannot see; `players(per_round)` gives the function that plays candidate k on an order."""
    pool = unseen_tiles(view)
    per_round = view.players if get_ruleset(view.variant).win_on_discard else 1
    rounds = min(HORIZON, view.wall_left // view.players, len(pool) // per_round)
    values: list[list[float]] = [[] for _ in range(count)]
    if rounds <= 0:
        return values
    play = players(per_round)
    for i in range(budget.samples):
        if budget.time_ms is not None and (time.perf_counter() - started) * 1000 > budget.time_ms:
            break
        if i and i % LOOK == 0 and not _contested(values):
            break
        order = rng.sample(pool, rounds * per_round)
        for k in range(count):
            values[k].append(play(k, order))
    return values


def still_open(variant: str, players: int, wall_left: int) -> list[float]:
    """Per round of the table ahead (at most `HORIZON`), the chance no other seat has ended
    the hand by then: the variant's ending curve, the others' share of it."""
    share = (players - 1) / players
    ends = ENDS_BY_VARIANT.get(variant, ENDS)
    curve: list[float] = []
    left, alive = wall_left, 1.0
    for _ in range(HORIZON):
        alive *= 1 - share * next(h for most, h in ends if left <= most)
        curve.append(alive)
        left -= players
    return curve


@dataclass(frozen=True)
class Start:
    """One hand to race from: the seat's view as it would be (melds laid), its 13 concealed
    tiles, the kinds it threw (no discard win on them), and whether it draws before anybody
    throws."""

    view: PlayerView
    hand: bytes
    river: frozenset[Tile]
    draw_first: bool = False


def race_starts(
    view: PlayerView, starts: list[Start], rng: random.Random, budget: RaceBudget, started: float
) -> list[list[float]]:
    """Per start, the value of each sampled order (the same orders for all, dealt from what
    `view`'s seat cannot see), as `race_values` does for discards."""

    def players(per_round: int) -> Callable[[int, list[Tile]], float]:
        races = [Race(s.view, per_round) for s in starts]
        return lambda k, order: races[k].play_from(
            bytearray(starts[k].hand), set(starts[k].river), order, starts[k].draw_first
        )

    return _sampled_races(view, len(starts), players, rng, budget, started)


def clearly_better(a: list[float], b: list[float], clear: float) -> bool:
    """Whether `a`'s paired lead over `b` is `clear` standard errors above zero."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n < 2:
        return False
    mean = sum(d) / n
    if mean <= 0:
        return False
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean > clear * math.sqrt(var / n)


def _contested(values: list[list[float]]) -> bool:
    """Whether some alternative is still ahead of strong's choice (the first) on the orders so
    far: if none is, more orders will hardly carry one 2 standard errors clear."""
    base = sum(values[0])
    return any(sum(v) > base for v in values[1:])


class Race:
    """The fixed facts of one decision and the greedy play of one draw order."""

    def __init__(self, view: PlayerView, per_round: int, counted: bool | None = None) -> None:
        self.view = view
        self.jokers = view.jokers
        self.need = max(0, 4 - len(view.melds))
        self.per_round = per_round
        # the seats whose throws follow this seat's draw, in turn order
        self.throwers = [(view.me + k) % view.players for k in range(1, per_round)]
        self.alive = still_open(view.variant, view.players, view.wall_left)
        self.stake = STAKE.get(view.variant, 1.0)
        self._pay: dict[tuple[bytes, Tile, int | None], int] = {}
        self.counted = view.variant in COUNTED if counted is None else counted
        self.melds = len(view.melds)
        self.unseen = bytes(unseen_pool(view))
        self._counted: dict[tuple[bytes, Tile], Tile] = {}  # the same hands recur across orders

    def dist(self, h: bytearray) -> int:
        if not self.jokers:
            return shanten(bytes(h), 0, self.need)
        c = bytearray(h)
        j = 0
        for t in self.jokers:
            j += c[t]
            c[t] = 0
        return shanten(bytes(c), j, self.need)

    def pay(self, hand13: bytes, t: Tile, frm: int | None = None) -> int:
        key = (hand13, t, frm)
        got = self._pay.get(key)
        if got is None:
            got = wait_payoff(self.view, hand13, t, from_seat=frm)
            self._pay[key] = got
        return got

    def play(self, discard: Tile, order: list[Tile]) -> float:
        h = bytearray(self.view.hand)
        h[discard] -= 1
        return self.play_from(h, {discard}, order)

    def play_from(self, h: bytearray, river: set[Tile], order: list[Tile], draw_first: bool = False) -> float:
        """The race from the 13-tile hand `h` (changed in place); `draw_first`: this seat draws
        before anybody else throws (it passed a discard of the seat just before it)."""
        sh = self.dist(h)
        per = self.per_round
        for r in range(0, len(order), per):
            weight = self.alive[r // per]
            if not sh and not (draw_first and r == 0):
                # ready: the others' throws before its next draw (a kind it threw itself is no
                # win — most variants lock it, and it would have kept it)
                for j, seat in enumerate(self.throwers, 1):
                    t = order[r + j]
                    if t in river:
                        continue
                    h[t] += 1
                    done = self.dist(h) == -1
                    h[t] -= 1
                    if done:
                        got = self.pay(bytes(h), t, seat)
                        if got > 0:
                            return (got + self.stake) * weight
            drawn = order[r]
            h[drawn] += 1
            now = self.dist(h)
            if now == -1:
                h[drawn] -= 1
                got = self.pay(bytes(h), drawn)
                h[drawn] += 1
                if got > 0:
                    return (got + self.stake) * weight
            if self.counted:
                out = self.counted_discard(h, drawn)
                h[out] -= 1
                sh = self.dist(h)
            elif now < sh or drawn in self.jokers:
                out = self.keep(h, drawn, now)
                h[out] -= 1
                sh = self.dist(h)
            else:
                out = drawn
                h[drawn] -= 1
            river.add(out)
        return 0.0

    def counted_discard(self, h: bytearray, drawn: Tile) -> Tile:
        """strong's one-step choice for the 14 tiles `h`: the discard leaving the hand closest to
        ready, then the most unseen improving tiles (the unseen counts of the decision), then
        the tile just drawn, then the most isolated (never a joker while another tile can go).
        A drawn tile with no copy or suit neighbour in the hand is thrown back when that keeps
        the hand as close: it cannot add an improving tile the hand's own lone tiles lack."""
        key = (bytes(h), drawn)
        got = self._counted.get(key)
        if got is not None:
            return got
        jokers = self.jokers
        options = [
            (d, after, 99 if dist is None else dist)
            for d, after, dist in after_each_discard(key[0], self.melds, jokers)
        ]
        if any(d not in jokers for d, _, _ in options):
            options = [o for o in options if o[0] not in jokers]
        closest = min(dist for _, _, dist in options)
        options = [o for o in options if o[2] == closest]
        out = drawn
        if drawn in jokers or not any(d == drawn for d, _, _ in options) or _isolation(h, drawn) < 4:
            ranked = min(
                (-ukeire(after, self.melds, jokers, self.unseen), d != drawn, -_isolation(h, d), d)
                for d, after, _ in options
            )
            out = ranked[3]
        self._counted[key] = out
        return out

    def keep(self, h: bytearray, drawn: Tile, target: int) -> Tile:
        """The most isolated tile whose discard keeps the improvement (never a joker)."""
        jokers = self.jokers
        held = sorted((-_isolation(h, t), t) for t in range(KINDS) if h[t] and t not in jokers)
        goal = max(target, 0)
        for _, t in held:
            h[t] -= 1
            d = self.dist(h)
            h[t] += 1
            if d <= goal:
                return t
        return held[0][1] if held else drawn


# per kind: the suit neighbours within two ranks (lo, hi), and whether it is a terminal
_RANGE = tuple((t - min(t % 9, 2), t + min(8 - t % 9, 2) + 1) for t in range(HONOR))
_END = tuple(1 if t % 9 in (0, 8) else 0 for t in range(HONOR))


def _isolation(h: bytearray, t: Tile) -> int:
    """Higher = more useless (as strong's tie-break): a lone honour, then lone terminals."""
    if h[t] >= 2:
        return 0
    if t >= HONOR:
        return 6
    lo, hi = _RANGE[t]
    return 4 - min(sum(h[lo:hi]) - h[t], 3) + _END[t]
