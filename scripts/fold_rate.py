#!/usr/bin/env python3
"""How often a level folds: four bots of one level (two in two-player) play the arena's deals,
and every time strong's fold test runs inside a bot's discard it is counted — the share of
discards thrown as a fold, and of seat-hands with at least one (docs/bots.md, "Folding").

    .venv/bin/python scripts/fold_rate.py --variant shanghai --level expert --hands 1000

strong and expert fold by the same test (`policies.should_fold`: a threat against a hand one
or two from ready, weighed more as the own draws run out); easy and normal never fold. The
script wraps that test to count it — the bots' moves are the arena's, move for move, so the
draw, win and deal-in rates it prints are the arena's for the same seed and hands.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import policies  # noqa: E402
from games.engine.bots.arena import arena  # noqa: E402
from games.engine.bots.defence import Threat  # noqa: E402
from games.engine.bots.policies import Option, Style  # noqa: E402
from games.engine.bots.seen import PlayerView  # noqa: E402


class FoldCounter:
    """strong's fold test, counted: per seat, a new hand begins when the wall is fuller than
    at that seat's last discard."""

    def __init__(self) -> None:
        self.discards = 0
        self.folds = 0
        self.hand_of_seat: dict[int, int] = {}
        self.last_wall: dict[int, int] = {}
        self.folded_seat_hands: set[tuple[int, int]] = set()
        self.test = policies.should_fold

    def __call__(self, view: PlayerView, options: list[Option], ts: list[Threat], style: Style) -> bool:
        folded = self.test(view, options, ts, style)
        if view.wall_left > self.last_wall.get(view.me, -1):
            self.hand_of_seat[view.me] = self.hand_of_seat.get(view.me, 0) + 1
        self.last_wall[view.me] = view.wall_left
        self.discards += 1
        if folded:
            self.folds += 1
            self.folded_seat_hands.add((view.me, self.hand_of_seat[view.me]))
        return folded


def fold_rate(variant: str, level: str, hands: int, seed: int) -> dict[str, Any]:
    counter = FoldCounter()
    seats = [level] * (2 if variant == "two_player" else 4)
    policies.should_fold = counter  # strong's own call goes through the module's name
    try:
        summary, _ = arena(variant, hands, seats, seed)
    finally:
        policies.should_fold = counter.test
    figures = summary["levels"][level]
    return {
        "variant": variant,
        "level": level,
        "hands": hands,
        "draw_rate": summary["draw_rate"],
        "win_rate": figures["win_rate"],
        "deal_in_rate": figures["deal_in_rate"],
        "folded_discards": round(counter.folds / max(1, counter.discards), 4),
        "seat_hands_with_a_fold": round(len(counter.folded_seat_hands) / (hands * len(seats)), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--level", required=True)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    print(json.dumps(fold_rate(args.variant, args.level, args.hands, args.seed)))


if __name__ == "__main__":
    main()
