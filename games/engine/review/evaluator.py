"""The value estimate: what each legal action is worth, in expected points, from a seat's view.

`Evaluator` is the seam: the review asks one for an `Appraisal` (its choice and a value per
action) and never looks inside, so a stronger evaluator (a searching bot) replaces this one by
being passed to `review_hand` — nothing in the review changes. Every evaluator gets exactly what
a bot gets: the seat's `PlayerView` and its legal actions, never the hand's state.

`StrongEvaluator` is the strong bot's judgement: its choice is what the strong bot
plays, and each action's value is an expected score built from the measures the strong bot ranks
by (`expected_points`): the chance to finish the hand from its shanten and effective tiles over
the draws left, times what the win would pay by the variant's own scoring (exact, wait by wait,
once ready; the plan the hand heads for times a typical self-drawn win before that), less the
danger of the tile thrown where a discard can win for somebody. `ExpertEvaluator` recommends the
expert bot's move with the same values; `default_evaluator` gives it the variants where expert is
measured stronger than strong, strong's the others.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from games.engine.actions import Action
from games.engine.bots.defence import Threat, risk, threats
from games.engine.bots.own_draws import RaceBudget
from games.engine.bots.policies import strong
from games.engine.bots.search import expert_move
from games.engine.bots.seen import PlayerView
from games.engine.bots.shape import distance, improving
from games.engine.bots.value import plan_multiplier, wait_payoff
from games.engine.review.grades import UNIT
from games.engine.rulesets import get_ruleset
from games.engine.state import Meld
from games.engine.tiles import KINDS, Tile


@dataclass(frozen=True)
class Appraisal:
    """An evaluator's answer: the action it recommends and the expected points of each action
    it was asked about."""

    choice: Action
    values: Mapping[Action, float]


class Evaluator(Protocol):
    """Anything that appraises a decision from a seat's view (see the module doc)."""

    name: str

    def appraise(self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()) -> Appraisal:
        """The recommended action (one of `legal`) and a value for every action of `legal` and
        `extra` (actions the player took that `legal` does not list, e.g. a two-player exchange
        of several tiles); a value may be missing where the evaluator has no estimate."""
        ...


# What a plain hand's self-drawn win collects (base 1, yihua 2), before its plan multiplier: the
# price of a hand not yet ready. Read off ready hands of normal bots (8 hands per variant): the
# median over those hands of (mean exact payoff of their waits / their plan multiplier), so a hand
# one step from ready is priced on the same scale as the exact payoff it will have once ready.
SELF_DRAW: dict[str, float] = {
    "shanghai": 13.0,
    "yihua": 9.0,
    "cantonese": 12.0,
    "tianjin": 3.0,
    "two_player": 20.0,
}
# Per round of the table, a hand gets its own draw plus, where discards can be claimed or won
# on, this share of a draw per opponent's discard (not every useful discard can be called).
CLAIM_SHARE = 0.5
# Per round, the chance an opponent finishes first and ends the hand (four seats, two seats):
# about one hand in four lasts past twelve rounds with strong bots.
OPPONENT_HAZARD = {4: 0.05, 2: 0.04}
# How often an average tile (danger 1.0) thrown at a ready opponent wins for them: their waits
# hold about six of some seventy unseen tiles.
DEAL_IN_RATE = 0.08
# The hand's effective tiles count for its next step only; the steps after it are priced at a
# typical share of the unseen tiles for the shanten they start from (a far hand's many useful
# tiles shrink as it closes: a ready hand waits on some six tiles, not sixty).
LATER_SHARE = {0: 0.07, 1: 0.22, 2: 0.35}
LATER_SHARE_FAR = 0.45
# A win on a discard pays about this share of the same win self-drawn (Shanghai, yihua and
# two-player: one payer's share of three; Cantonese: half of that, its self-draw doubles): the
# price of a hand not yet ready, whose wins will come both ways.
DISCARD_RATIO = {"shanghai": 1 / 3, "yihua": 1 / 3, "cantonese": 1 / 6, "two_player": 1 / 3, "tianjin": 1.0}


