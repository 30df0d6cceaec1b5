"""The load test's readings and report (scripts/loadtest.py): SQL statements by process kind,
and the summary JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lt_ledger import report_ledger  # noqa: E402
from lt_stack import ROOT, Stack, psql  # noqa: E402
from lt_stats import WINDOW, Stats, percentile  # noqa: E402

sys.path.insert(0, str(ROOT))
from games.table.statements import read_counts  # noqa: E402


def sql_readings(stack: Stack) -> tuple[dict[int, int], int]:
    """(statements sent so far by each server process, transactions of the stack's database
    so far): the processes count their own (games.table.statements), PostgreSQL the rest."""
    xacts = psql(f"SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '{stack.name}'")
    return read_counts(stack.log_dir), int(xacts or 0)


def sql_used(
    before: tuple[dict[int, int], int], after: tuple[dict[int, int], int], stack: Stack
) -> dict[str, int]:
    """Statements by the daphne processes and by the clock, and transactions, within the window
    (a process started meanwhile, a restarted daphne, counts from 0)."""
    clock = stack.clock_proc.pid if stack.clock_proc is not None else None
    used = {"daphne": 0, "run_clock": 0}
    for pid, count in after[0].items():
        used["run_clock" if pid == clock else "daphne"] += count - before[0].get(pid, 0)
    used["transactions"] = after[1] - before[1]
    return used


def summary(
    args: argparse.Namespace,
    stats: Stats,
    ledger: dict[str, Any],
    kills: int,
    elapsed: float,
    server_errors: list[str],
) -> dict[str, Any]:
    lat = [1000 * x for x in stats.latencies]
    errors = sum(stats.errors.values()) + len(server_errors)
    report_ledger(ledger)
    by_window = {  # seconds into the run: p99 ms of the acts sent then (faults show here)
        f"{WINDOW * w:.0f}s": round(1000 * percentile(v, 99), 1) for w, v in sorted(stats.by_window.items())
    }
    detail = {
        "errors_by_kind": dict(stats.errors),
        "view_not_updated_details": stats.stalls,
        "fault_effects": dict(stats.fault_effects),
        "server_errors": server_errors[:20],
        "stale_refusals": stats.stale,
        "reconnects": stats.reconnects,
        "busy_refusals": stats.busy,
        "latency_samples": len(lat),
        "max_ms": round(max(lat), 1) if lat else 0.0,
        "by_type": {  # action type: [samples, p50 ms, p99 ms]
            kind: [len(v), round(1000 * percentile(v, 50), 1), round(1000 * percentile(v, 99), 1)]
            for kind, v in sorted(stats.by_type.items())
        },
        **ledger,
        # where the machine's CPU went (2 cores: 2.0 is all of it), and per confirmed action
        "cpu_cores": {g: round(t / args.seconds, 3) for g, t in stats.cpu.items() if t},
        "cpu_ms_per_action": {g: round(1000 * t / stats.actions, 2) for g, t in stats.cpu.items() if t}
        if stats.actions
        else {},
        "cpu_stolen": round(stats.stolen, 3),
        # SQL statements each kind of server process sent, and the database's transactions
        "sql_per_action": {k: round(v / stats.actions, 2) for k, v in stats.sql.items()}
        if stats.actions
        else {},
        # frames received per confirmed action (each of a table's sockets gets its own) and their size
        "frames_per_action": round(stats.frames / stats.actions, 2) if stats.actions else 0.0,
        "frame_bytes_mean": round(stats.frame_bytes / stats.frames) if stats.frames else 0,
        "mode": "echo" if args.echo else "tables",
        "spread": args.spread,
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }
    print(json.dumps(detail), flush=True)
    return {
        "tables": args.tables,
        "procs": args.procs,
        "seconds": args.seconds,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(lat, 50), 1),
        "p95_ms": round(percentile(lat, 95), 1),
        "p99_ms": round(percentile(lat, 99), 1),
        "errors": errors,
        "lost": ledger["lost"],
        "duplicated": ledger["duplicated"],
        "kills": kills,
        "rate": args.rate,
        "ramp": args.ramp,
        "p99_by_window": by_window,
        # the cost of an action, per kind of process (the detail line has the rest)
        "cpu_ms_per_action": {g: detail["cpu_ms_per_action"].get(g, 0.0) for g in COST_GROUPS},
        "sql_per_action": detail["sql_per_action"],
    }


COST_GROUPS = ("daphne", "postgres", "run_clock", "redis-server", "loadtest")
