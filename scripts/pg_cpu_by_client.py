#!/usr/bin/env python3
"""CPU of the local PostgreSQL backends over a few seconds, by the client process each serves.

    .venv/bin/python scripts/pg_cpu_by_client.py 25     # during a load test, once it plays

The load test's `postgres` figure is everything the run's database did in its window, the
sockets' sit-down included; this splits a window of steady play between the daphne processes
and the clock (docs/benchmarks.md, "Cost per action: one statement per hand action"). A backend
is matched to its client by the client's port (`ss -tnp`: the process that owns the socket);
its CPU is the first field of `/proc/<pid>/schedstat` (nanoseconds on a CPU).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

PEER = re.compile(r"127\.0\.0\.1\((\d+)\)")  # a backend's title names its client's address(port)


def owners() -> dict[str, str]:
    """Client port -> the command line of the process holding that connection to :5432."""
    out = subprocess.run(["ss", "-tnpH", "state", "established"], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        parts, pid = line.split(), re.search(r"pid=(\d+)", line)
        if len(parts) >= 4 and parts[3].endswith(":5432") and pid:
            try:
                command = Path(f"/proc/{pid.group(1)}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            found[parts[2].rsplit(":", 1)[1]] = " ".join(command.split()[1:4])[:70]
    return found


def backends() -> dict[int, tuple[str, int]]:
    """Backend pid -> (its client's command line, nanoseconds on a CPU so far)."""
    clients, out = owners(), {}
    for entry in Path("/proc").iterdir():
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            peer = PEER.search(title) if title.startswith("postgres:") else None
            if peer:
                out[int(entry.name)] = (
                    clients.get(peer.group(1), "?"),
                    int((entry / "schedstat").read_text().split()[0]),
                )
        except (OSError, ValueError):  # not a process, or gone meanwhile
            continue
    return out


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    before = backends()
    time.sleep(seconds)
    spent: Counter[str] = Counter()
    for pid, (client, ns) in backends().items():
        spent[client] += (ns - before.get(pid, (client, 0))[1]) / 1e6
    for client, ms in spent.most_common(12):
        print(f"{ms:9.1f} ms  {client}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
