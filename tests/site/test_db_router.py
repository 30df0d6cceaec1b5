"""The database router (mahjong_site/db_router.py): the look-back pages read the replica while it
is well, everything a table does reads and writes the primary, and a replica that is down, cut
off or behind gives its reads back to the primary."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, connections
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games.models import Hand, HandAction, Seat, Table
from mahjong_site.db_router import HEALTH, REPLICA, ReplicaRouter, replica_reads

router = ReplicaRouter()


@pytest.fixture
def with_replica_setting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A `replica` entry in settings (no connection made): for the routing decisions alone."""
    monkeypatch.setitem(settings.DATABASES, REPLICA, {"ENGINE": "django.db.backends.postgresql"})
    HEALTH.reset()
    yield
    HEALTH.reset()


def well(monkeypatch: pytest.MonkeyPatch, answer: tuple[bool, str]) -> list[int]:
    checks: list[int] = []

    def check() -> tuple[bool, str]:
        checks.append(1)
        return answer

    monkeypatch.setattr(HEALTH, "check", check)
    return checks


def under_mark(fn: Any) -> Any:
    return replica_reads(lambda request: fn())(None)


def test_without_a_replica_everything_is_the_primary() -> None:
    assert REPLICA not in settings.DATABASES  # the test settings have none
    assert under_mark(lambda: router.db_for_read(Hand)) == "default"
    assert router.db_for_read(Hand) == "default"


def test_marked_reads_of_the_look_back_models_go_to_a_well_replica(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    well(monkeypatch, (True, ""))
    for model in (Hand, HandAction, Profile):
        assert under_mark(lambda m=model: router.db_for_read(m)) == REPLICA
    # what a table lives on, sessions and users never: a login or a seat taken is seen at once
    for model in (Table, Seat, User):
        assert under_mark(lambda m=model: router.db_for_read(m)) == "default"
    # not marked (a socket, the clock, any other view): the primary
    assert router.db_for_read(Hand) == "default"
    # writes: always the primary
    assert under_mark(lambda: router.db_for_write(Hand)) == "default"


def test_a_request_that_wrote_reads_its_own_write_from_the_primary(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    well(monkeypatch, (True, ""))

    def write_then_read() -> tuple[str, str]:
        before = router.db_for_read(Hand)
        router.db_for_write(Profile)
        return before, router.db_for_read(Hand)

    assert under_mark(write_then_read) == (REPLICA, "default")


def test_a_replica_down_or_behind_gives_its_reads_to_the_primary_and_is_checked_again_later(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "REPLICA_CHECK_SECONDS", 60)
    checks = well(monkeypatch, (False, "12.0 s behind"))
    assert under_mark(lambda: router.db_for_read(Hand)) == "default"
    assert under_mark(lambda: router.db_for_read(Hand)) == "default"
    assert len(checks) == 1  # cached between checks: one query per process per interval
    monkeypatch.setattr(settings, "REPLICA_CHECK_SECONDS", 0)
    well(monkeypatch, (True, ""))
    assert under_mark(lambda: router.db_for_read(Hand)) == REPLICA


def test_a_replica_failing_mid_page_is_marked_down_and_the_page_made_from_the_primary(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "REPLICA_CHECK_SECONDS", 60)
    well(monkeypatch, (True, ""))
    served: list[str] = []

    def page(request: Any) -> str:
        db = router.db_for_read(Hand)
        served.append(db)
        if db == REPLICA:
            raise OperationalError("the replica went away")
        return db

    assert replica_reads(page)(RequestFactory().get("/leaderboard/")) == "default"
    assert served == [REPLICA, "default"]
    assert not HEALTH.usable() and "the replica went away" in HEALTH.reason


def test_an_error_that_did_not_come_from_the_replica_is_not_retried(with_replica_setting: None) -> None:
    def page(request: Any) -> None:
        raise OperationalError("the primary went away")

    with pytest.raises(OperationalError, match="primary"):
        replica_reads(page)(None)


def test_migrations_only_on_the_primary() -> None:
    assert router.allow_migrate("default", "games")
    assert not router.allow_migrate(REPLICA, "games")


def test_an_unreachable_replica_is_not_well(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    monkeypatch.setitem(
        settings.DATABASES,
        REPLICA,
        {"ENGINE": "django.db.backends.postgresql", "NAME": "x", "HOST": "127.0.0.1", "PORT": port},
    )
    ok, why = HEALTH.check()
    assert not ok and why.startswith("unreachable")


# --- a real second database alias ------------------------------------------------------------


@pytest.fixture
def replica_alias(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A `replica` alias with a connection of its own to the test database (a replica's rows are
    the primary's; what is tested is which connection each query takes)."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("the replica check is PostgreSQL's")
    config = copy.deepcopy(connections.settings["default"])
    config["TEST"] = {"MIRROR": "default"}
    # One connection kept for the whole test (no pool): the test case allows only the aliases it
    # knew when it began to connect, and this one is made after; connected here, it stays open.
    config["OPTIONS"].pop("pool", None)
    config["CONN_MAX_AGE"] = None
    monkeypatch.setitem(settings.DATABASES, REPLICA, config)  # also connections.settings (one dict)
    assert REPLICA in connections.settings
    connections[REPLICA].connect()
    HEALTH.reset()
    yield REPLICA
    connections[REPLICA].close()
    del connections[REPLICA]
    HEALTH.reset()


@pytest.mark.django_db(transaction=True)
def test_the_leaderboard_and_rules_read_the_replica_and_a_table_page_the_primary(
    replica_alias: str, client: Any, django_user_model: Any
) -> None:
    ok, why = HEALTH.check()  # a database out of recovery (a promoted replica, here the primary) is well
    assert ok, why
    with CaptureQueriesContext(connections[replica_alias]) as on_replica:
        assert client.get("/leaderboard/").status_code == 200
    assert on_replica.captured_queries, "the leaderboard read nothing from the replica"
    with CaptureQueriesContext(connections[replica_alias]) as on_replica:
        assert client.get("/rules/").status_code == 200
        assert client.get("/lobby/").status_code == 200  # not a look-back page
        user = django_user_model.objects.create_user("reader", password="green-dragon-42")
        assert Profile.objects.filter(user=user).count() == Profile.objects.filter(user=user).count()
    tables = [q["sql"] for q in on_replica.captured_queries if "games_table" in q["sql"]]
    assert not tables, tables  # the live tables are never read from the replica


@pytest.mark.django_db
def test_inside_a_transaction_on_the_primary_reads_stay_there(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    well(monkeypatch, (True, ""))
    assert connections["default"].in_atomic_block  # the test's own transaction
    assert under_mark(lambda: router.db_for_read(Hand)) == "default"


def test_a_page_that_wrote_is_not_made_twice(
    with_replica_setting: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    well(monkeypatch, (True, ""))
    runs: list[int] = []

    def page(request: Any) -> None:
        runs.append(1)
        router.db_for_read(Hand)
        router.db_for_write(Profile)
        raise OperationalError("the replica went away")

    with pytest.raises(OperationalError):
        replica_reads(page)(None)
    assert len(runs) == 1
