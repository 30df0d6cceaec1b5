"""Two daphne processes and a clock worker over PostgreSQL and Redis serve one table.

Skipped locally without REDIS_URL and a PostgreSQL DATABASE_URL; a failure under CI=true.
"""

from __future__ import annotations

import asyncio
import importlib.util
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
from pathlib import Path

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.db import connection

from accounts.services import create_api_token
from games.models import Hand, HandAction, Table

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_player", ROOT / "scripts" / "api_player.py")
assert _spec is not None and _spec.loader is not None
api_player = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_player)

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url() -> str:
    """The test database (committed rows, transaction=True) as a URL for the subprocesses."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url}:\n{log.read_text()}")


@pytest.fixture
def stack(redis_url: str, postgres: None, tmp_path: Path) -> Iterator[list[str]]:
    """Two daphne processes and one clock worker; yields the two base URLs."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": redis_url,
        "DEBUG": "1",
        "ALLOWED_HOSTS": "127.0.0.1 localhost",
        "PYTHONUNBUFFERED": "1",
    }
    processes: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for n in range(2):
            port = _free_port()
            log = tmp_path / f"daphne{n}.log"
            with log.open("wb") as out:
                command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
                processes.append(
                    subprocess.Popen(
                        [*command, "mahjong_site.asgi:application"],
                        cwd=ROOT,
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
            urls.append(f"http://127.0.0.1:{port}")
            _wait_for(urls[-1] + "/", processes[-1], log)
        with (tmp_path / "clock.log").open("wb") as out:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "run_clock", "--interval", "0.05"],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        yield urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _create(url: str, token: str) -> int:
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


async def test_two_processes_serve_one_table(alice: User, bob: User, stack: list[str]) -> None:
    url_a, url_b = stack
    key_a = await sync_to_async(create_api_token)(alice)
    key_b = await sync_to_async(create_api_token)(bob)
    table_id = await sync_to_async(_create)(url_a, key_a)
    # alice plays through process A, bob through process B; neither knows mahjong.
    frames = await asyncio.gather(
        api_player.play(url_a, key_a, table_id, hands=1, seed=1, timeout=240),
        api_player.play(url_b, key_b, table_id, hands=1, seat=1, seed=2, timeout=240),
    )
    for frame, seat in zip(frames, (0, 1), strict=True):
        assert frame["view"]["viewer"]["seat"] == seat
        assert frame["view"]["last_result"]["hand"] == 1
    assert frames[0]["view"]["last_result"]["payments"] == frames[1]["view"]["last_result"]["payments"]
    table = await sync_to_async(Table.objects.get)(pk=table_id)
    hand = await sync_to_async(Hand.objects.get)(table=table, number=1)
    assert hand.status == "over"
    actors = await sync_to_async(
        lambda: set(HandAction.objects.filter(hand=hand).values_list("seat", flat=True))
    )()
    assert actors == {0, 1}
