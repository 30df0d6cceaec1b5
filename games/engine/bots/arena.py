"""Bots of different levels play each other: points per hand with a 95 % interval, per level.

Seats are rotated: in hand i the level list is shifted by i, so every level sits in every
seat equally often. The dealer and its counters carry from hand to hand as at a real table.
A level's points in one hand are the mean over the seats it holds (before the balance floor,
base stake 1 — yihua 2); its interval is over hands (1.96 standard errors).
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine.actions import apply, new_hand, seats_to_act
from games.engine.bots import check_level, decide
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState

MAX_STEPS = 2000


@dataclass
class LevelTally:
    points: list[float] = field(default_factory=list)  # per hand: mean over this level's seats
    seat_hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    win_values: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = len(self.points)
        mean = statistics.fmean(self.points) if n else 0.0
        half = 1.96 * statistics.stdev(self.points) / math.sqrt(n) if n > 1 else 0.0
        return {
            "points_per_hand": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "win_rate": round(self.wins / self.seat_hands, 4) if self.seat_hands else 0.0,
            "deal_in_rate": round(self.deal_ins / self.seat_hands, 4) if self.seat_hands else 0.0,
        }

    @property
    def avg_win_value(self) -> float:
        return round(statistics.fmean(self.win_values), 2) if self.win_values else 0.0


@dataclass(frozen=True)
class Detail:
    """What the table prints besides the JSON line (whose form the issue fixes)."""

    avg_win_value: dict[str, float]  # per level, in the variant's unit (flowers, fan, ×)
    patterns: dict[str, float]  # the eight commonest winning patterns, share of all wins


def parse_seats(variant: str, seats: str) -> list[str]:
    """'strong,easy,easy,easy' → levels, one per seat of the variant; EngineError if wrong."""
    levels = [check_level(s.strip()) for s in seats.split(",")]
    players = get_ruleset(variant).players
    if len(levels) != players:
        raise EngineError("bad_seats", f"{variant} has {players} seats; got {len(levels)} levels")
    return levels


def play(variant: str, seed: int, levels: list[str], dealer: int, counters: dict[str, int]) -> HandState:
    base = 2 if variant == "yihua" else 1
    state = new_hand(variant, seed, dealer=dealer, base=base, counters=counters)
    rng = random.Random(seed ^ 0xA4E7A)
    steps = 0
    while state.phase != "over":
        for seat in seats_to_act(state):
            if state.phase == "over" or seat not in seats_to_act(state):
                continue
            state, _ = apply(state, seat, decide(levels[seat], state, seat, rng))
            steps += 1
        if steps > MAX_STEPS:
            raise EngineError("runaway_hand", f"hand {seed} did not end in {MAX_STEPS} actions")
    return state


def arena(variant: str, hands: int, seats: list[str], seed: int) -> tuple[dict[str, Any], Detail]:
    """Play `hands` hands: the summary the CLI prints as its last line, and the detail (average
    winning value per level, the mix of winning patterns) it prints above it."""
    if hands < 1:
        raise EngineError("bad_hands", "hands must be at least 1")
    rules = get_ruleset(variant)
    n = rules.players
    tallies = {level: LevelTally() for level in dict.fromkeys(seats)}
    draws = 0
    patterns: Counter[str] = Counter()  # over every win: the mix of winning hands
    dealer, counters = 0, {}
    for i in range(hands):
        levels = [seats[(s + i) % n] for s in range(n)]  # rotated: every level in every seat
        state = play(variant, seed * 1_000_003 + i, levels, dealer, counters)
        result = state.result
        assert result is not None
        draws += result.drawn
        per_level: dict[str, list[int]] = {}
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
        for level, pts in per_level.items():
            tallies[level].points.append(statistics.fmean(pts))
        counters = rules.carry_counters(state, result)
        dealer = result.next_dealer % n
    wins = sum(t.wins for t in tallies.values())
    summary = {
        "variant": variant,
        "hands": hands,
        "draw_rate": round(draws / hands, 4),
        "levels": {level: t.summary() for level, t in tallies.items()},
    }
    mix = {p: round(n / wins, 4) for p, n in patterns.most_common(8)} if wins else {}
    return summary, Detail({level: t.avg_win_value for level, t in tallies.items()}, mix)


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
    lines.append("winning patterns: " + ", ".join(f"{p} {share:.1%}" for p, share in detail.patterns.items()))
    return "\n".join(lines)
