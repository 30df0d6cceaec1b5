"""`make test`: the whole suite as two pytest runs side by side, each streaming its lines with a
prefix, the exit status failing if either fails.

The browser tests (tests/browser) spend most of their time waiting — on real daphne servers, the
bots' human-like pauses, timers running out — while the rest is mostly CPU. Run one after the
other they took ~52 minutes on a 2-core machine, most of the browser half with one core idle.

Each run has what it needs to itself: the browser run gets its own PostgreSQL test database (the
name with `_browser` added) and, when `redis-server` is installed, no REDIS_URL, so that
tests/browser/conftest.py starts a private Redis (its servers' table ids would otherwise share
channel groups with the other run's). With arguments, or without `redis-server`, this is plain
`pytest` with those arguments.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-q", "--durations=12"]
GROUPS: dict[str, list[str]] = {
    "browser": ["tests/browser"],
    "rest": ["tests", "--ignore=tests/browser"],
}


def browser_env(env: dict[str, str]) -> dict[str, str]:
    """The browser run's settings: its own test database, a private Redis (started by its conftest)."""
    env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    url = env.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        base, _, query = url.partition("?")
        env["DATABASE_URL"] = f"{base.rstrip('/')}_browser" + (f"?{query}" if query else "")
    return env


def relay(name: str, stream: IO[bytes], lock: threading.Lock, failures: list[str]) -> None:
    """Copy one run's output to ours a line at a time, each line marked with the run's name; its
    failure lines are also kept for the summary."""
    for raw in iter(stream.readline, b""):
        line = raw.decode(errors="replace").rstrip("\n")
        if line.startswith(("FAILED ", "ERROR ")):
            failures.append(f"{name:>7} | {line}")
        with lock:
            print(f"{name:>7} | {line}", flush=True)


def run_both() -> int:
    lock = threading.Lock()
    runs: dict[str, subprocess.Popen[bytes]] = {}
    relays = []
    failures: list[str] = []  # (the run that ends first would have its failures far above the end)
    for name, args in GROUPS.items():
        env = browser_env(dict(os.environ)) if name == "browser" else dict(os.environ)
        process = subprocess.Popen(
            [*PYTEST, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        runs[name] = process
        thread = threading.Thread(target=relay, args=(name, process.stdout, lock, failures), daemon=True)
        thread.start()
        relays.append(thread)
    codes = {name: process.wait() for name, process in runs.items()}
    for thread in relays:
        thread.join()
    failed = [name for name, code in codes.items() if code]
    if failures:
        print("failures of both runs:", *failures, sep="\n")
    print(f"test runs: {codes} — " + (f"failed: {', '.join(failed)}" if failed else "all passed"))
    return max(codes.values())


def main(argv: list[str]) -> int:
    if argv or not shutil.which("redis-server"):
        return subprocess.call([*PYTEST, *argv], cwd=ROOT)
    return run_both()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
