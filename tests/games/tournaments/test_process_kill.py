"""A clock process killed (SIGKILL) mid-round loses nothing: another clock process finishes the
tournament, every round's tables closed with every hand played, nothing started twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Hand, HandAction, Table
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable
from tests.conftest import make_user
from tests.games.tournaments.helpers import new_tournament, organiser
from tests.servers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def database_url() -> str:
    """The test database (committed rows: transaction=True) for the clock processes."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def clock(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        command = [sys.executable, "-m", "tests.games.tournaments.fast_play", "manage.py", "run_clock"]
        command += ["--interval", "0.05"]
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def wait(condition: Callable[[], bool], seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds}s; clock log:\n{log.read_text()[-3000:]}")


def test_a_killed_clock_process_loses_nothing(postgres: None, redis_url: str, tmp_path: Path) -> None:
    past = timezone.now() - timedelta(minutes=30)
    tournament = new_tournament(organiser(), past, rounds=2, hands_per_round=2, duplicate=True)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    for i in range(6):  # two tables of three people and a bot
        TournamentPlayer.objects.create(tournament=tournament, user=make_user(f"p{i}"), checked_in=past)
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    log = tmp_path / "clock.log"

    def mid_round() -> bool:
        return (
            HandAction.objects.filter(hand__table__tournament_table__round__tournament=tournament).count()
            > 20
        )

    first = clock(env, log)
    try:
        wait(mid_round, 120, log)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    assert Tournament.objects.get().status == Tournament.Status.RUNNING
    second = clock(env, log)
    try:
        wait(lambda: Tournament.objects.get().status == Tournament.Status.FINISHED, 300, log)
    finally:
        second.terminate()
        second.wait(timeout=30)
    tables = TournamentTable.objects.filter(round__tournament=tournament)
    assert tables.count() == 2 * 2  # rounds × tables: no round was seated twice
    assert all(tt.ended is not None for tt in tables)
    assert not Table.objects.filter(tournament_table__in=tables).exclude(status=Table.Status.CLOSED).exists()
    hands = Hand.objects.filter(table__tournament_table__in=tables)
    assert hands.count() == 2 * 2 * 2 and not hands.exclude(status=Hand.Status.OVER).exists()
    assert all(tournament.round_rows.values_list("ended", flat=True))
