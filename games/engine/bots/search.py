"""expert: strong's discards weighed by what a deal-in costs, and a determinized search.

expert plays strong's moves, and at its discards throws, among the tiles as good as strong's
choice, the one least likely to deal in by the deal-in tables (expectation.py). Below is the
earlier determinized Monte Carlo search (EXPERT_SEARCH=rollouts plays it; `RolloutEvaluator`
ranks candidates with it): measured, it did not beat strong (docs/bots.md). The review's expert
evaluator (games/engine/review/evaluator.py) recommends the kept expert's move, not this.

At a discard where an opponent looks close and this hand is not ready, the search weighs
pushing against folding: strong's choice, its fastest discard (played on as strong's rollout
policy plays) and the safest tile played as a fold. Each is judged by playing the hand forward
in sampled worlds:

- a **world** deals the tiles this seat cannot see — the other hands and the wall — from the
  tiles the variant's set holds less everything visible (own hand, rivers, melds, indicator);
  other hands get their real sizes, and their shapes follow what the table says of them: a
  player who declared 报听 is dealt a ready hand, another is dealt a ready, one-away or
  two-away hand as often as `defence.py`'s readiness (melds laid, discards made) says; yihua's
  hidden concealed kongs get a kind of which four copies are unseen;
- a **rollout** plays from there with fast policies for every seat (draw; win when complete
  and the variant's own `Ruleset.score` accepts it; keep a tile only when it lowers the shanten,
  else throw it; a folding seat throws what the others have thrown) to the wall's end or a
  horizon, and a win on a discard where the variant allows it. No chi/pong in rollouts: the
  draw order then stays the same for every candidate of a world, so the candidates differ only
  where their own play differs (common random numbers: paired differences, small noise), and
  the other seats play alike whatever this seat throws: they are played once per world
  (`_Timeline`) and each candidate replays only its own hand against them;
- the **value** of a rollout is this seat's payment, scored by the variant's own `score`.

The bot only ever sees the `PlayerView`: the worlds are sampled from it, so re-dealing the real
hidden tiles changes nothing (tests/engine/test_bots.py). The search stops when the `Budget`'s
samples are done or its time is nearly spent (it estimates the next sample's cost first), so
it is never late; with fewer samples it simply keeps strong's choice more often, because it
only departs from strong when the paired difference is clear of its own standard error.

`RolloutEvaluator` (the `Evaluator` protocol here): the searched candidates with their expected
points, for a caller that wants to rank a move rather than make one.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from games.engine.actions import Action
from games.engine.bots.claims import race_claim
from games.engine.bots.defence import seat_threat, threats
from games.engine.bots.expectation import expected_discard
from games.engine.bots.joker_wait import JOKER_WAITED, joker_wait_discard
from games.engine.bots.own_draws import RaceBudget, race_discard
from games.engine.bots.policies import (
    discard_options,
    should_fold,
    strong,
    strong_at_speed,
    strong_counting_the_set,
    strong_feeding_least,
    strong_folding_carefully,
    strong_reading_the_wall,
    strong_reading_the_wall_always,
    strong_reading_waits,
    strong_style,
)
from games.engine.bots.seen import OtherSeat, PlayerView, unseen_pool
from games.engine.bots.stakes import stake_choice
from games.engine.bots.value import settle_win
from games.engine.bots.value_pong import FAN_KEPT, FAN_PONGED, keep_fan_honour, value_pong
from games.engine.bots.win_chance import (
    strong_by_win_chance,
    strong_by_win_chance_far,
    strong_by_win_chance_untimed,
    strong_claiming_by_win_chance,
)
from games.engine.hand import shanten
from games.engine.rulesets import get_ruleset
from games.engine.state import Meld
from games.engine.tiles import HONOR, KINDS, Tile, tiles_of

# A rollout stops after this many draws (all seats together): most hands end sooner, and a far
# horizon adds cost and little signal (the rest is scored as a draw, 0).
HORIZON = 48
# Search push against fold while a table threat (defence.py's readiness × size) is this big,
# or strong folds, and this hand is not ready. Searching strong's fastest discards against each
# other (one from ready, three of them beside its choice) cost on the same deals: the rollouts
# judge danger and speed but not the plans and calls strong prices (docs/benchmarks.md).
SEARCH_THREAT = 0.9
# Depart from strong's choice only when the paired difference is this many standard errors
# above zero: few samples are noisy, and the rollouts know less than strong of what claims and
# big patterns bring (Shanghai, 200 duplicate hands, seed 22: searching hands two from ready
# and departing at 1.5 standard errors, expert − strong −0.21 [−2.18, +1.76]; one from ready
# and 2 standard errors, +0.13 [−0.23, +0.50]).
CLEAR = 2.0
# Other seats are dealt hands this far from ready when not ready (1, 2, 3 away), so that the
# sampled table is as advanced as the real one (readiness from defence.py)
AWAY = (0.45, 0.35, 0.2)


@dataclass(frozen=True)
class Budget:
    """How much one decision may search: at most `samples` worlds, and no new world once the
    next one would end past `time_ms` (None: samples only — reproducible, for tests and
    arena runs that must replay exactly)."""

    samples: int = 128
    time_ms: float | None = 150.0


def budget_from_environment() -> Budget:
    """The live budget, or — with EXPERT_WORLDS=N in the environment — exactly N worlds per
    searched decision and no clock: an arena on a machine shared with other jobs then measures
    the bot an idle machine plays (on a loaded one the clock would leave it a handful of worlds),
    and replays exactly."""
    worlds = os.environ.get("EXPERT_WORLDS", "")
    return Budget(samples=int(worlds), time_ms=None) if worlds.isdigit() else Budget()


BUDGET = budget_from_environment()
SEARCH_ROLLOUTS = os.environ.get("EXPERT_SEARCH") == "rollouts"
# The variants where expert races its own draws among strong's alike discards (own_draws.py).
# Not two-player: there it lost on the same deals with four players' ending curve, and with
# its own curve and stake was level over four seeds (docs/bots.md); not Shanghai or yihua either
RACED = frozenset(os.environ.get("EXPERT_RACED", "tianjin,cantonese").split(","))
# The variants where expert races its answers to a discard (claims.py); none by default
CLAIMS_RACED = frozenset(os.environ.get("EXPERT_CLAIMS_RACED", "").split(",")) - {""}
# The variants where expert's base move weighs a ready hand's waits by how each kind of tile
# wins (wait_odds.py; two-player only — the table is two-player's). Off by default: level with
# strong on the goal seeds (docs/bots.md, "expert in two-player: where the points come from,
# plans at speed, waits weighed by how they win")
WAIT_ODDS = frozenset(os.environ.get("EXPERT_WAIT_ODDS", "").split(",")) - {""}
# The variants where the screening level `speed` plays strong with no plan priced (level with
# strong on seeds 7 and 31: docs/bots.md, the same section)
AT_SPEED_TRIAL = frozenset(os.environ.get("EXPERT_AT_SPEED", "two_player").split(",")) - {""}
# The variants where expert's base move counts outs on the copies likely left in the wall, the
# one opponent's likely hand read from its river (opponent_hand.py; two-player only). Off by
# default: level with strong on the goal seeds (docs/bots.md, "expert in two-player: the
# opponent's hand read from its river")
WALL_READ = frozenset(os.environ.get("EXPERT_WALL_READ", "").split(",")) - {""}
# The variants where expert's base move ranks strong's fastest discards by the exact chance of
# completing the hand over its own draws left (win_chance.py; two-player only). On in two-player:
# above strong on both goal seeds, not yet at 95 % (20,000 duplicate hands: seed 22 +0.075, seed 23
# +0.210; docs/bots.md, "expert in two-player: an exact win chance over its own draws")
WIN_CHANCE = frozenset(os.environ.get("EXPERT_WIN_CHANCE", "two_player").split(",")) - {""}
RACE_BUDGET = (
    RaceBudget(samples=int(os.environ["EXPERT_WORLDS"]), time_ms=None)
    if os.environ.get("EXPERT_WORLDS", "").isdigit()
    else RaceBudget()
)


@dataclass(frozen=True)
class Plan:
    """A candidate: the discard now, and whether the seat keeps folding after it."""

    tile: Tile
    fold: bool


@dataclass(frozen=True)
class Judgement:
    """One candidate as the search saw it: expected points for this seat per hand."""

    action: Action
    fold: bool
    mean: float
    samples: int


class Evaluator(Protocol):
    """What a review needs: the moves worth considering at a decision, each with its value."""

    def evaluate(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> list[Judgement]: ...


@dataclass(frozen=True)
class RolloutEvaluator:
    budget: Budget = BUDGET

    def evaluate(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> list[Judgement]:
        """The searched candidates, best first; [] where expert does not search (claims, kongs,
        wins, a single sensible discard) — strong's choice stands there."""
        return search_candidates(view, legal, rng, self.budget)[1]


