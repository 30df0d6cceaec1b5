"""What 坐庄 / 拉庄 are worth in Tianjin: the dealer's mean payment per hand from each non-dealer.

    PYTHONPATH=. nice -n 19 .venv/bin/python scripts/tianjin_stakes.py --hands 4000 --seed 91000 \
        --seats strong,strong,strong,strong

Every hand is played at m = 1 (no 坐庄, no 拉 — the levels' choices are overridden), the dealer
taking each seat in turn. Every payment between two players (wins, kongs, 铲) is split into the
flows of its pairs; a pair multiplier m multiplies exactly the dealer–k flow (RULES §5.2), so the
dealer's mean flow from non-dealer k at m = 1 is what one more doubling of that pair is worth to
the dealer per hand: 坐庄 doubles all three pairs, a non-dealer's 拉 its own. Printed per
position of k (next seat, opposite, previous) and summed, each with a 95 % interval over hands;
also the mean per seat-level when the levels differ. The arena's seeds (22, 23) are not used.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.actions import Action, apply, new_hand, seats_to_act  # noqa: E402
from games.engine.bots import decide  # noqa: E402
from games.engine.state import HandState  # noqa: E402

POSITIONS = ("next", "opposite", "previous")  # the non-dealer at dealer + 1, + 2, + 3


def pair_flows(pay: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(payer, receiver, amount) of one payment: one receiver paid by the rest (a win, a kong)
    or one payer paying the rest (铲)."""
    plus = [s for s, v in enumerate(pay) if v > 0]
    minus = [s for s, v in enumerate(pay) if v < 0]
    if len(plus) == 1:
        return [(s, plus[0], -pay[s]) for s in minus]
    if len(minus) == 1:
        return [(minus[0], s, pay[s]) for s in plus]
    raise ValueError(f"a payment that is not one-to-many: {pay}")


def dealer_flows(state: HandState) -> list[int]:
    """What the dealer received from each non-dealer position this hand (negative: paid)."""
    result = state.result
    assert result is not None
    dealer, n = state.dealer, state.num_players
    payments = [s.payments for s in result.scores] + [p for _, p in result.extras]
    flows = [0] * (n - 1)
    for pay in payments:
        for payer, receiver, amount in pair_flows(pay):
            if receiver == dealer:
                flows[(payer - dealer) % n - 1] += amount
            elif payer == dealer:
                flows[(receiver - dealer) % n - 1] -= amount
    return flows


def at_unit_stakes(level: str, state: HandState, seat: int, rng: random.Random) -> Action:
    """The level's action, except that the pre-hand choices are the first (m = 1)."""
    if state.phase == "choose":
        return Action("choose", kind="zuozhuang" if seat == state.dealer else "lazhuang", value=0)
    return decide(level, state, seat, rng)


def play(seed: int, levels: list[str], dealer: int) -> HandState:
    state = new_hand("tianjin", seed, dealer=dealer, base=1)
    rng = random.Random(seed ^ 0xA4E7A)
    while state.phase != "over":
        for seat in seats_to_act(state):
            if state.phase == "over" or seat not in seats_to_act(state):
                continue
            state, _ = apply(state, seat, at_unit_stakes(levels[seat], state, seat, rng))
    return state


def interval(xs: list[float]) -> list[float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return [round(mean, 4), round(mean - half, 4), round(mean + half, 4)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=91000)
    parser.add_argument("--seats", default="strong,strong,strong,strong")
    parser.add_argument("--progress", type=int, default=500)
    args = parser.parse_args()
    seats = args.seats.split(",")
    per_position: list[list[float]] = [[] for _ in POSITIONS]
    total: list[float] = []
    by_dealer_level: dict[str, list[float]] = {}
    for i in range(args.hands):
        dealer = i % 4
        levels = [seats[(s + i // 4) % 4] for s in range(4)]  # every level deals from every seat
        state = play(args.seed * 1_000_003 + i, levels, dealer)
        flows = dealer_flows(state)
        for k, f in enumerate(flows):
            per_position[k].append(f)
        total.append(sum(flows))
        by_dealer_level.setdefault(levels[dealer], []).append(sum(flows))
        if (i + 1) % args.progress == 0:
            print(i + 1, "hands: dealer's net", interval(total), file=sys.stderr, flush=True)
    out = {
        "hands": args.hands,
        "seed": args.seed,
        "seats": seats,
        "dealer_from_each": {p: interval(v) for p, v in zip(POSITIONS, per_position, strict=True)},
        "dealer_net": interval(total),
        "dealer_net_by_dealer_level": {k: interval(v) for k, v in by_dealer_level.items()},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
