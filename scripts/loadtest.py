#!/usr/bin/env python3
"""Load test of live play over real websockets (docs/benchmarks.md, "Load").

    .venv/bin/python scripts/loadtest.py --tables 100 --seconds 60 --procs 2 [--kill | --kills N] \
        [--rate 0.25] [--ramp 30] [--restart-redis] [--reset-pg] [--echo] [--spread seat]

Starts the production shape (lt_stack.Stack: a fresh PostgreSQL database, a private Redis,
PROCS daphne processes, one clock worker), makes TABLES tables through `POST /api/tables/`
(bots=0) and drives each with 4 client sockets, one per seat, each with its own user and API
token, spread over the daphne ports by table (all four sockets of a table on one process, as a
proxy hashing the table id sends them) or, with `--spread seat`, by seat. Each table acts
about once per second: the client whose `legal` list offers something sends one entry of it,
unchanged, at the version it saw.

Definitions (the accounting):
- *latency*: from sending `act` at version V to the moment all 4 sockets of the table have
  received a state frame with version >= V+1 (the version the act made). A claim the rules hold
  for its undo window (`pending` on the claimer's seat: nobody else may see it for 1.5 s,
  docs/protocol.md) counts until the server's confirmation reached the claimer; the time until
  every socket saw it applied is reported apart, as `<type>_seen` in `by_type`.
- *confirmed*: a client sends `act` with an `id`; the server answers it with one frame naming
  it (`reply_to`): the state it made (or an `ack` when that state went out already) when it
  went through, an `error` when it was refused (docs/protocol.md).
- *lost*: a confirmed hand action (seat, action) missing from the database's HandAction log
  of that table's hand (human rows), counted once no seat holds a claim any more (a confirmed
  claim is held for its undo window, then committed by the clock: `lt_ledger.settle`);
  *duplicated*: a human HandAction row with no confirmed act behind it, beyond the acts whose
  answer was cut off by a fault (those are `unconfirmed`). Each lost and duplicated action is printed (table,
  hand, seat, action; for a lost one the versions it was sent at and answered with) and listed
  in the JSON (`lost_actions`, `duplicated_actions`). `lost_after_3s` is what the old count,
  3 s after the end, would have said (docs/benchmarks.md, "What makes faults safe").
- *errors*: error frames other than `stale_version` (a race with the clock that the client
  heals by acting again), missing answers, viewers not updated within 5 s, and socket closes;
  all of these are counted as `fault_effects` instead when they happen within
  `lt_stats.FAULT_WINDOW` seconds after an injected fault (and, for a kill, only on the killed
  process's sockets).

The last line of output is one JSON object (see `lt_report.summary`).

The parts, by concern: lt_clients (the sockets and the pacing of a table), lt_stats (the
tally), lt_ledger (players, tables and the accounting against the database), lt_report (the
statement readings and the JSON lines), lt_stack (the processes and their CPU).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lt_clients import TableDriver  # noqa: E402
from lt_ledger import account, create_table, django_setup, make_players, settle  # noqa: E402
from lt_report import sql_readings, sql_used, summary  # noqa: E402
from lt_stack import ROOT, Stack, cpu_readings, cpu_used, stolen_ticks  # noqa: E402
from lt_stats import Stats  # noqa: E402

sys.path.insert(0, str(ROOT))
from games.table.statements import ENV as COUNT_SQL  # noqa: E402  (no Django needed to import)

# --- the run --------------------------------------------------------------------------------


async def inject_faults(stack: Stack, args: argparse.Namespace, stats: Stats, stop: asyncio.Event) -> int:
    """Kill/restart a daphne, restart Redis, reset PostgreSQL connections, spread over the run."""
    plan: list[str] = ["kill"] * args.kills
    if args.restart_redis:
        plan.append("redis")
    if args.reset_pg:
        plan.append("pg")
    kills = 0
    for n, fault in enumerate(plan):
        at = args.seconds * (n + 1) / (len(plan) + 1)
        try:
            await asyncio.wait_for(stop.wait(), max(0.0, at - (time.monotonic() - stats.started)))
            return kills
        except TimeoutError:
            pass
        if fault == "kill":
            victim = (len(stack.ports) - 1 - kills) % len(stack.ports)  # the processes in turn
            stats.faults.append((time.monotonic(), "kill", stack.ports[victim]))
            await asyncio.to_thread(stack.kill, victim)
            kills += 1
            print(f"[loadtest] killed daphne {victim} (port {stack.ports[victim]})", file=sys.stderr)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(stack.restart, victim)
            print(f"[loadtest] restarted daphne {victim}", file=sys.stderr)
        elif fault == "redis":
            stats.faults.append((time.monotonic(), "redis", None))
            await asyncio.to_thread(stack.restart_redis)
            print("[loadtest] restarted redis", file=sys.stderr)
        else:
            stats.faults.append((time.monotonic(), "pg", None))
            count = await asyncio.to_thread(stack.reset_pg)
            print(f"[loadtest] terminated {count} PostgreSQL connections", file=sys.stderr)
    return kills


async def drive(drivers: list[TableDriver], stack: Stack, args: argparse.Namespace, stats: Stats) -> int:
    stop = asyncio.Event()
    started = time.monotonic()
    stats.started = started
    print(f"[loadtest] driving {len(drivers)} tables for {args.seconds:g} s", file=sys.stderr, flush=True)
    # Tables arrive spread over the first `ramp` seconds (players do not all click in the same
    # instant); every table then acts at its rate until the end.
    step = args.ramp / len(drivers) if drivers else 0.0
    tasks = [asyncio.create_task(d.run(stop, started + i * step)) for i, d in enumerate(drivers)]
    faults = asyncio.create_task(inject_faults(stack, args, stats, stop))
    cpu_before, stolen_before = cpu_readings(classify=stack.classify), stolen_ticks()
    sql_before = sql_readings(stack)
    await asyncio.sleep(args.seconds)
    stats.cpu = cpu_used(cpu_before, cpu_readings(classify=stack.classify), stack.exited_cpu)
    stats.sql = sql_used(sql_before, sql_readings(stack), stack)
    stolen_after = stolen_ticks()
    stats.stolen = (stolen_after[0] - stolen_before[0]) / max(1, stolen_after[1] - stolen_before[1])
    stats.log_marks = stack.log_marks()  # sockets closing at the end are not the server's errors
    stats.stopping = True
    stop.set()
    kills = await faults
    await asyncio.wait(tasks, timeout=30)
    return kills


def run(args: argparse.Namespace) -> dict[str, Any]:
    name = f"mahjong_lt_{os.getpid()}"
    # Every server process counts its SQL statements into the stack's log directory.
    extra = {COUNT_SQL: str(ROOT / "var" / "loadtest" / name)}
    if args.echo:
        extra["MAHJONG_BENCH_ECHO"] = "1"
    stack = Stack(name, procs=args.procs, clock=not args.echo, extra_env=extra).start()
    try:
        django_setup(stack)
        tokens = make_players(4 * args.tables)
        stats = Stats()
        if args.echo:
            drivers = echo_drivers(args, stack, tokens, stats)
        else:
            table_ids = [
                create_table(stack.ports[t % len(stack.ports)], tokens[4 * t], args.variant)
                for t in range(args.tables)
            ]
            drivers = [
                TableDriver(tid, tokens[4 * t : 4 * t + 4], stack.ports, stats, args.rate, spread=args.spread)
                for t, tid in enumerate(table_ids)
            ]
        began = time.monotonic()
        use_fast_loop()
        kills = asyncio.run(drive(drivers, stack, args, stats))
        elapsed = time.monotonic() - began
        if args.echo:
            ledger: dict[str, Any] = {"lost": 0, "duplicated": 0, "unconfirmed_applied": 0}
        else:
            time.sleep(3.0)  # what the accounting used to wait: kept to show what it miscounted
            early = account(drivers)
            ledger = account(drivers, settled=settle([d.table_id for d in drivers]))
            # counted lost by the old fixed wait, and of what type
            # (docs/benchmarks.md, "What makes faults safe")
            ledger["lost_after_3s"] = early["lost"]
            ledger["lost_after_3s_types"] = dict(Counter(a["action"]["type"] for a in early["lost_actions"]))
        server_errors = stack.server_errors(stats.log_marks)
    finally:
        stack.stop(drop=not args.keep)
    return summary(args, stats, ledger, kills, elapsed, server_errors)


def use_fast_loop() -> None:
    """The load generator shares the machine with what it measures: its event loop is uvloop's
    (libuv, its sockets' reads and writes in C) when installed (requirements-dev.txt), else
    asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def echo_drivers(
    args: argparse.Namespace, stack: Stack, tokens: list[str], stats: Stats
) -> list[TableDriver]:
    """Same clients against games.sockets.bench_echo.EchoConsumer (no database, same layer)."""
    drivers = []
    for t in range(args.tables):
        driver = TableDriver(
            t + 1, tokens[4 * t : 4 * t + 4], stack.ports, stats, args.rate, echo=True, spread=args.spread
        )
        drivers.append(driver)
    return drivers


def parse(argv: list[str] | None) -> argparse.Namespace:
    env = os.environ
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=int(env.get("TABLES", 10)))
    parser.add_argument("--seconds", type=float, default=float(env.get("SECONDS", 30)))
    parser.add_argument("--procs", type=int, default=int(env.get("PROCS", 2)))
    parser.add_argument(
        "--rate", type=float, default=float(env.get("RATE", 1.0)), help="actions per second per table"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=float(env.get("RAMP", 5)),
        help="seconds over which the tables arrive (part of the run; 0: all at once)",
    )
    parser.add_argument("--variant", default=env.get("VARIANT", "shanghai"))
    parser.add_argument(
        "--spread",
        choices=("table", "seat"),
        default=env.get("SPREAD", "table"),
        help="clients over the processes: by table (as a proxy hashing the table id) or by seat",
    )
    parser.add_argument("--kill", action="store_true", help="one kill (as --kills 1)")
    parser.add_argument(
        "--kills",
        type=int,
        default=int(env.get("KILL", "0") or 0),
        help="kill -9 and restart a daphne this many times, spread over the run (in turn)",
    )
    parser.add_argument("--restart-redis", action="store_true", default=env.get("RESTART_REDIS", "0") == "1")
    parser.add_argument("--reset-pg", action="store_true", default=env.get("RESET_PG", "0") == "1")
    parser.add_argument(
        "--echo",
        action="store_true",
        default=env.get("ECHO", "0") == "1",
        help="drive games.sockets.bench_echo instead of real tables (the comparison run)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    if args.kill:
        args.kills = max(1, args.kills)
    if not (1 <= args.tables <= 2000 and 1 <= args.procs <= 16 and 1 <= args.seconds <= 3600):
        parser.error("tables 1–2000, procs 1–16, seconds 1–3600")
    if not (0 < args.rate <= 10 and 0 <= args.ramp <= args.seconds and 0 <= args.kills <= 20):
        parser.error("rate 0–10 actions/s per table, ramp 0–seconds, kills 0–20")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    result = run(args)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
