"""Quick match under concurrency on PostgreSQL: players queuing at the same instant, from
threads of one process and from two processes, are each seated exactly once.

Skipped locally without a PostgreSQL DATABASE_URL; a failure under CI=true.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.matchmaking import queue
from games.matchmaking.models import QueueEntry, QuickMatch
from games.matchmaking.rules import QueueError
from games.models import Seat
from tests.conftest import make_user

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def _join_all_at_once(users: list[User], variant: str = "shanghai") -> list[BaseException]:
    """Each user joins from its own thread (own connection), all released together."""
    barrier = threading.Barrier(len(users))
    errors: list[BaseException] = []

    def run(user: User) -> None:
        try:
            barrier.wait()
            queue.join(user, variant, "bronze")
            queue.poll(user)
        except BaseException as e:  # reported by the test
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return errors


def _assert_seated_once(users: list[User], tables: int) -> None:
    seats = Counter(Seat.objects.filter(user__in=users).values_list("user_id", flat=True))
    assert set(seats) == {u.pk for u in users} and set(seats.values()) == {1}
    assert QuickMatch.objects.count() == tables
    for quick in QuickMatch.objects.all():
        assert quick.table.seats.filter(user__isnull=False).count() == 4
    assert not QueueEntry.objects.filter(table__isnull=True).exists()


@pytest.mark.parametrize("round_", range(3))
def test_eight_players_at_the_same_instant_make_two_tables(postgres: None, round_: int) -> None:
    users = [make_user(f"p{round_}-{n}") for n in range(8)]
    assert _join_all_at_once(users) == []
    _assert_seated_once(users, tables=2)


def test_a_player_joining_twice_at_the_same_instant_is_queued_once(postgres: None) -> None:
    user = make_user("twice")
    barrier = threading.Barrier(4)
    codes: list[str] = []

    def run() -> None:
        try:
            barrier.wait()
            queue.join(user, "shanghai", "bronze", bot_wait=0)
            codes.append("ok")
        except QueueError as e:
            codes.append(e.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(codes) == ["already_queued"] * 3 + ["ok"]
    assert QueueEntry.objects.filter(user=user).count() == 1


JOIN_SCRIPT = """
import django, sys
django.setup()
from django.contrib.auth.models import User
from games.matchmaking import queue as matchmaking
from games.matchmaking.rules import QueueError
for name in sys.argv[1:]:
    matchmaking.join(User.objects.get(username=name), "shanghai", "bronze")
"""


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def test_the_queue_is_shared_by_two_processes(postgres: None) -> None:
    """Two players queue from another server process, two from this one: one table."""
    users = [make_user(f"proc-{n}") for n in range(4)]
    env = {**os.environ, "DATABASE_URL": _database_url(), "DJANGO_SETTINGS_MODULE": "mahjong_site.settings"}
    other = subprocess.Popen(
        [sys.executable, "-c", JOIN_SCRIPT, users[0].username, users[1].username], cwd=ROOT, env=env
    )
    errors = _join_all_at_once(users[2:])
    assert other.wait(120) == 0 and errors == []
    for user in users:  # whichever process made the match, every poll finds it
        assert "table" in queue.poll(user)
    _assert_seated_once(users, tables=1)
