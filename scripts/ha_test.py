#!/usr/bin/env python3
"""Failover test of the high-availability shape (docs/operations.md "High availability",
docs/benchmarks.md "Faults").

    .venv/bin/python scripts/ha_test.py [--tables 6] [--seconds 90] [--procs 3] [--rate 1] [--spread seat]

Brings up on this machine's loopback (ha_stack.HAStack; no containers) a Redis primary and its
replica under three Sentinels, a PostgreSQL primary and a streaming replica, PROCS daphne
processes and the clock, with the settings compose.yaml's `ha` profile gives them
(`REDIS_URL=sentinel://…`, `DATABASE_REPLICA_URL`). Then bot tables play over real sockets
(the load test's clients, scripts/loadtest.py: four sockets a table, by default each seat on
another process, so every change crosses Redis) while, spread over the run:

1. the Redis primary is killed (kill -9): the Sentinels promote the replica, the processes find
   the new primary through them; the killed server comes back as a replica;
2. the PostgreSQL replica falls behind (its WAL replay paused for longer than REPLICA_MAX_LAG
   while the tables write), then is stopped: both times the history pages, leaderboards and rules
   pages (which read the replica while it is well) are fetched from every process and must still
   be served — from the primary, and with the replica behind every process must have said so in
   its log; replay is resumed and the replica started again afterwards;
3. a daphne is killed (kill -9) and restarted, as `make loadtest KILL=1` does.

Before the faults the same pages are fetched once, and the replica must then hold connections
of the site's processes (it served them). The accounting is the load test's: an action confirmed
to a client and missing from the database is *lost*, a logged action nobody confirmed
*duplicated*. The last line is one JSON object: actions, lost, duplicated, errors, p99 by 10-s
window, the failovers (what, when, how long), the pages served; the exit status is non-zero when
anything was lost or duplicated, a failover did not happen or a page was not served.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ha_stack  # noqa: E402
import lt_clients  # noqa: E402
import lt_ledger  # noqa: E402
import lt_report  # noqa: E402
import lt_stats  # noqa: E402
from ha_stack import HAStack  # noqa: E402
from lt_stack import HOST  # noqa: E402

PAGES = (
    "/leaderboard/",
    "/api/leaderboard",
    "/rules/",
    "/users/{user}/history/",
    "/api/users/{user}/matches",
)


def fetch_pages(stack: HAStack, user: str) -> dict[str, Any]:
    """Every look-back page from every running daphne: how many answered 200, and the others."""
    served, failed = 0, []
    for port, proc in zip(stack.ports, stack.servers, strict=True):
        if proc is None:
            continue
        for page in PAGES:
            url = f"http://{HOST}:{port}{page.format(user=user)}"
            try:
                with urllib.request.urlopen(url, timeout=20) as response:
                    ok = response.status == 200
                    status = response.status
            except urllib.error.HTTPError as e:
                ok, status = False, e.code
            except OSError as e:
                ok, status = False, type(e).__name__
            if ok:
                served += 1
            else:
                failed.append(f"{port}{page}: {status}")
    return {"served": served, "failed": failed}


class Faults:
    """The three faults at 1/4, 2/4 and 3/4 of the run, and what each did (`report`)."""

    def __init__(
        self, stack: HAStack, args: argparse.Namespace, stats: lt_stats.Stats, stop: asyncio.Event, user: str
    ) -> None:
        self.stack, self.args, self.stats, self.stop, self.user = stack, args, stats, stop, user
        self.report: dict[str, Any] = {"failovers": [], "kills": 0, "windows": []}
        self.closers: list[asyncio.Task[None]] = []

    async def run(self) -> dict[str, Any]:
        try:
            for fraction, fault in ((0.25, self.redis), (0.5, self.pg_replica), (0.75, self.daphne)):
                if not await self.until(fraction):
                    break
                await fault()
        finally:
            for closer in self.closers:
                closer.cancel()  # a window still open at the end of the run runs to the end of the logs
        return self.report

    async def until(self, fraction: float) -> bool:
        """Wait until this fraction of the run; False if the run ended first."""
        at = self.args.seconds * fraction - (time.monotonic() - self.stats.started)
        try:
            await asyncio.wait_for(self.stop.wait(), max(0.0, at))
            return False
        except TimeoutError:
            return True

    def begin(self, kind: str, port: int | None = None) -> float:
        at = time.monotonic()
        self.stats.faults.append((at, kind, port))
        self.closers.append(open_window(self.stack, self.report["windows"]))
        return at

    def done(self, what: str, at: float, **details: Any) -> None:
        self.report["failovers"].append({"what": what, "at_s": round(at - self.stats.started, 1), **details})

    @staticmethod
    def log(text: str) -> None:
        print(f"[ha-test] {text}", file=sys.stderr, flush=True)

    async def redis(self) -> None:
        at = self.begin("redis")
        old, promoted = await asyncio.to_thread(self.stack.kill_redis_primary)
        new = await asyncio.to_thread(self.stack.master_port)
        self.log(
            f"killed the Redis primary (port {old}); Sentinel promoted port {new} after {promoted:.1f} s"
        )
        self.done("redis primary killed", at, promoted_after_s=round(promoted, 1), old=old, new=new)

    async def pg_replica(self) -> None:
        """First behind (its replay paused while the tables write), then down: both times the
        look-back pages must be served, from the primary."""
        at = self.begin("pg")
        marks = self.stack.log_marks()
        await asyncio.to_thread(self.stack.pause_replay, True)
        await asyncio.sleep(ha_stack.REPLICA_MAX_LAG + 2)
        lag = await asyncio.to_thread(self.stack.replica_lag)
        pages = await asyncio.to_thread(fetch_pages, self.stack, self.user)
        noticed = self.stack.log_lines_since(marks, "s behind (REPLICA_MAX_LAG")
        await asyncio.to_thread(self.stack.pause_replay, False)
        self.log(f"replica {lag:.1f} s behind: {pages['served']} pages served, {noticed} processes noticed")
        self.done("postgres replica behind", at, lag_s=round(lag, 1), pages=pages, noticed=noticed)
        at = self.begin("pg")
        await asyncio.to_thread(self.stack.stop_pg_replica)
        self.log("stopped the PostgreSQL replica")
        pages = await asyncio.to_thread(fetch_pages, self.stack, self.user)
        self.log(f"history pages with the replica down: {pages['served']} served, failed: {pages['failed']}")
        self.done("postgres replica stopped", at, pages=pages)
        await asyncio.to_thread(self.stack.start_pg_replica)
        self.log("started the PostgreSQL replica again")

    async def daphne(self) -> None:
        victim = len(self.stack.ports) - 1
        at = self.begin("kill", self.stack.ports[victim])
        await asyncio.to_thread(self.stack.kill, victim)
        self.log(f"killed daphne {victim} (port {self.stack.ports[victim]})")
        await asyncio.sleep(1.0)
        await asyncio.to_thread(self.stack.restart, victim)
        self.log(f"restarted daphne {victim}")
        self.report["kills"] = 1
        self.done("daphne killed", at)


async def drive(
    drivers: list[lt_clients.TableDriver],
    stack: HAStack,
    args: argparse.Namespace,
    stats: lt_stats.Stats,
    user: str,
) -> dict[str, Any]:
    stop = asyncio.Event()
    stats.started = time.monotonic()
    step = args.ramp / len(drivers)
    tasks = [asyncio.create_task(d.run(stop, stats.started + i * step)) for i, d in enumerate(drivers)]
    faults = asyncio.create_task(Faults(stack, args, stats, stop, user).run())
    await asyncio.sleep(args.seconds)
    stats.log_marks = stack.log_marks()
    stats.stopping = True
    stop.set()
    report = await faults
    await asyncio.wait(tasks, timeout=30)
    return report


Window = list[dict[str, int] | None]  # [log marks at a fault, log marks FAULT_WINDOW s later]


def open_window(stack: HAStack, windows: list[Window]) -> asyncio.Task[None]:
    """Mark the logs at a fault and again FAULT_WINDOW seconds later: what the site logs in
    between is the fault's effect (a socket arriving while no Redis primary is named fails its
    subscription and reconnects), not an error."""
    window: Window = [stack.log_marks(), None]
    windows.append(window)

    async def close() -> None:
        await asyncio.sleep(lt_stats.FAULT_WINDOW)
        window[1] = stack.log_marks()

    return asyncio.create_task(close())


def server_errors(stack: HAStack, stats: lt_stats.Stats, windows: list[Window]) -> tuple[list[str], int]:
    """(tracebacks in the daphne and clock logs outside every fault's window, how many inside)."""
    errors, excused = [], 0
    for log, offset, text in stack.tracebacks(stats.log_marks):
        inside = any(
            start.get(log, 0) <= offset < (end.get(log, offset + 1) if end is not None else offset + 1)
            for start, end in windows
            if start is not None
        )
        if inside:
            excused += 1
        else:
            errors.append(f"{log}@{offset}: {text}")
    return errors, excused


def run(args: argparse.Namespace) -> dict[str, Any]:
    stack = HAStack(f"mahjong_ha_{os.getpid()}", procs=args.procs)
    t0 = time.monotonic()
    try:
        stack.start()
        setup = time.monotonic() - t0
        print(f"[ha-test] clusters, daphne and clock up after {setup:.0f} s", file=sys.stderr, flush=True)
        lt_ledger.django_setup(stack)
        tokens = lt_ledger.make_players(4 * args.tables)
        from django.contrib.auth.models import User

        user = User.objects.order_by("id").values_list("username", flat=True).first() or "nobody"
        stats = lt_stats.Stats()
        table_ids = [
            lt_ledger.create_table(stack.ports[t % len(stack.ports)], tokens[4 * t], args.variant)
            for t in range(args.tables)
        ]
        drivers = [
            lt_clients.TableDriver(
                tid, tokens[4 * t : 4 * t + 4], stack.ports, stats, args.rate, spread=args.spread
            )
            for t, tid in enumerate(table_ids)
        ]
        before = fetch_pages(stack, user)
        replica_clients = stack.replica_clients()
        streaming = stack.replica_streaming()
        began = time.monotonic()
        report = asyncio.run(drive(drivers, stack, args, stats, user))
        elapsed = time.monotonic() - began
        after = fetch_pages(stack, user)
        ledger = lt_ledger.account(drivers, settled=lt_ledger.settle(table_ids))
        replica_clients_after = stack.replica_clients()
        errors, excused = server_errors(stack, stats, report["windows"])
        redis_roles = {port: stack.redis_role(port) for port in stack.redis_ports}
    finally:
        stack.collect_logs()
        stack.stop(drop=not args.keep)
    base = lt_report.summary(args, stats, ledger, report["kills"], elapsed, errors)
    not_run = {"served": 0, "failed": ["not run"]}
    down = next((f for f in report["failovers"] if f["what"] == "postgres replica stopped"), {})
    behind = next((f for f in report["failovers"] if f["what"] == "postgres replica behind"), {})
    pages_down = down.get("pages", not_run)
    pages_behind = behind.get("pages", not_run)
    result = {
        "tables": args.tables,
        "procs": args.procs,
        "seconds": args.seconds,
        "actions": base["actions"],
        "lost": base["lost"],
        "duplicated": base["duplicated"],
        "errors": base["errors"],
        "fault_effects": sum(stats.fault_effects.values()),
        "server_errors_in_faults": excused,
        "p99_ms": base["p99_ms"],
        "p99_by_window": base["p99_by_window"],
        "failovers": report["failovers"],
        "kills": report["kills"],
        "redis_promoted": any(f.get("new") not in (None, f.get("old")) for f in report["failovers"]),
        "redis_roles_at_end": redis_roles,
        "replica_streaming_at_start": streaming,
        "replica_clients_at_start": replica_clients,  # the processes read the replica while it was up
        "pages_before": before,
        "pages_replica_down": pages_down,
        "pages_replica_behind": pages_behind,
        "replica_behind_noticed": behind.get("noticed", 0),  # processes that logged "… s behind"
        "pages_after": after,
        "replica_clients_at_end": replica_clients_after,  # back in use after its restart
        "reconnects": stats.reconnects,
        "spread": args.spread,
        "setup_s": round(setup),  # Redis, Sentinels, both PostgreSQL, migrate, daphne, the clock
        "setup_parts_s": stack.timings,
        "total_s": round(time.monotonic() - t0),
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }
    result["ok"] = bool(
        result["actions"] > 0
        and not result["lost"]
        and not result["duplicated"]
        and result["redis_promoted"]
        and result["kills"] == 1
        and streaming
        and replica_clients > 0
        and not before["failed"]
        and pages_down["served"] > 0
        and not pages_down["failed"]
        and pages_behind["served"] > 0
        and not pages_behind["failed"]
        and result["replica_behind_noticed"] == args.procs  # each process found it behind
        and not after["failed"]
    )
    return result


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--procs", type=int, default=3)
    parser.add_argument("--rate", type=float, default=1.0, help="actions per second per table")
    parser.add_argument("--ramp", type=float, default=5)
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument(
        "--spread",
        choices=("table", "seat"),
        default="seat",
        help="a table's sockets on one process, or each seat on another (every change crosses Redis)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the clusters' directory afterwards")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 200 and 2 <= args.procs <= 8 and 30 <= args.seconds <= 3600):
        parser.error("tables 1–200, procs 2–8, seconds 30–3600")
    if not (0 < args.rate <= 10 and 0 <= args.ramp < args.seconds / 4):
        parser.error("rate 0–10 actions/s per table, ramp below a quarter of the run")
    args.echo, args.kills = False, 1  # (read by lt_report.summary)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    result = run(args)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
