"""Micro-benchmarks of hand analysis (`python -m games.engine bench [--quick]`).

Every figure is the median, over batches of calls, of the mean time per call
in the batch (time.perf_counter_ns around the whole batch). The hands are a
fixed, seeded set of realistic hands, and the `mahjong` library (the riichi
reference implementation) runs on the very same hands in the same process, so
the ratios ours/library hold on any machine even when the absolute figures
move.

"Warm" figures run after one untimed pass, when the memo tables hold every
suit the hands contain: that is the steady state of a long-running server.
"Cold" figures empty the tables first and time that single first pass (mean
per call, since the misses are what is measured).
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.engine import hand
from games.engine.tiles import KINDS, counts_of

SEED = 20240611
BATCH = 50  # calls per timed batch


# ---------------------------------------------------------------------------
# The hands.


def _meld(rng: random.Random) -> list[int]:
    """A random meld, runs about twice as common as pungs (as in real hands)."""
    if rng.random() < 0.65:
        start = rng.randrange(3) * 9 + rng.randrange(7)
        return [start, start + 1, start + 2]
    return [rng.randrange(KINDS)] * 3


def complete_hand(rng: random.Random) -> list[int]:
    """14 tiles: four melds and a pair, never more than four copies of a kind."""
    while True:
        tiles = [t for _ in range(4) for t in _meld(rng)] + [rng.randrange(KINDS)] * 2
        if max(counts_of(tiles)) <= 4:
            return tiles


def perturb(rng: random.Random, tiles: list[int], swaps: int = 1) -> list[int]:
    """Replace `swaps` tiles by random kinds (keeping at most four copies)."""
    out = list(tiles)
    done = 0
    while done < swaps:
        i = rng.randrange(len(out))
        new = rng.randrange(KINDS)
        if new != out[i] and out.count(new) < 4:
            out[i] = new
            done += 1
    return out


def dealt_hand(rng: random.Random, size: int) -> list[int]:
    wall = [t for t in range(KINDS) for _ in range(4)]
    return rng.sample(wall, size)


def hand_sets(n: int, seed: int = SEED) -> dict[str, list[bytes] | list[tuple[bytes, int]]]:
    """The fixed benchmark hands.

    complete14: 14 tiles, half complete, half one tile away (the test made on
    every draw); jokers14: the same kind of hands where two tiles are jokers;
    hands13: 13 tiles for waits and shanten, a third each ready (a complete hand
    minus a tile), one or two tiles off, and fresh deals.
    """
    rng = random.Random(seed)
    complete14: list[bytes] = []
    jokers14: list[tuple[bytes, int]] = []
    hands13: list[bytes] = []
    for i in range(n):
        tiles = complete_hand(rng)
        if i % 2:
            tiles = perturb(rng, tiles)
        complete14.append(counts_of(tiles))
        tiles = complete_hand(rng)
        if i % 2:
            tiles = perturb(rng, tiles)
        rng.shuffle(tiles)
        jokers14.append((counts_of(tiles[2:]), 2))
        kind = i % 3
        if kind == 0:
            tiles = complete_hand(rng)
            tiles.pop(rng.randrange(14))
        elif kind == 1:
            tiles = perturb(rng, complete_hand(rng), 1 + i % 2)
            tiles.pop(rng.randrange(14))
        else:
            tiles = dealt_hand(rng, 13)
        hands13.append(counts_of(tiles))
    return {"complete14": complete14, "jokers14": jokers14, "hands13": hands13}


# ---------------------------------------------------------------------------
# Timing.


def median_us(call: Callable[..., Any], args: Sequence[tuple[Any, ...]], repeats: int) -> float:
    """Median over batches of the mean µs per call `call(*a)`; one untimed warm-up pass."""
    for a in args:
        call(*a)
    means: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeats):
        for start in range(0, len(args) - BATCH + 1, BATCH):
            batch = args[start : start + BATCH]
            t0 = clock()
            for a in batch:
                call(*a)
            means.append((clock() - t0) / len(batch) / 1000)
    return statistics.median(means)


def first_pass_us(
    call: Callable[..., Any], args: Sequence[tuple[Any, ...]], reset: Callable[[], None]
) -> float:
    """Mean µs per call of one pass right after `reset` emptied the tables."""
    reset()
    t0 = time.perf_counter_ns()
    for a in args:
        call(*a)
    return (time.perf_counter_ns() - t0) / len(args) / 1000


def machine() -> dict[str, Any]:
    """What the figures were measured on; the load average says how busy it was."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    return {"cpus": os.cpu_count(), "cpu": cpu, "python": platform.python_version(), "load": load}


