"""CPU per table-setup command (sit, set_stake, accept_stake, start_hand) on one thread: what a
table costs before its first hand action, which the load test counts per action at low rates.

    .venv/bin/python scripts/command_bench.py [--tables 60] [--database mahjong_cmdbench]

Each table gets four new players (so nobody is ranked, holds nothing elsewhere, and no one
reaches the limit of open tables); the first ten tables warm the caches and are not counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from service_bench import setup  # noqa: E402

WARM = 10


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--database", default="mahjong_cmdbench")
    args = parser.parse_args(argv)
    setup(args.database)
    from django.contrib.auth.models import User

    from accounts.models import Profile
    from games.table import commands, opening

    cpu: Counter[str] = Counter()
    calls: Counter[str] = Counter()

    def timed(name: str, command: Callable[..., Any], *command_args: Any) -> None:
        started = time.process_time()
        command(*command_args)
        cpu[name] += time.process_time() - started
        calls[name] += 1

    for n in range(args.tables + WARM):
        if n == WARM:
            cpu.clear(), calls.clear()
        users = [User.objects.create_user(username=f"cmd{n}_{seat}") for seat in range(4)]
        for user in users:
            Profile.objects.get_or_create(user=user)
        table = opening.create_table(users[0], "shanghai", undo_ms=0, min_pause_ms=0)
        for index, user in enumerate(users):
            timed("sit", commands.sit, table.pk, user, index)
        timed("set_stake", commands.set_stake, table.pk, users[0], 1)
        for user in users[1:]:
            timed("accept_stake", commands.accept_stake, table.pk, user)
        timed("start_hand", commands.start_hand, table.pk, users[0])
    print(
        "; ".join(f"{name} {1000 * cpu[name] / calls[name]:.2f} ms" for name in cpu),
        f"(CPU per call, {args.tables} tables)",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