def _mixed(view: PlayerView, self_draw: float, discard: float) -> float:
    """The payoff of a finish that comes by the own draw or, where a discard wins, by one of the
    opponents' discards (CLAIM_SHARE each): weighted as finish_chance weighs them."""
    if not get_ruleset(view.variant).win_on_discard:
        return self_draw
    others = CLAIM_SHARE * (view.players - 1)
    return (self_draw + others * discard) / (1 + others)


@lru_cache(maxsize=65536)
def effective_tiles(
    counts: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes
) -> tuple[int, tuple[Tile, ...]]:
    """`shape.improving`, memoised: the measures and the values ask it of the same hands."""
    count, kinds = improving(counts, melds, jokers, unseen)
    return count, tuple(kinds)


def _rounds(view: PlayerView) -> int:
    return max(0, view.wall_left // view.players)


def finish_chance(steps: int, outs: int, unseen: int, rounds: int, players: int, claims: bool) -> float:
    """The chance to make `steps` improvements in `rounds` rounds while no opponent finishes
    first (OPPONENT_HAZARD per round). The first improvement comes with probability outs/unseen
    per draw, each later one with LATER_SHARE of the unseen for the shanten it starts from; a
    round brings the own draw plus CLAIM_SHARE of each opponent's discard where they can be
    called (the final step: won on)."""
    if steps <= 0:
        return 1.0
    if outs <= 0 or unseen <= 0 or rounds <= 0:
        return 0.0
    tries = 1 + (CLAIM_SHARE * (players - 1) if claims else 0.0)
    per_draw = [min(1.0, outs / unseen)]
    for k in range(1, steps):  # the shanten the k-th later step starts from
        per_draw.append(LATER_SHARE.get(steps - 1 - k, LATER_SHARE_FAR))
    p = [1 - (1 - x) ** tries for x in per_draw]
    survive = 1 - OPPONENT_HAZARD.get(players, 0.05)
    at = [1.0] + [0.0] * steps  # at[i]: chance of having made i steps so far (and still playing)
    done = 0.0
    for _ in range(rounds):
        nxt = [0.0] * (steps + 1)
        for i in range(steps):
            nxt[i] += at[i] * (1 - p[i]) * survive
            nxt[i + 1] += at[i] * p[i] * survive
        done += nxt[steps]
        nxt[steps] = 0.0
        at = nxt
    return min(1.0, done)


@dataclass(frozen=True)
class HandWorth:
    """A 3k+1-tile hand's expected points and what they were computed from."""

    shanten: int
    effective: int  # unseen copies of the kinds that lower the shanten (ready: the waits)
    kinds: tuple[Tile, ...]
    payoff: float  # what finishing would pay (ready: exact, averaged over the unseen waits)
    chance: float
    points: float


def expected_points(view: PlayerView, c13: bytes, melds: tuple[Meld, ...], extra_draws: int = 0) -> HandWorth:
    """The expected points of holding `c13` (with `melds`) from now on (module doc)."""
    jokers = view.jokers
    sh = distance(c13, len(melds), jokers)
    count, kinds = effective_tiles(c13, len(melds), jokers, view.unseen)
    seen_view = view if melds is view.melds else replace(view, melds=melds)
    if sh == 0:
        discarder = (view.me + 1) % view.players
        paid = [
            (
                view.unseen[w],
                _mixed(view, wait_payoff(seen_view, c13, w), wait_payoff(seen_view, c13, w, discarder)),
            )
            for w in kinds
        ]
        outs = sum(n for n, pay in paid if pay > 0)
        payoff = sum(n * pay for n, pay in paid) / outs if outs else 0.0
    else:
        outs = count
        mult = plan_multiplier(view.variant, c13, melds, "strong", jokers)
        plain = SELF_DRAW[view.variant]
        payoff = _mixed(view, plain, plain * DISCARD_RATIO[view.variant]) * mult
        if view.discarded_joker and view.variant == "tianjin":
            payoff = 0.0  # 小相公: a seat that threw a joker cannot win
    rules = get_ruleset(view.variant)
    claims = rules.win_on_discard if sh == 0 else (rules.win_on_discard or rules.has_chi)
    chance = finish_chance(sh + 1, outs, sum(view.unseen), _rounds(view) + extra_draws, view.players, claims)
    return HandWorth(sh, count if sh else outs, tuple(kinds), payoff, chance, chance * payoff)


def after_claim(hand: bytes, a: Action) -> bytes:
    """The concealed counts once a claim's own tiles went into its meld."""
    assert a.tile is not None
    used = (
        [x for x in a.tiles if x != a.tile] if a.type == "chi" else [a.tile] * (3 if a.type == "kong" else 2)
    )
    c = bytearray(hand)
    for x in used:
        c[x] -= 1
    return bytes(c)


def claimed_meld(view: PlayerView, a: Action) -> Meld:
    assert a.tile is not None
    tiles = a.tiles if a.type == "chi" else (a.tile,) * (4 if a.type == "kong" else 3)
    discarder = view.last_discard[0] if view.last_discard else None
    kind = "kong" if a.type == "kong" else a.type
    return Meld(kind, tuple(tiles), discarder, a.tile)


def own_kong(view: PlayerView, a: Action) -> tuple[bytes, tuple[Meld, ...]]:
    """The concealed counts and melds after a kong on one's own turn."""
    assert a.tile is not None
    c = bytearray(view.hand)
    if a.kind == "concealed":
        c[a.tile] -= 4
        return bytes(c), (*view.melds, Meld("concealed_kong", (a.tile,) * 4))
    c[a.tile] -= 1
    melds = tuple(
        Meld("added_kong", (a.tile,) * 4, m.from_seat, m.claimed)
        if m.kind == "pong" and m.tile == a.tile
        else m
        for m in view.melds
    )
    return bytes(c), melds


# Tianjin pays a kong when made: each other player pays its value (exposed/added 1, concealed 2).
KONG_CASH = {"tianjin": {"exposed": 1, "added": 1, "concealed": 2}}


class StrongEvaluator:
    """The strong bot's choice, valued by `expected_points` (module doc)."""

    name = "strong"

    def appraise(self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()) -> Appraisal:
        values = self.values(view, legal, extra)
        if view.phase == "choose":  # the bot takes the default unthinkingly: recommend the best value
            valued = [a for a in legal if a in values]
            choice = max(valued, key=lambda a: values[a]) if valued else legal[0]
        else:
            choice = strong(view, legal, random.Random(0))
        return Appraisal(choice, values)

    def values(
        self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()
    ) -> dict[Action, float]:
        """The expected points of each action of `legal` and `extra` that has an estimate."""
        ts = threats(view) if get_ruleset(view.variant).win_on_discard else []
        values: dict[Action, float] = {}
        for a in (*legal, *extra):
            if a not in values:
                v = self.value(view, a, ts)
                if v is not None:
                    values[a] = round(v, 3)
        return values

    def value(self, view: PlayerView, a: Action, ts: list[Threat]) -> float | None:
        v = view.variant
        if a.type == "discard":
            return self.discard_value(view, view.hand, view.melds, a.tile, ts)
        if a.type == "win":
            if view.phase == "claim" and view.last_discard:
                seat, t, _kind = view.last_discard
                return float(wait_payoff(view, view.hand, t, from_seat=seat))
            t = view.drawn if view.drawn is not None else max(x for x in range(KINDS) if view.hand[x])
            c = bytearray(view.hand)
            c[t] -= 1
            return float(wait_payoff(view, bytes(c), t))
        if a.type == "pass":
            return expected_points(view, view.hand, view.melds).points
        if a.type in ("chi", "pong"):
            c = after_claim(view.hand, a)
            melds = (*view.melds, claimed_meld(view, a))
            return max(self.discard_value(view, c, melds, t, ts) for t in range(KINDS) if c[t])
        if a.type == "kong":
            if view.phase == "claim":
                c, melds = after_claim(view.hand, a), (*view.melds, claimed_meld(view, a))
            else:
                c, melds = own_kong(view, a)
            cash = KONG_CASH.get(v, {}).get(a.kind, 0) * (view.players - 1)
            return expected_points(view, c, melds, extra_draws=1).points + cash
        if a.type == "exchange":
            return self.exchange_value(view, a.tiles)
        return None  # pre-hand stakes (坐庄/拉庄), 搓牌: no estimate

    def discard_value(
        self, view: PlayerView, hand: bytes, melds: tuple[Meld, ...], t: Tile | None, ts: list[Threat]
    ) -> float:
        assert t is not None
        c = bytearray(hand)
        c[t] -= 1
        seen = view
        if t in view.jokers and view.variant == "tianjin":
            seen = replace(view, discarded_joker=True)
        worth = expected_points(seen, bytes(c), melds).points
        return worth - danger_cost(view, t, ts)

    def exchange_value(self, view: PlayerView, returned: tuple[Tile, ...]) -> float:
        """Returning tiles for as many fresh ones from the wall: the expected worth over the
        unseen tiles (exact for one tile; sampled for more, with a seed from the view)."""
        c = bytearray(view.hand)
        for t in returned:
            c[t] -= 1
        if not returned:
            return expected_points(view, view.hand, view.melds).points
        pool = [u for u in range(KINDS) for _ in range(view.unseen[u])]
        if not pool:
            return expected_points(view, view.hand, view.melds).points
        if len(returned) == 1:
            total = 0.0
            for u in range(KINDS):
                if view.unseen[u]:
                    c[u] += 1
                    total += view.unseen[u] * expected_points(view, bytes(c), view.melds).points
                    c[u] -= 1
            return total / len(pool)
        rng = random.Random(zlib.crc32(bytes(c) + view.unseen))
        samples = []
        for _ in range(24):
            d = bytearray(c)
            for u in rng.sample(pool, min(len(returned), len(pool))):
                d[u] += 1
            samples.append(expected_points(view, bytes(d), view.melds).points)
        return sum(samples) / len(samples)


class ValueEvaluator(StrongEvaluator):
    """The same values, but the recommendation is simply the legal action of highest value (ties:
    the strong bot's choice). Not the default — the strong bot plays better than this argmax —
    but it judges the strong bot too, so the arena's separation of the levels is not circular
    when measured with it (`arena --review value`)."""

    name = "value"

    def appraise(self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()) -> Appraisal:
        base = super().appraise(view, legal, extra)
        valued = [a for a in legal if a in base.values]
        if not valued:
            return base
        top = max(base.values[a] for a in valued)
        if base.values.get(base.choice) == top:
            return base
        return Appraisal(next(a for a in valued if base.values[a] == top), base.values)


class ExpertEvaluator(StrongEvaluator):
    """The expert bot's choice, valued by the same `expected_points` as strong's. expert plays
    strong's moves but for its measured departures (the deal-in tables' safer alike discard,
    Cantonese's pong of an honour worth a fan, Tianjin's win passed for the joker wait, the race
    over its own draws, two-player's fastest discards ranked by their win chance), so its
    recommendation differs from strong's only there; the loss stays humble where the values
    rank the player's move above it. The race gets a budget of samples only, the win chance one
    of hands only: a review must not depend on how busy the machine was."""

    name = "expert"
    race_budget = RaceBudget(samples=32, time_ms=None)

    def appraise(self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()) -> Appraisal:
        if view.phase == "choose" and view.variant != "tianjin":
            return super().appraise(view, legal, extra)  # the two-player exchange: the best value
        choice = expert_move(view, legal, random.Random(0), self.race_budget)
        return Appraisal(choice, self.values(view, legal, extra))


EVALUATORS: dict[str, type[StrongEvaluator]] = {
    "strong": StrongEvaluator,
    "value": ValueEvaluator,
    "expert": ExpertEvaluator,
}

# The variants whose review recommends expert's move: where expert is measured ahead of strong
# at 95 % on both goal seeds' duplicate deals (docs/bots.md, "Where expert stands") — all five
# since two-player's goal seeds were taken to 100,000 hands each.
REVIEWED_BY_EXPERT = frozenset({"shanghai", "yihua", "cantonese", "tianjin", "two_player"})


def default_evaluator(variant: str) -> StrongEvaluator:
    """The review's evaluator for a variant when the caller names none."""
    return ExpertEvaluator() if variant in REVIEWED_BY_EXPERT else StrongEvaluator()


def danger_cost(view: PlayerView, t: Tile, ts: list[Threat]) -> float:
    """Expected points lost by throwing `t`: its risk (defence.risk: Σ readiness × size ×
    danger over the opponents) × DEAL_IN_RATE × a typical win."""
    if not ts:
        return 0.0
    return risk(view, t, ts) * DEAL_IN_RATE * UNIT[view.variant]