def _simulate_figures(hands: int) -> dict[str, Any]:
    """Bot hands per second on one core: the machine and the bots, warm tables, without the
    per-step invariant checks that `simulate` runs by default (those are a test, not play)."""
    from games.engine.rulesets import VARIANT_IDS
    from games.engine.simulate import simulate

    out: dict[str, Any] = {}
    for variant in VARIANT_IDS:
        simulate(variant, max(5, hands // 10), 99, check=False)  # warm the hand tables
        result = simulate(variant, hands, 1, check=False)
        out[variant] = result.get("hands_per_s")
        if result.get("errors"):
            out[variant + "_errors"] = result["errors"]
    return out


def bot_decision_figures(hands: int, seed: int = 7) -> dict[str, Any]:
    """Milliseconds per bot decision, per level: median and p99 over every decision with a
    choice (more than one legal action), the whole call timed — the view built from the state,
    read back, and the policy — in hands where the levels play each other, seats rotated."""
    from games.engine.actions import apply, legal_actions, new_hand, seats_to_act
    from games.engine.bots import LEVELS, decide
    from games.engine.rulesets import VARIANT_IDS, get_ruleset

    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    rng = random.Random(seed)
    for variant in VARIANT_IDS:
        n = get_ruleset(variant).players
        for i in range(hands):
            levels = [LEVELS[(s + i) % len(LEVELS)] for s in range(n)]
            state = new_hand(variant, seed * 1000 + i, dealer=i % n, base=2 if variant == "yihua" else 1)
            while state.phase != "over":
                seat = seats_to_act(state)[0]
                started = time.perf_counter_ns()
                action = decide(levels[seat], state, seat, rng)
                spent = (time.perf_counter_ns() - started) / 1e6
                if len(legal_actions(state, seat)) > 1:
                    times[levels[seat]].append(spent)
                state, _ = apply(state, seat, action)
    out: dict[str, Any] = {}
    for level, ms in times.items():
        ms.sort()
        out[level] = {
            "decisions": len(ms),
            "median_ms": round(statistics.median(ms), 3),
            "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
        }
    return out


def view_figures(hands: int, seed: int = 11) -> dict[str, Any]:
    """Microseconds to build one seat's view (`view_for`, what a live table renders for each
    player at each version) and, of that, the waits help (`waits_json`): mean and p99 over every
    seat at every step of hands the easy bot plays."""
    from games.engine.actions import apply, new_hand, seats_to_act
    from games.engine.bots import decide
    from games.engine.rulesets import VARIANT_IDS, get_ruleset
    from games.engine.view import view_for
    from games.engine.waits import waits_json

    rng = random.Random(seed)
    clock = time.perf_counter_ns
    out: dict[str, Any] = {}
    for variant in VARIANT_IDS:
        n = get_ruleset(variant).players
        views: list[float] = []
        helps: list[float] = []
        for i in range(hands):
            state = new_hand(variant, seed * 1000 + i, dealer=i % n, base=2 if variant == "yihua" else 1)
            while state.phase != "over":
                for seat in range(n):
                    t0 = clock()
                    view_for(state, seat)
                    t1 = clock()
                    waits_json(state, seat)
                    views.append((t1 - t0) / 1000)
                    helps.append((clock() - t1) / 1000)
                seat = seats_to_act(state)[0]
                state, _ = apply(state, seat, decide("easy", state, seat, rng))
        views.sort()
        helps.sort()
        out[variant] = {
            "view_us": round(statistics.mean(views), 1),
            "view_p99_us": round(views[int(len(views) * 0.99)], 1),
            "waits_help_us": round(statistics.mean(helps), 1),
        }
    return out


def review_figures(hands: int, seed: int = 13) -> dict[str, Any]:
    """Seconds to review one seat's whole hand (games.engine.review: replaying the record and
    judging every decision of the seat), median and max over `hands` bot-played hands per variant
    (the normal bot at every seat; the reviewed seat rotates). The records are built untimed. The
    CPU seconds of the process are given too: on a shared, loaded machine the wall clock also
    counts the time other processes had the core."""
    from games.engine.record import hand_record
    from games.engine.review import review_hand
    from games.engine.rulesets import VARIANT_IDS, get_ruleset
    from games.engine.simulate import play_hand

    out: dict[str, Any] = {}
    for variant in VARIANT_IDS:
        n = get_ruleset(variant).players
        times: list[float] = []
        cpu: list[float] = []
        for i in range(hands):
            setup = {"dealer": i % n, "base": 2, "salt": f"{seed:02x}{i:062x}"}
            _state, log, _ = play_hand(variant, i, bot="normal", check=False, **setup)
            actions = [(s, a.to_json(), "bot") for s, a in log]
            record = json.loads(json.dumps(hand_record(variant, i, setup, actions, [])))
            started, started_cpu = time.perf_counter(), time.process_time()
            review_hand(record, i % n)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        out[variant] = {
            "hands": hands,
            "median_s": round(statistics.median(times), 3),
            "max_s": round(max(times), 3),
            "cpu_median_s": round(statistics.median(cpu), 3),
        }
    return out


# ---------------------------------------------------------------------------


def run_bench(quick: bool = False) -> dict[str, Any]:
    """Run every benchmark, print a table and, last, one JSON line; return the figures."""
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    n = 600 if quick else 3000
    repeats = 2 if quick else 7
    sets = hand_sets(n)
    # every call site gets a tuple of arguments, ours and the library's alike
    complete14 = [(c,) for c in sets["complete14"]]
    jokers14 = sets["jokers14"]
    hands13 = [(c,) for c in sets["hands13"]]
    lists14 = [(list(c),) for (c,) in complete14]
    lists13 = [(list(c),) for (c,) in hands13]

    figures: dict[str, Any] = {}
    # cold first: a fresh set of tables, as after a server start
    figures["cold_is_complete_us"] = first_pass_us(hand.is_complete, complete14, hand.reset_tables)
    figures["cold_shanten_us"] = first_pass_us(hand.shanten, hands13, hand.reset_tables)
    figures["cold_shanten_joins_us"] = first_pass_us(
        hand.shanten, hands13, lambda: hand.reset_tables(combinations_only=True)
    )
    figures["cold_waits_us"] = first_pass_us(hand.waits, hands13, hand.reset_tables)

    figures["is_complete_us"] = median_us(hand.is_complete, complete14, repeats)
    figures["is_complete_2j_us"] = median_us(hand.is_complete, jokers14, repeats)
    figures["waits_us"] = median_us(hand.waits, hands13, repeats)
    figures["shanten_us"] = median_us(hand.shanten, hands13, repeats)
    figures["lib_is_agari_us"] = median_us(Agari.is_agari, lists14, repeats)
    figures["lib_shanten_us"] = median_us(Shanten.calculate_shanten_for_regular_hand, lists13, repeats)
    figures["ratio_is_complete"] = figures["is_complete_us"] / figures["lib_is_agari_us"]
    figures["ratio_is_complete_2j"] = figures["is_complete_2j_us"] / figures["lib_is_agari_us"]
    figures["ratio_shanten"] = figures["shanten_us"] / figures["lib_shanten_us"]
    for key, value in list(figures.items()):
        figures[key] = round(value, 3)

    figures["bot_decisions"] = bot_decision_figures(4 if quick else 40)
    figures["views"] = view_figures(3 if quick else 30)
    figures["review"] = review_figures(5 if quick else 200)
    sim = _simulate_figures(20 if quick else 200)
    figures["simulate_hands_per_s"] = sim or None
    figures["hands"] = {"complete14": len(complete14), "jokers14": len(jokers14), "hands13": len(hands13)}
    figures["machine"] = machine()
    figures["quick"] = quick
    _print_table(figures)
    print(json.dumps(figures, ensure_ascii=False))
    return figures


def _print_table(f: dict[str, Any]) -> None:
    agari = f["lib_is_agari_us"]
    rows = [
        ("complete-hand test, 0 jokers", f["is_complete_us"], agari, f["ratio_is_complete"]),
        ("complete-hand test, 2 jokers", f["is_complete_2j_us"], agari, f["ratio_is_complete_2j"]),
        ("shanten (13 tiles)", f["shanten_us"], f["lib_shanten_us"], f["ratio_shanten"]),
        ("waits (13 tiles)", f["waits_us"], None, None),
    ]
    m = f["machine"]
    print(f"Machine: {m['cpus']} × {m['cpu']}, Python {m['python']}, load average {m['load']}")
    print(f"Hand analysis, median µs per call (hands: {f['hands']})")
    print(f"{'':32}{'ours':>9}{'mahjong lib':>13}{'ours/lib':>10}")
    for label, ours, lib, ratio in rows:
        lib_s = f"{lib:13.2f}" if lib is not None else f"{'-':>13}"
        ratio_s = f"{ratio:10.2f}" if ratio is not None else f"{'-':>10}"
        print(f"{label:32}{ours:9.2f}{lib_s}{ratio_s}")
    print("cold tables (first pass after emptying them), mean µs per call:")
    print(
        f"  complete-hand test {f['cold_is_complete_us']:.2f}, shanten {f['cold_shanten_us']:.2f}"
        f" (suit tables warm, join tables empty: {f['cold_shanten_joins_us']:.2f}),"
        f" waits {f['cold_waits_us']:.2f}"
    )
    print("bot decisions (with a choice), ms per call:")
    for level, b in f["bot_decisions"].items():
        print(f"  {level:8} median {b['median_ms']:.2f}, p99 {b['p99_ms']:.2f} ({b['decisions']} decisions)")
    print("one seat's view (view_for), mean µs per call, and of that the waits help:")
    for variant, v in f["views"].items():
        print(
            f"  {variant:11} view {v['view_us']:.0f} (p99 {v['view_p99_us']:.0f}),"
            f" waits help {v['waits_help_us']:.0f}"
        )
    print("review of one seat's whole hand (replay + every decision), seconds:")
    for variant, r in f["review"].items():
        print(
            f"  {variant:11} median {r['median_s']:.3f}, max {r['max_s']:.3f},"
            f" CPU median {r['cpu_median_s']:.3f} ({r['hands']} hands)"
        )
    sim = f["simulate_hands_per_s"]
    if not sim:
        print("simulate: not available yet")
    else:
        print("simulated hands/s with the easy bot: " + ", ".join(f"{k} {v}" for k, v in sim.items()))


__all__ = ["complete_hand", "dealt_hand", "hand_sets", "perturb", "run_bench"]
