#!/usr/bin/env python3
"""Tile efficiency alone: one hand, no opponents, no claims — how often each discard rule
completes a hand within N draws (docs/bots.md, "Solitaire").

    .venv/bin/python scripts/bot_solitaire.py --deals 1500 --draws 18 --modes one,tie,two
    .venv/bin/python scripts/bot_solitaire.py --set two_player --deals 3000 --draws 16 --modes tie,chance

Every deal is a shuffled wall without flowers — the 136 tiles, or with `--set two_player` that
variant's 64 (万 and honours ×4); the hand is the first 13 tiles and draws the next N,
discarding by the rule; `unseen` is 4 minus what the hand has held or thrown (0 for a kind
outside the set). Rules (the fastest shanten first in all):
  one  the most improving tiles (ukeire), ties by the most isolated tile (normal's count);
  tie  as one, ties of the count broken by `two_step` (strong's look-ahead, 1–2 from ready);
  two  `two_step` first among the 4 best by count, 1–2 from ready (the first try, not kept);
  all  `two_step` first among the 4 best, at every distance;
  band `two_step` first among those within 85 % of the best count, 1–2 from ready;
  chance the exact chance of completing within the draws left (win_chance.py: expectimax over
       the improving draws), 1–`CHANCE_MAX` from ready; ties, and a look-ahead over budget, as tie;
  far  as chance, 1–3 from ready on the far budget (win_chance.FAR_REACH, FAR_STATES).
The same deals for every rule, so the rules' rates are paired.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.bots.shape import distance, improving, isolation, two_step
from games.engine.bots.win_chance import FAR_REACH, FAR_STATES, MAX_STATES, Race, chances
from games.engine.tiles import HONOR, KINDS

# the chance rule looks ahead from at most this far from ready (farther: `tie`; --chance-max)
CHANCE_MAX = 2
SETS = {
    "full": tuple(range(KINDS)),
    "two_player": (*range(9), *range(HONOR, KINDS)),  # 万 and honours (flowers left out)
}


def _pick(c: bytearray, unseen: bytes, mode: str, left: int = 0) -> int:
    opts = []
    for t in range(KINDS):
        if c[t]:
            c[t] -= 1
            b = bytes(c)
            opts.append((distance(b, 0, ()), improving(b, 0, (), unseen)[0], t, b))
            c[t] += 1
    fastest = min(o[0] for o in opts)
    best = [o for o in opts if o[0] == fastest]
    near = 1 <= fastest <= 2 or (mode == "all" and fastest >= 1)
    if mode in ("two", "all") and near:
        top = sorted(best, key=lambda o: -o[1])[:4]
        return max(top, key=lambda o: (two_step(o[3], 0, (), unseen), o[1]))[2]
    if mode == "band" and near:
        most = max(o[1] for o in best)
        within = [o for o in best if o[1] >= 0.85 * most]
        return max(within, key=lambda o: (two_step(o[3], 0, (), unseen), o[1]))[2]
    reach, states = (FAR_REACH, FAR_STATES) if mode == "far" else (CHANCE_MAX, MAX_STATES)
    if mode in ("chance", "far") and 1 <= fastest <= reach and left > 0:
        got = chances(Race(unseen, bytes(c), 0, left, max_states=states), [o[2] for o in best])
        if got is not None:
            tie = _pick(c, unseen, "tie")
            return max(best, key=lambda o: (round(got[o[2]], 12), o[2] == tie))[2]
        mode = "tie"
    if mode == "tie" and near:
        most = max(o[1] for o in best)
        tied = [o for o in best if o[1] == most]
        return max(tied, key=lambda o: (two_step(o[3], 0, (), unseen), isolation(c, o[2])))[2]
    return max(best, key=lambda o: (o[1], isolation(c, o[2])))[2]


def deal(seed: int, mode: str, draws: int, kinds: tuple[int, ...] = SETS["full"]) -> int | None:
    """Draws needed to complete the hand, or None."""
    rng = random.Random(seed)
    wall = [t for t in kinds for _ in range(4)]
    rng.shuffle(wall)
    c = bytearray(KINDS)
    for t in wall[:13]:
        c[t] += 1
    seen = bytearray(4 for _ in range(KINDS))
    for t in kinds:
        seen[t] = c[t]
    for i, t in enumerate(wall[13 : 13 + draws]):
        c[t] += 1
        seen[t] += 1
        if distance(bytes(c), 0, ()) < 0:
            return i + 1
        c[_pick(c, bytes(max(0, 4 - x) for x in seen), mode, draws - i - 1)] -= 1
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--draws", type=int, default=18)
    parser.add_argument("--modes", default="one,tie")
    parser.add_argument("--set", choices=sorted(SETS), default="full", help="the tiles of the wall")
    parser.add_argument("--first", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--chance-max", type=int, default=CHANCE_MAX, help="the chance rule's reach")
    args = parser.parse_args()
    globals()["CHANCE_MAX"] = args.chance_max
    seeds = range(args.first, args.first + args.deals)
    first: list[bool] | None = None
    for mode in args.modes.split(","):
        done = [deal(s, mode, args.draws, SETS[args.set]) for s in seeds]
        won = [d for d in done if d]
        mean = round(statistics.fmean(won), 2) if won else None
        print(f"{mode}: completed {len(won) / len(done):.1%} within {args.draws} draws, mean draws {mean}")
        if first is None:
            first = [bool(d) for d in done]
        else:
            print(f"  {_paired([bool(d) for d in done], first)}")


def _paired(these: list[bool], first: list[bool]) -> str:
    """The paired difference to the first rule, per deal, with its 95 % interval."""
    d = [int(a) - int(b) for a, b in zip(these, first, strict=True)]
    mean = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
    gained, lost = d.count(1), d.count(-1)
    interval = f"[{mean - half:+.2%}, {mean + half:+.2%}]"
    return f"against the first rule: +{gained} −{lost} deals, {mean:+.2%} {interval}"


if __name__ == "__main__":
    main()