def expert(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong's move, but Tianjin's pre-hand stakes (坐庄 / 拉庄) chosen by stakes.py; its
    discard raced over its own draws among strong's alike discards where RACED lists the
    variant (own_draws.py), then weighed by the deal-in tables (expectation.py); its answer to
    a discard raced (claims.py) where CLAIMS_RACED lists the variant; honours worth a fan
    ponged (value_pong.py) where FAN_PONGED lists the variant and kept where FAN_KEPT does —
    or, with
    EXPERT_SEARCH=rollouts in the environment, the earlier push-or-fold search below (kept to
    compare; it did not beat strong, docs/bots.md)."""
    if SEARCH_ROLLOUTS:
        return search_candidates(view, legal, rng, BUDGET)[0]
    return expert_move(view, legal, rng, RACE_BUDGET)


def expert_move(
    view: PlayerView, legal: Sequence[Action], rng: random.Random, race_budget: RaceBudget
) -> Action:
    """The kept expert's move with its races on `race_budget`: the review passes a budget of
    samples only, so its recommendation never depends on the clock."""
    v = view.variant
    base_bot = strong_reading_waits if v in WAIT_ODDS else strong
    if v in WALL_READ:
        base_bot = strong_reading_the_wall
    if v in WIN_CHANCE:  # (with no clock where the races have none: the review)
        base_bot = strong_by_win_chance if race_budget.time_ms is not None else strong_by_win_chance_untimed
    return _kept_expert(
        view,
        legal,
        rng,
        v in CLAIMS_RACED,
        v in FAN_PONGED,
        v in FAN_KEPT,
        base_bot=base_bot,
        race_budget=race_budget,
    )


def expert_racing_claims(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert, its answers to a discard (chi, pong or pass) also raced (claims.py) — in every
    variant but two-player, where expert is strong move for move. Screened beside the kept
    expert as the level `expert_trial` (EXPERT_TRIAL=claims, bots/__init__.py)."""
    v = view.variant
    return _kept_expert(view, legal, rng, v != "two_player", v in FAN_PONGED, v in FAN_KEPT)


def expert_value_ponging(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert, also ponging an honour worth a fan at the same distance from ready, and throwing a
    lone honour worth none before one worth a fan, where the variant scores them (value_pong.py:
    Cantonese). Screened beside the kept expert as the level `expert_trial`
    (EXPERT_TRIAL=value_pong, bots/__init__.py)."""
    return _kept_expert(view, legal, rng, view.variant in CLAIMS_RACED, True, True)


def expert_fan_ponging(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert with the value pong's pong alone (an honour worth a fan ponged at the same distance
    from ready), not its keep: the keep departs about eight times as often, so the two parts are
    screened apart (EXPERT_TRIAL=fan_pong, bots/__init__.py)."""
    return _kept_expert(view, legal, rng, view.variant in CLAIMS_RACED, True, view.variant in FAN_KEPT)


def expert_fan_keeping(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert with the value pong's keep as well (a lone guest honour thrown before a lone honour
    worth a fan); its pong is the kept expert's, on where FAN_PONGED lists the variant
    (EXPERT_TRIAL=fan_keep, bots/__init__.py)."""
    return _kept_expert(view, legal, rng, view.variant in CLAIMS_RACED, view.variant in FAN_PONGED, True)


def expert_race_counted(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert, its race over its own draws played by strong's one-step count instead of the
    greedy keep-if-closer (own_draws.py, COUNTED) — built for two-player, screened in Cantonese and
    Tianjin beside the kept expert (EXPERT_TRIAL=race_counted, bots/__init__.py)."""
    v = view.variant
    return _kept_expert(view, legal, rng, v in CLAIMS_RACED, v in FAN_PONGED, v in FAN_KEPT, counted=True)


# The race's departure bar the screening level `race_bar` tries (own_draws.CLEAR is 2)
TRIAL_RACE_CLEAR = 1.5


def expert_racing_on_a_lower_bar(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert, its race over its own draws departing from strong's discard at `TRIAL_RACE_CLEAR`
    standard errors instead of own_draws.CLEAR: more departures, each less sure. Screened beside
    the kept expert as the level `expert_trial` (EXPERT_TRIAL=race_bar, bots/__init__.py)."""
    v = view.variant
    return _kept_expert(
        view, legal, rng, v in CLAIMS_RACED, v in FAN_PONGED, v in FAN_KEPT, race_clear=TRIAL_RACE_CLEAR
    )


def expert_at_speed(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert, its base move strong's with no plan priced (policies.strong_at_speed) where
    AT_SPEED_TRIAL lists the variant. Screened as the level `expert_trial`
    (EXPERT_TRIAL=speed, bots/__init__.py)."""
    v = view.variant
    return _kept_expert(
        view, legal, rng, v in CLAIMS_RACED, v in FAN_PONGED, v in FAN_KEPT, at_speed=v in AT_SPEED_TRIAL
    )


def _expert_on(
    base_bot: Callable[[PlayerView, Sequence[Action], random.Random], Action],
) -> Callable[[PlayerView, Sequence[Action], random.Random], Action]:
    """The kept expert with `base_bot` in place of strong as its base move: the screening
    levels that change only that (EXPERT_TRIAL=<name>, bots/__init__.py)."""

    def played(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        v = view.variant
        return _kept_expert(
            view, legal, rng, v in CLAIMS_RACED, v in FAN_PONGED, v in FAN_KEPT, base_bot=base_bot
        )

    return played


# expert, its base move strong's with a ready hand's waits weighed by how each kind of tile wins in
# two-player (policies.strong_reading_waits, wait_odds.py; EXPERT_TRIAL=wait_odds)
expert_reading_waits = _expert_on(strong_reading_waits)


# expert, its base move's discards counted on the copies likely left in the wall in two-player
# (policies.strong_reading_the_wall, opponent_hand.py; EXPERT_TRIAL=wall)
expert_reading_the_wall = _expert_on(strong_reading_the_wall)


# expert_reading_the_wall at every decision, its claims and hold-out too (EXPERT_TRIAL=wall_always)
expert_reading_the_wall_always = _expert_on(strong_reading_the_wall_always)


# expert, its base move's hold-out reading two-player's unseen copies within its set
# (policies.strong_counting_the_set; EXPERT_TRIAL=set_count)
expert_counting_the_set = _expert_on(strong_counting_the_set)


# expert, its base move's ties between discards broken by what the one opponent is least likely
# to call in two-player (policies.strong_feeding_least; EXPERT_TRIAL=unfed)
expert_feeding_least = _expert_on(strong_feeding_least)


# expert, its base move's fastest discards ranked by the exact chance of completing the hand over
# its own draws left in two-player (win_chance.strong_by_win_chance; EXPERT_TRIAL=win_chance)
expert_by_win_chance = _expert_on(strong_by_win_chance)


# expert_by_win_chance from 3 from ready too (win_chance.strong_by_win_chance_far;
# EXPERT_TRIAL=win_chance_far)
expert_by_win_chance_far = _expert_on(strong_by_win_chance_far)


# expert_by_win_chance, its answers to a discard (chi, pong or pass) by the same chance
# (win_chance.strong_claiming_by_win_chance; EXPERT_TRIAL=win_chance_claims)
expert_claiming_by_win_chance = _expert_on(strong_claiming_by_win_chance)


# expert, its base move strong's folding against a third of the threat (policies.
# strong_folding_carefully; EXPERT_TRIAL=careful): what folding like people costs
expert_folding_carefully = _expert_on(strong_folding_carefully)


def expert_joker_waiting(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """expert passing a self-drawn win for a joker wait in Tianjin (joker_wait.py) whatever
    EXPERT_JOKER_WAIT says: with EXPERT_JOKER_WAIT= (empty) the kept expert plays without it, so
    the two are screened beside each other (EXPERT_TRIAL=joker_wait, bots/__init__.py)."""
    v = view.variant
    waited = frozenset({"tianjin"})
    claims, pongs, keeps = v in CLAIMS_RACED, v in FAN_PONGED, v in FAN_KEPT
    return _kept_expert(view, legal, rng, claims, pongs, keeps, joker_waits=waited)


def _kept_expert(
    view: PlayerView,
    legal: Sequence[Action],
    rng: random.Random,
    claims: bool,
    honour_pongs: bool,
    fan_keeps: bool,
    counted: bool | None = None,
    race_clear: float | None = None,
    at_speed: bool = False,
    base_bot: Callable[[PlayerView, Sequence[Action], random.Random], Action] = strong,
    race_budget: RaceBudget | None = None,
    joker_waits: frozenset[str] = JOKER_WAITED,
) -> Action:
    budget = race_budget or RACE_BUDGET
    if view.phase == "choose" and view.variant == "tianjin":
        return stake_choice(view, legal)  # 坐庄 / 拉庄: what the pair's payments are worth
    base = strong_at_speed(view, legal, rng) if at_speed else base_bot(view, legal, rng)
    if base.type == "win":
        return joker_wait_discard(view, legal, base, joker_waits)  # 混吊 (Tianjin) or the win
    if honour_pongs and view.phase == "claim":
        base = value_pong(view, legal, base)
    if claims and view.phase == "claim":
        return race_claim(view, legal, base, rng, budget)
    if view.phase != "turn" or base.type != "discard":
        return base
    if view.variant in RACED:
        base = race_discard(view, legal, base, rng, budget, counted, race_clear)
    if fan_keeps:
        base = keep_fan_honour(view, legal, base)
    return expected_discard(view, legal, base)


# -- what is searched ------------------------------------------------------------------------


def search_candidates(
    view: PlayerView, legal: Sequence[Action], rng: random.Random, budget: Budget
) -> tuple[Action, list[Judgement]]:
    started = time.perf_counter()
    base = strong(view, legal, rng)
    if view.phase != "turn" or base.type != "discard" or base.tile is None:
        return base, []  # wins, claims, kongs and pre-hand choices: strong's
    if not get_ruleset(view.variant).win_on_discard:
        # Tianjin: no discard is dangerous, and what its hands are worth (kongs paid when made,
        # the 龙) is what strong prices and a rollout does not see (400 duplicate hands, seed 23:
        # searching there, expert − strong −0.050 [−0.099, −0.001])
        return base, []
    plans, base_plan = _candidates(view, legal, base.tile)
    if len(plans) < 2:
        return base, []
    search_rng = random.Random(rng.getrandbits(64))
    values = _values(view, plans, search_rng, budget, started)
    if not values[0]:
        return base, []
    i_base = plans.index(base_plan)
    n = len(values[0])
    means = [statistics.fmean(v) for v in values]
    best = max(range(len(plans)), key=lambda i: (means[i], i == i_base))
    choice = base
    if best != i_base and _clearly_better(values[best], values[i_base]):
        choice = _discard(legal, plans[best].tile, base)
    judged = [
        Judgement(_discard(legal, p.tile, base), p.fold, round(m, 3), n)
        for p, m in zip(plans, means, strict=True)
    ]
    judged.sort(key=lambda j: -j.mean)
    return choice, judged


def _clearly_better(a: list[float], b: list[float]) -> bool:
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(d)
    if mean <= 0:
        return False
    if len(d) < 2:
        return False
    se = statistics.stdev(d) / math.sqrt(len(d))
    return mean > CLEAR * se


def _discard(legal: Sequence[Action], tile: Tile, base: Action) -> Action:
    same = [a for a in legal if a.type == "discard" and a.tile == tile]
    # as strong: undeclared where the variant lets the seat choose (two-player 报听)
    return min(same, key=lambda a: a.ready != base.ready) if same else base


def _candidates(view: PlayerView, legal: Sequence[Action], base_tile: Tile) -> tuple[list[Plan], Plan]:
    """Push or fold: searched only where an opponent looks close (a threat ≥ SEARCH_THREAT, or
    strong folds) while this hand is not ready — strong's move, its fastest push, and the
    safest tile played as a fold. Elsewhere strong's move stands: which of two pushes is
    better is a matter of shape and plans, which strong judges and the rollouts do not."""
    style = strong_style(view.variant)
    ts = threats(view) if style.defend else []
    tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
    options = discard_options(view, view.hand, view.melds, tiles, ts, style)
    folding = should_fold(view, options, ts, style)
    base_plan = Plan(base_tile, folding)
    fastest = min(o.shanten for o in options)
    threat = max((th.level for th in ts), default=0.0)
    if not ts or fastest < 1 or not (folding or threat >= SEARCH_THREAT):
        return [base_plan], base_plan
    plans = [base_plan]
    push = min(options, key=lambda o: (o.shanten, -o.worth))
    if push.tile is not None:
        plans.append(Plan(push.tile, False))
    safest = min(options, key=lambda o: (round(o.risk, 2), o.shanten, -o.worth))
    if safest.tile is not None:
        plans.append(Plan(safest.tile, True))
    return list(dict.fromkeys(plans)), base_plan


# -- worlds ------------------------------------------------------------------------------------


@dataclass
class World:
    """One sampled deal of what this seat cannot see, and what each seat's play needs."""

    hands: list[bytearray]  # per seat; this seat's is its own 14 (the candidate's discard is taken out)
    melds: list[tuple[Meld, ...]]  # per seat, for scoring (hidden kongs given a sampled kind)
    needs: list[int]  # groups still to make in the concealed part, per seat
    rivers: list[set[Tile]]  # kinds each seat has discarded
    wall: list[Tile]
    draws: int


def _take_random(pool: bytearray, rng: random.Random) -> Tile | None:
    total = sum(pool)
    if not total:
        return None
    r = rng.randrange(total)
    for t in range(KINDS):
        r -= pool[t]
        if r < 0:
            pool[t] -= 1
            return t
    return None


def _random_hand(pool: bytearray, size: int, rng: random.Random) -> bytearray:
    hand = bytearray(KINDS)
    for _ in range(size):
        t = _take_random(pool, rng)
        if t is None:
            break
        hand[t] += 1
    return hand


def _ready_hand(pool: bytearray, groups: int, rng: random.Random) -> bytearray | None:
    """groups melds and a pair from the pool, less one tile: ready by construction (None, the
    pool untouched, when the pool cannot make it)."""
    hand = bytearray(KINDS)
    taken: list[Tile] = []

    def take(ts: Sequence[Tile]) -> None:
        for t in ts:
            pool[t] -= 1
            hand[t] += 1
            taken.append(t)

    for _ in range(groups):
        if rng.random() < 0.3:
            kinds = [t for t in range(KINDS) if pool[t] >= 3]
            if kinds:
                take((rng.choice(kinds),) * 3)
                continue
        starts = [t for t in range(HONOR) if t % 9 <= 6 and pool[t] and pool[t + 1] and pool[t + 2]]
        if not starts:
            kinds = [t for t in range(KINDS) if pool[t] >= 3]
            if not kinds:
                break
            take((rng.choice(kinds),) * 3)
            continue
        s = rng.choice(starts)
        take((s, s + 1, s + 2))
    pairs = [t for t in range(KINDS) if pool[t] >= 2]
    if len(taken) < 3 * groups or not pairs:
        for t in taken:
            pool[t] += 1
        return None
    take((rng.choice(pairs),) * 2)
    out = rng.choice(taken)
    hand[out] -= 1
    pool[out] += 1
    return hand


def _opponent_hand(
    view: PlayerView, o: OtherSeat, size: int, groups: int, pool: bytearray, rng: random.Random
) -> bytearray:
    """A hand for `o` shaped as the table suggests: ready, one away or two away as often as its
    readiness says (报听: always ready); early, with nothing laid or thrown, just random."""
    if size != 3 * groups + 1 or (not o.melds and not o.hidden_kongs and len(o.discards) < 4):
        return _random_hand(pool, size, rng)
    ready = 1.0 if o.ready else seat_threat(o, True, view.variant).ready
    r = rng.random()
    away = 0
    if r >= ready:
        r = (r - ready) / (1 - ready)
        away = 1 if r < AWAY[0] else 2 if r < AWAY[0] + AWAY[1] else 3
    hand = _ready_hand(pool, groups, rng)
    if hand is None:
        return _random_hand(pool, size, rng)
    for _ in range(away):  # swap a held tile for a random unseen one
        held = [t for t in range(KINDS) if hand[t]]
        out = rng.choice(held)
        t = _take_random(pool, rng)
        if t is None:
            break
        hand[out] -= 1
        pool[out] += 1
        hand[t] += 1
    return hand


def sample_world(view: PlayerView, rng: random.Random) -> World:
    n = view.players
    pool = unseen_pool(view)
    hands: list[bytearray] = [bytearray(KINDS) for _ in range(n)]
    melds: list[tuple[Meld, ...]] = [() for _ in range(n)]
    needs = [0] * n
    rivers: list[set[Tile]] = [set() for _ in range(n)]
    hands[view.me] = bytearray(view.hand)
    melds[view.me] = view.melds
    needs[view.me] = max(0, 4 - len(view.melds))
    for o in view.others:
        hidden = []
        for _ in range(o.hidden_kongs):  # yihua hides them: a kind with four copies unseen
            kinds = [t for t in range(KINDS) if pool[t] >= 4]
            if kinds:
                k = rng.choice(kinds)
                pool[k] -= 4
                hidden.append(Meld("concealed_kong", (k,) * 4))
        melds[o.seat] = (*o.melds, *hidden)
        needs[o.seat] = max(0, 4 - len(o.melds) - o.hidden_kongs)
        rivers[o.seat] = set(o.discards)
    # 报听 and melded seats first: their shapes need the pool most
    order = sorted(view.others, key=lambda o: (not o.ready, -len(o.melds)))
    for o in order:
        size = o.hand_count if o.hand_count >= 0 else 3 * needs[o.seat] + 1
        hands[o.seat] = _opponent_hand(view, o, size, needs[o.seat], pool, rng)
    wall = tiles_of(bytes(pool))
    rng.shuffle(wall)
    draws = min(len(wall), view.wall_left, HORIZON)
    return World(hands, melds, needs, rivers, wall, draws)


# -- rollouts ----------------------------------------------------------------------------------


def _values(
    view: PlayerView, plans: list[Plan], rng: random.Random, budget: Budget, started: float
) -> list[list[float]]:
    values: list[list[float]] = [[] for _ in plans]
    rules = get_ruleset(view.variant)
    table = _Table(view, rules.win_on_discard)
    first = time.perf_counter()
    for i in range(budget.samples):
        if budget.time_ms is not None:
            now = time.perf_counter()
            # the next world costs about what the last ones did (the first: a guess, 1 ms)
            per = (now - first) / i if i else 0.001
            if (now - started + per) * 1000 > budget.time_ms:
                break
        world = sample_world(view, rng)
        line = table.timeline(world)
        for k, plan in enumerate(plans):
            values[k].append(table.rollout(world, line, plan))
    return values


@dataclass
class _Timeline:
    """What the other seats do in one world, whatever this seat plays: without calls, the
    draw order is fixed, and the others' hands change only by their own draws and discards —
    so they are played once per world and every candidate replays only this seat's own hand
    against them (the cost of a candidate is a quarter of a rollout).

    Index i is the i-th draw of the world's wall (seat `me + 1 + i`); `before[i]` is the
    others' state just before that draw: per seat, its concealed counts when ready (None
    otherwise) and its river."""

    # per draw: ("mine", 0, ()) for this seat's, else ("self", tile, pay) or ("discard", tile, ())
    events: list[tuple[str, Tile, tuple[int, ...]]]
    # per draw index: per seat, (ready 13-tile counts or None, kinds thrown so far)
    before: list[list[tuple[bytes | None, frozenset[Tile]]]]
    # per discard event: the first other seat that wins on it (in turn order from the
    # discarder, this seat left out) with the payments, or None
    takers: list[tuple[int, tuple[int, ...]] | None]


class _Table:
    """The fixed facts of one decision, and the fast rollout over a world."""

    def __init__(self, view: PlayerView, discard_wins: bool) -> None:
        self.view = view
        self.n = view.players
        self.me = view.me
        self.jokers = view.jokers
        self.discard_wins = discard_wins
        self.flowers: list[tuple[Tile, ...]] = [() for _ in range(self.n)]
        self.flowers[view.me] = view.flowers
        # how likely each opponent is ready, from the table only (a folding seat's guide)
        self.readiness = [0.0] * self.n
        for o in view.others:
            self.flowers[o.seat] = o.flower_tiles
            self.readiness[o.seat] = 0.95 if o.ready else seat_threat(o, True, view.variant).ready
        self._wins: dict[tuple[int, bytes, Tile, int | None, tuple[Meld, ...]], tuple[int, ...]] = {}

    def dist(self, hand: bytearray | bytes, need: int) -> int:
        if not self.jokers:
            return shanten(bytes(hand), 0, need)
        c = bytearray(hand)
        j = 0
        for t in self.jokers:
            j += c[t]
            c[t] = 0
        return shanten(bytes(c), j, need)

    def wins_on(
        self, seat: int, hand13: bytes, tile: Tile, need: int, melds: tuple[Meld, ...], frm: int | None
    ) -> tuple[int, ...]:
        """The payments if `seat`, holding the ready `hand13`, wins on `tile` (() if no win);
        remembered within the decision (the same ready hands meet the same tiles often)."""
        key = (seat, hand13, tile, frm, melds)
        got = self._wins.get(key)
        if got is None:
            h = bytearray(hand13)
            h[tile] += 1
            got = self.settle(seat, hand13, tile, melds, frm) if self.dist(h, need) == -1 else ()
            self._wins[key] = got
        return got

    def timeline(self, w: World) -> _Timeline:
        n, me = self.n, self.me
        hands = [bytearray(h) for h in w.hands]
        sh = [self.dist(hands[s], w.needs[s]) if s != me else 9 for s in range(n)]
        rivers = [frozenset(r) for r in w.rivers]
        events: list[tuple[str, Tile, tuple[int, ...]]] = []
        before: list[list[tuple[bytes | None, frozenset[Tile]]]] = []
        takers: list[tuple[int, tuple[int, ...]] | None] = []

        def snapshot() -> list[tuple[bytes | None, frozenset[Tile]]]:
            return [(bytes(hands[s]) if s != me and sh[s] == 0 else None, rivers[s]) for s in range(n)]

        state = snapshot()
        for i in range(w.draws):
            before.append(state)
            seat = (me + 1 + i) % n
            if seat == me:
                events.append(("mine", 0, ()))
                takers.append(None)
                continue
            drawn = w.wall[i]
            h = hands[seat]
            h[drawn] += 1
            now = self.dist(h, w.needs[seat])
            if now == -1:
                h[drawn] -= 1
                pay = self.settle(seat, bytes(h), drawn, w.melds[seat], None)
                h[drawn] += 1
                if pay:
                    events.append(("self", drawn, pay))
                    takers.append(None)
                    return _Timeline(events, before, takers)
            if now < sh[seat] or drawn in self.jokers:
                tile = self.keep(h, drawn, now, w.needs[seat])
                h[tile] -= 1
                sh[seat] = self.dist(h, w.needs[seat])
            else:
                tile = drawn
                h[tile] -= 1
            events.append(("discard", tile, ()))
            taker = None
            if self.discard_wins:
                for k in range(1, n):
                    s = (seat + k) % n
                    if s == me or sh[s] != 0 or tile in rivers[s]:
                        continue
                    pay = self.wins_on(s, bytes(hands[s]), tile, w.needs[s], w.melds[s], seat)
                    if pay:
                        taker = (s, pay)
                        break
            takers.append(taker)
            rivers[seat] = rivers[seat] | {tile}
            state = snapshot()
            if taker is not None:
                return _Timeline(events, before, takers)
        before.append(state)
        return _Timeline(events, before, takers)

    def rollout(self, w: World, line: _Timeline, plan: Plan) -> float:
        n, me = self.n, self.me
        need = w.needs[me]
        h = bytearray(w.hands[me])
        h[plan.tile] -= 1
        sh = self.dist(h, need)
        river = set(w.rivers[me])
        tile = plan.tile
        i = -1  # this seat's discard before the first draw of the world
        while True:
            # this seat's discard: does it win for another seat (turn order from here)?
            if self.discard_wins:
                others = line.before[i + 1]
                for k in range(1, n):
                    s = (me + k) % n
                    hand13, thrown = others[s]
                    if hand13 is None or tile in thrown:
                        continue
                    pay = self.wins_on(s, hand13, tile, w.needs[s], w.melds[s], me)
                    if pay:
                        return float(pay[me])
            river.add(tile)
            # the others' draws up to this seat's next one
            i += 1
            while i < len(line.events) and line.events[i][0] != "mine":
                kind, t, pay = line.events[i]
                if kind == "self":
                    return float(pay[me])
                seat = (me + 1 + i) % n
                taker = line.takers[i]
                if self.discard_wins and sh == 0 and t not in river:
                    # this seat may win on it, if it comes before the other taker in turn order
                    mine = (me - seat) % n
                    if taker is None or mine < (taker[0] - seat) % n:
                        pay = self.wins_on(me, bytes(h), t, need, w.melds[me], seat)
                        if pay:
                            return float(pay[me])
                if taker is not None:
                    return float(taker[1][me])
                i += 1
            if i >= len(line.events):
                return 0.0  # the horizon (a hand the others end was returned above)
            # this seat's draw
            drawn = w.wall[i]
            h[drawn] += 1
            now = self.dist(h, need)
            if now == -1:
                h[drawn] -= 1
                pay = self.wins_on(me, bytes(h), drawn, need, w.melds[me], None)
                h[drawn] += 1
                if pay:
                    return float(pay[me])
            if plan.fold:
                tile = self.safest(h, line.before[i])
                h[tile] -= 1
                sh = self.dist(h, need)
                continue
            if now < sh or drawn in self.jokers:
                tile = self.keep(h, drawn, now, need)
                h[tile] -= 1
                sh = self.dist(h, need)
            else:
                tile = drawn
                h[tile] -= 1

    def keep(self, h: bytearray, drawn: Tile, target: int, need: int) -> Tile:
        """The discard that keeps the improvement: the most isolated tile that does."""
        best: Tile | None = None
        held = [t for t in range(KINDS) if h[t] and t not in self.jokers]
        for t in sorted(held, key=lambda t: -_isolation(h, t)):
            h[t] -= 1
            d = self.dist(h, need)
            h[t] += 1
            if d <= max(target, 0):
                return t
            if best is None:
                best = t
        return best if best is not None else drawn

    def safest(self, h: bytearray, others: list[tuple[bytes | None, frozenset[Tile]]]) -> Tile:
        """A folding seat's discard: the tile the likely-ready opponents threw (then the most
        isolated), judged from rivers only."""
        best: tuple[float, int, Tile] | None = None
        for t in range(KINDS):
            if not h[t] or (t in self.jokers and sum(h) > sum(h[j] for j in self.jokers)):
                continue
            danger = sum(self.readiness[s] for s in range(self.n) if s != self.me and t not in others[s][1])
            key = (danger, -_isolation(h, t), t)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[2]

    def settle(
        self, seat: int, h: bytes | bytearray, win: Tile, melds: tuple[Meld, ...], from_seat: int | None
    ) -> tuple[int, ...]:
        """The payments of `seat`'s win on `win` (`h` holds the 13 others), () if the variant's
        scoring refuses it."""
        v = self.view
        return settle_win(
            v.variant,
            bytes(h),
            win,
            melds,
            self.flowers[seat],
            seat,
            v.dealer,
            v.players,
            v.round_wind,
            v.jokers,
            v.discarded_joker if seat == v.me else False,
            from_seat,
        )


def _isolation(h: bytearray, t: Tile) -> int:
    if h[t] >= 2:
        return 0
    if t >= HONOR:
        return 6
    r = t % 9
    lo, hi = t - min(r, 2), t + min(8 - r, 2)
    return 4 - min(sum(h[lo : hi + 1]) - h[t], 3) + (1 if r in (0, 8) else 0)
