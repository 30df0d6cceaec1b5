"""The passes of a one-process comparison, printed one way by every bench that alternates them."""

from __future__ import annotations

import statistics


def print_medians(times: dict[str, list[float]], unit: str) -> None:
    """Each way's median over its passes and every pass, `unit` naming what a figure is per."""
    width = max(len(name) for name in times)
    for name, per_call in times.items():
        passes = " ".join(f"{t:.1f}" for t in per_call)
        median = statistics.median(per_call)
        print(f"{name:{width}} median {median:6.1f} µs CPU per {unit}  (passes: {passes})")
