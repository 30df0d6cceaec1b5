"""The load test's tally (scripts/loadtest.py): latencies by type and window, errors told from
fault effects, and the confirmed acts the accounting checks against the database."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

FAULT_WINDOW = 15.0
WINDOW = 10.0  # seconds per window of the latency time line


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    by_type: dict[str, list[float]] = field(default_factory=dict)  # latencies per action type
    by_window: dict[int, list[float]] = field(default_factory=dict)  # latencies per 10 s of the run
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    fault_effects: Counter[str] = field(default_factory=Counter)
    stale: int = 0
    reconnects: int = 0
    frames: int = 0  # frames the sockets received (state, error, ack), and their bytes
    frame_bytes: int = 0
    busy: int = 0  # connections a saturated process refused (`busy`, retry_after: admission control)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of the run, by process kind
    sql: dict[str, int] = field(default_factory=dict)  # statements by process kind, transactions
    stolen: float = 0.0  # share of the machine's CPU time the hypervisor gave to others meanwhile
    faults: list[tuple[float, str, int | None]] = field(default_factory=list)  # (time, kind, port)
    stopping: bool = False  # answers cut off by the end of the run are nobody's error
    stalls: list[dict[str, Any]] = field(default_factory=list)  # the first views not updated, in detail
    started: float = 0.0  # when the driving began (monotonic): the windows count from it
    log_marks: dict[str, int] | None = None

    def record(self, sent: float, latency: float, kind: str) -> None:
        """One action's latency, in the totals, its 10-s window and its type — unless the run was
        stopping meanwhile (sockets closing: the end's, not the server's; they made a last,
        partial window of several hundred ms in every run)."""
        if self.stopping:
            return
        self.latencies.append(latency)
        window = int((sent - self.started) // WINDOW)
        self.by_window.setdefault(window, []).append(latency)
        self.by_type.setdefault(kind, []).append(latency)

    def problem(self, kind: str, port: int | None) -> None:
        """An error, or a fault effect when a fault happened just before (on this port, for kills)."""
        if self.stopping:
            return
        now = time.monotonic()
        for when, fault, fault_port in self.faults:
            if when <= now <= when + FAULT_WINDOW and (fault != "kill" or fault_port in (None, port)):
                self.fault_effects[kind] += 1
                return
        self.errors[kind] += 1


@dataclass
class Confirmed:
    table: int
    hand: int
    seat: int
    action: dict[str, Any]
    sent_at: int = -1  # the version the act was sent at
    answer: int | None = None  # the version its answer carried (None: none came)
