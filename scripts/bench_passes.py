"""The passes of a one-process comparison, printed one way by every bench that alternates them."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Mapping


def bench_arguments(doc: str | None, calls: int, database: str = "") -> argparse.ArgumentParser:
    """The options every alternating bench takes: calls per pass and the number of passes, and
    the database a bench played on the service makes afresh (`database`: its default name)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=calls)
    parser.add_argument("--passes", type=int, default=10)
    if database:
        parser.add_argument("--database", default=database)
    return parser


def alternate(ways: Mapping[str, Callable[[], object]], passes: int, calls: int) -> dict[str, list[float]]:
    """µs of CPU per call of each way, one figure per pass, the ways taking turns within each
    pass so that a drift of the machine falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(passes):
        for name, way in ways.items():
            start = time.process_time()
            for _ in range(calls):
                way()
            times[name].append((time.process_time() - start) / calls * 1e6)
    return times


def print_medians(times: dict[str, list[float]], unit: str) -> None:
    """Each way's median over its passes and every pass, `unit` naming what a figure is per."""
    width = max(len(name) for name in times)
    for name, per_call in times.items():
        passes = " ".join(f"{t:.1f}" for t in per_call)
        median = statistics.median(per_call)
        print(f"{name:{width}} median {median:6.1f} µs CPU per {unit}  (passes: {passes})")
