"""CPU time per bot decision, what an idle core takes (the wall clock on a shared machine
measures the machine): every decision with a choice in hands strong bots play, timed for the
levels named, each in `time.process_time`.

    PYTHONPATH=. nice -n 19 .venv/bin/python scripts/bot_decision_cpu.py expert --hands 6

Time one level per process: the levels share caches (shanten, wait payoffs), so a level timed
after another in the same process finds them warm.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.actions import apply, legal_actions, new_hand, seats_to_act  # noqa: E402
from games.engine.bots import decide  # noqa: E402
from games.engine.rulesets import VARIANT_IDS  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("levels", nargs="+")
    p.add_argument("--hands", type=int, default=6, help="hands per variant")
    p.add_argument("--variant", action="append", choices=VARIANT_IDS, help="only these (default: all)")
    args = p.parse_args()
    took: dict[str, list[float]] = {level: [] for level in args.levels}
    for variant in args.variant or VARIANT_IDS:
        for seed in range(args.hands):
            state = new_hand(variant, 500 + seed, base=2)
            rng = random.Random(seed)
            while state.phase != "over":
                seat = seats_to_act(state)[0]
                if len(legal_actions(state, seat)) > 1:
                    for level, times in took.items():
                        start = time.process_time()
                        decide(level, state, seat, random.Random(1))
                        times.append((time.process_time() - start) * 1000)
                state, _ = apply(state, seat, decide("strong", state, seat, rng))
    for level, times in took.items():
        times.sort()
        print(
            f"{level}: {len(times)} decisions, median {statistics.median(times):.2f} ms, "
            f"p99 {times[int(len(times) * 0.99)]:.2f} ms, max {times[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
