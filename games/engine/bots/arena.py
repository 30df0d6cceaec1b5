"""Bots of different levels play each other: points per hand with a 95 % interval, per level.

Seats are rotated: in hand i the level list is shifted by i, so every level sits in every
seat equally often. The dealer and its counters carry from hand to hand as at a real table.
A level's points in one hand are the mean over the seats it holds (before the balance floor,
base stake 1 — yihua 2); its interval is over hands (1.96 standard errors).

Duplicate format (`duplicate=True`, as in duplicate bridge): every deal is played once per
rotation of the level list — the same wall, the same dealer and counters — so each level plays
each seat's tiles of that deal. The luck of the deal cancels within the group; a level's points
for a deal are its mean over the group's seat-hands, and the interval is over deals. Same
quantity (points per hand), a much narrower interval for the same number of hands.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine.actions import Action, apply, new_hand, seats_to_act
from games.engine.bots import LEVELS, check_level, decide
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState

MAX_STEPS = 2000


@dataclass
class LevelTally:
    points: list[float] = field(default_factory=list)  # per hand (per deal in duplicate): mean over its seats
    seat_hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    win_values: list[int] = field(default_factory=list)
    # with --review: per seat-hand, (sum of the review's estimated losses, graded decisions) —
    # against the evaluator's recommendation, and against the highest-valued action
    review: list[tuple[float, int]] = field(default_factory=list)
    review_top: list[tuple[float, int]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = len(self.points)
        mean = statistics.fmean(self.points) if n else 0.0
        half = 1.96 * statistics.stdev(self.points) / math.sqrt(n) if n > 1 else 0.0
        out: dict[str, Any] = {
            "points_per_hand": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "win_rate": round(self.wins / self.seat_hands, 4) if self.seat_hands else 0.0,
            "deal_in_rate": round(self.deal_ins / self.seat_hands, 4) if self.seat_hands else 0.0,
        }
        if self.review:
            out["review_loss"] = review_loss(self.review)
            out["review_loss_top_value"] = review_loss(self.review_top)
        return out

    @property
    def avg_win_value(self) -> float:
        return round(statistics.fmean(self.win_values), 2) if self.win_values else 0.0


def review_loss(per_hand: list[tuple[float, int]]) -> dict[str, Any]:
    """Average estimated loss per decision (a ratio of sums over seat-hands) with its 95 %
    interval: the seat-hands are the independent units (decisions within one hand are not), so
    the interval is the ratio estimator's — 1.96 standard errors from the spread of
    (loss − mean × decisions) over seat-hands."""
    losses = [x for x, _ in per_hand]
    counts = [n for _, n in per_hand]
    total = sum(counts)
    if not total:
        return {"per_decision": None, "ci95": None, "decisions": 0}
    mean = sum(losses) / total
    k = len(per_hand)
    residuals = [x - mean * n for x, n in per_hand]
    sd = statistics.stdev(residuals) if k > 1 else 0.0
    half = 1.96 * sd * math.sqrt(k) / total
    return {
        "per_decision": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "decisions": total,
    }


@dataclass(frozen=True)
class Detail:
    """What the table prints besides the JSON line (whose form the issue fixes)."""

    avg_win_value: dict[str, float]  # per level, in the variant's unit (flowers, fan, ×)
    patterns: dict[str, float]  # the eight commonest winning patterns, share of all wins
    # duplicate only: (first, second) level → (mean, lo, hi) of first − second per deal, the two
    # levels compared on the same deals (narrower than either level's own interval)
    paired: dict[tuple[str, str], tuple[float, float, float]] = field(default_factory=dict)


def parse_seats(variant: str, seats: str) -> list[str]:
    """'strong,easy,easy,easy' → levels, one per seat of the variant; EngineError if wrong."""
    levels = [check_level(s.strip()) for s in seats.split(",")]
    players = get_ruleset(variant).players
    if len(levels) != players:
        raise EngineError("bad_seats", f"{variant} has {players} seats; got {len(levels)} levels")
    return levels


OnAction = Callable[[HandState, int, Action], None]


def play(
    variant: str,
    seed: int,
    levels: list[str],
    dealer: int,
    counters: dict[str, int],
    on_action: OnAction | None = None,
) -> HandState:
    """One hand by bots of `levels`; `on_action(state, seat, action)` sees each action before it
    is applied (the review of every decision)."""
    base = 2 if variant == "yihua" else 1
    state = new_hand(variant, seed, dealer=dealer, base=base, counters=counters)
    rng = random.Random(seed ^ 0xA4E7A)
    steps = 0
    while state.phase != "over":
        for seat in seats_to_act(state):
            if state.phase == "over" or seat not in seats_to_act(state):
                continue
            action = decide(levels[seat], state, seat, rng)
            if on_action is not None:
                on_action(state, seat, action)
            state, _ = apply(state, seat, action)
            steps += 1
        if steps > MAX_STEPS:
            raise EngineError("runaway_hand", f"hand {seed} did not end in {MAX_STEPS} actions")
    return state


def arena(
    variant: str,
    hands: int,
    seats: list[str],
    seed: int,
    duplicate: bool = False,
    review: str | None = None,
    progress: Callable[[dict[str, Any], Detail], None] | None = None,
    every: int = 25,
    first: int = 0,
) -> tuple[dict[str, Any], Detail]:
    """Play `hands` hands: the summary the CLI prints as its last line, and the detail (average
    winning value per level, the mix of winning patterns) it prints above it. In duplicate
    format `hands` is rounded up to whole deals (one hand per seat rotation). With `review` (an
    evaluator's name: strong, value), every decision is reviewed (games.engine.review) and each
    level gets its `review_loss`. `progress` gets the summary and detail of the deals played so
    far after every `every` deals — what a run of that many hands would print (a long run's
    figures are not lost when it has to stop early). `first` starts at that deal: a long run
    continued in another process plays the deals a single run would have played next, each
    with the same seating, but its table starts afresh (the first deal's dealer is seat 0, with
    no counters carried), so its hands are the same deals, not the same hands."""
    if hands < 1:
        raise EngineError("bad_hands", "hands must be at least 1")
    if first < 0:
        raise EngineError("bad_first", "the first deal is 0 or more")
    rules = get_ruleset(variant)
    n = rules.players
    per_deal = n if duplicate else 1
    deals = -(-hands // per_deal)
    tallies = {level: LevelTally() for level in dict.fromkeys(seats)}
    draws = 0
    patterns: Counter[str] = Counter()  # over every win: the mix of winning hands
    dealer, counters = 0, {}
    for played, d in enumerate(range(first, first + deals)):
        per_level: dict[str, list[int]] = {}
        carried: tuple[int, dict[str, int]] | None = None
        for r in range(per_deal):
            i = d * per_deal + r
            levels = [seats[(s + i) % n] for s in range(n)]  # rotated: every level in every seat
            deal_seed = seed * 1_000_003 + (d if duplicate else i)
            reviewed: list[list[tuple[float, float]]] = [[] for _ in range(n)]
            on_action = _reviewer(reviewed, review) if review else None
            state = play(variant, deal_seed, levels, dealer, counters, on_action)
            if review:
                for s, level in enumerate(levels):
                    tallies[level].review.append((sum(x for x, _ in reviewed[s]), len(reviewed[s])))
                    tallies[level].review_top.append((sum(y for _, y in reviewed[s]), len(reviewed[s])))
            result = state.result
            assert result is not None
            draws += result.drawn
            for s, level in enumerate(levels):
                per_level.setdefault(level, []).append(result.payments[s])
                tally = tallies[level]
                tally.seat_hands += 1
                if s in result.winners:
                    score = result.scores[result.winners.index(s)]
                    tally.wins += 1
                    tally.win_values.append(score.value)
                    patterns.update(score.patterns or ("(none)",))
                if result.by in ("discard", "robbing_kong") and result.from_seat == s:
                    tally.deal_ins += 1
            if carried is None:  # the table goes on from the deal's first playing
                carried = (result.next_dealer % n, rules.carry_counters(state, result))
        for level, pts in per_level.items():
            tallies[level].points.append(statistics.fmean(pts))
        assert carried is not None
        dealer, counters = carried
        if progress is not None and (played + 1) % every == 0 and played + 1 < deals:
            progress(*_results(variant, (played + 1) * per_deal, draws, tallies, patterns, duplicate))
    return _results(variant, deals * per_deal, draws, tallies, patterns, duplicate)


def _results(
    variant: str,
    hands: int,
    draws: int,
    tallies: dict[str, LevelTally],
    patterns: Counter[str],
    duplicate: bool,
) -> tuple[dict[str, Any], Detail]:
    wins = sum(t.wins for t in tallies.values())
    summary = {
        "variant": variant,
        "hands": hands,
        "draw_rate": round(draws / hands, 4),
        "levels": {level: t.summary() for level, t in tallies.items()},
    }
    mix = {p: round(n / wins, 4) for p, n in patterns.most_common(8)} if wins else {}
    paired = _paired(tallies) if duplicate else {}
    return summary, Detail({level: t.avg_win_value for level, t in tallies.items()}, mix, paired)


def _reviewer(reviewed: list[list[tuple[float, float]]], evaluator_name: str) -> OnAction:
    """An on_action that reviews each decision from the deciding seat's view and keeps its loss,
    and its loss against the highest-valued alternative (which also judges the strong bot when
    the strong bot is the evaluator: not circular)."""
    # the review builds on the bots: imported here, not at the top
    from games.engine.review import review_decision
    from games.engine.review.evaluator import EVALUATORS

    if evaluator_name not in EVALUATORS:
        raise EngineError("bad_evaluator", f"the review's evaluator is one of {', '.join(EVALUATORS)}")
    evaluator = EVALUATORS[evaluator_name]()

    def on_action(state: HandState, seat: int, action: Action) -> None:
        decision = review_decision(state, seat, action, evaluator)
        if decision is not None and decision["loss"] is not None:
            values = [a["value"] for a in decision["alternatives"] if a["value"] is not None]
            played = next(a["value"] for a in decision["alternatives"] if a["played"])
            reviewed[seat].append((decision["loss"], max(values) - played))

    return on_action


def _paired(tallies: dict[str, LevelTally]) -> dict[tuple[str, str], tuple[float, float, float]]:
    out = {}
    levels = sorted(tallies, key=lambda level: -LEVELS.index(level))  # the stronger level first
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            d = [x - y for x, y in zip(tallies[a].points, tallies[b].points, strict=True)]
            mean = statistics.fmean(d)
            half = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
            out[(a, b)] = (round(mean, 3), round(mean - half, 3), round(mean + half, 3))
    return out


def table(summary: dict[str, Any], detail: Detail) -> str:
    """The human-readable lines printed before the JSON line."""
    lines = [
        f"{summary['variant']}: {summary['hands']} hands, draw rate {summary['draw_rate']:.1%}",
        f"{'level':8}{'points/hand':>13}{'95% CI':>20}{'win rate':>10}{'avg win':>9}{'deal-in':>9}",
    ]
    for level, s in summary["levels"].items():
        lo, hi = s["ci95"]
        lines.append(
            f"{level:8}{s['points_per_hand']:>13.3f}{f'[{lo:.3f}, {hi:.3f}]':>20}"
            f"{s['win_rate']:>10.1%}{detail.avg_win_value[level]:>9.2f}{s['deal_in_rate']:>9.1%}"
        )
    for level, s in summary["levels"].items():
        r = s.get("review_loss")
        if r and r["per_decision"] is not None:
            lo, hi = r["ci95"]
            lines.append(
                f"review loss per decision, {level}: {r['per_decision']:.3f} [{lo:.3f}, {hi:.3f}]"
                f" ({r['decisions']} decisions)"
            )
            t = s["review_loss_top_value"]
            lo, hi = t["ci95"]
            lines.append(f"  against the highest-valued action: {t['per_decision']:.3f} [{lo:.3f}, {hi:.3f}]")
    lines.append("winning patterns: " + ", ".join(f"{p} {share:.1%}" for p, share in detail.patterns.items()))
    for (a, b), (mean, lo, hi) in detail.paired.items():
        lines.append(f"paired per deal: {a} − {b} {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    return "\n".join(lines)
