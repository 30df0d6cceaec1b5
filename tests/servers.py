"""Real servers for tests that need them: daphne (and the clock) in subprocesses, on free ports."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    """Until `url` answers; the server's log in the error if it exits or never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {timeout}s:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A subprocess in the project's folder, its output in `log`."""
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def start_daphne(
    env: dict[str, str], log: Path, *daphne_args: str, launcher: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], str]:
    """daphne on a free port (`daphne_args`: e.g. --proxy-headers; `launcher`: Python arguments it
    starts through, e.g. rigged deals, tests/browser/rigged.py); returns it and its base URL."""
    port = free_port()
    command = [sys.executable, *launcher, "-m", "daphne", *daphne_args, "-b", "127.0.0.1", "-p", str(port)]
    return start([*command, "mahjong_site.asgi:application"], env, log), f"http://127.0.0.1:{port}"


@contextmanager
def daphne_on_sqlite(
    workdir: Path, *daphne_args: str, clock: bool = False, launcher: tuple[str, ...] = (), **extra_env: str
) -> Iterator[str]:
    """daphne (and with `clock` the table clock beside it) against a fresh SQLite file in
    `workdir`, as `make run` starts them; yields the base URL. `extra_env`: settings for this
    server only (REDIS_URL among them, else the in-memory channel layer). `launcher`: Python
    arguments both processes start through (start_daphne)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1 localhost",
        PYTHONUNBUFFERED="1",
        **extra_env,
    )
    migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True)
    log = workdir / "daphne.log"
    server, url = start_daphne(env, log, *daphne_args, launcher=launcher)
    processes = [server]
    if clock:
        run_clock = [sys.executable, *launcher, "manage.py", "run_clock"]
        processes.append(start(run_clock, env, workdir / "clock.log"))
    try:
        wait_for(url + "/", server, log)
        yield url
    finally:
        for process in reversed(processes):
            stop(process)


@contextmanager
def two_daphnes_and_a_clock(database_url: str, redis_url: str, workdir: Path) -> Iterator[list[str]]:
    """Two daphne processes and one clock worker on one PostgreSQL database and Redis; yields
    the two base URLs (the `stack` fixture, tests/conftest.py)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "1",
        "ALLOWED_HOSTS": "127.0.0.1 localhost",
        "PYTHONUNBUFFERED": "1",
    }
    processes: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for n in range(2):
            log = workdir / f"daphne{n}.log"
            process, url = start_daphne(env, log)
            processes.append(process)
            urls.append(url)
            wait_for(url + "/", process, log)
        clock = [sys.executable, "manage.py", "run_clock", "--interval", "0.05"]
        processes.append(start(clock, env, workdir / "clock.log"))
        yield urls
    finally:
        for process in processes:
            stop(process)


def create_table(url: str, token: str) -> int:
    body = {"variant": "two_player", "base": 1, "bots": 0, "min_pause_ms": 50, "undo_ms": 100}
    request = urllib.request.Request(
        url + "/api/tables/",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
            return json.loads(response.read())["id"]
    except urllib.error.HTTPError as e:  # say why: the server's own error page (DEBUG=1)
        text = re.sub(r"<[^>]+>|\s+", " ", e.read().decode(errors="replace"))
        raise AssertionError(f"POST /api/tables/ answered {e.code}: {text[:2000]}") from None
