"""The pool's check of the connection it hands out (mahjong_site/postgres/base.py): no round trip
for a live idle connection, a failure for one the server closed."""

from __future__ import annotations

import select
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from mahjong_site.postgres import base

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool is PostgreSQL's"),
]


@pytest.fixture
def idle() -> Iterator[psycopg.Connection]:
    params = connection.get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    params.pop("context", None)
    conn = psycopg.connect(autocommit=True, **params)
    yield conn
    conn.close()


def test_a_live_idle_connection_passes_without_a_query(
    idle: psycopg.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[object] = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(sent.append))
    base.check_without_round_trip(idle)
    assert sent == []


def test_a_connection_the_server_closed_fails_the_check(idle: psycopg.Connection) -> None:
    pid = idle.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    waiting = select.poll()
    waiting.register(idle.fileno(), select.POLLIN)
    waiting.poll(5000)  # until the server's FATAL message reaches the socket
    with pytest.raises(psycopg.OperationalError):
        base.check_without_round_trip(idle)
    with pytest.raises(psycopg.OperationalError):
        base.check_without_round_trip(idle)  # (and once failed, closed)


def test_the_backend_s_pool_uses_it() -> None:
    pool = connection.pool
    if pool is None:
        pytest.skip("no pool configured")
    assert pool._check is base.check_without_round_trip


def test_the_prepared_cursor_prepares_and_django_s_cursor_does_not() -> None:
    def prepared() -> set[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return {row[0] for row in cursor.fetchall()}

    before = prepared()
    with connection.cursor() as cursor:
        for _ in range(10):
            cursor.execute("SELECT %s + 41", [1])
    assert prepared() == before  # (client-side binding: nothing prepared, however often)
    with connection.prepared_cursor() as cursor:
        cursor.execute("SELECT %s + 42", [1])
        assert cursor.fetchone() == (43,)
    assert any("+ 42" in statement for statement in prepared() - before)


@pytest.mark.django_db(transaction=True)  # (autocommit, as a hand action's statement runs)
def test_the_prepared_cursor_is_kept_with_its_connection_and_survives_an_error() -> None:
    """The hand action's cursor is made once per connection: closing it (a `with` block's end)
    leaves it for the next call; a failed statement (the compare-and-set's division by zero)
    leaves it usable; a new connection gets a new one."""
    with connection.prepared_cursor() as cursor:
        first = cursor.cursor
        cursor.execute("SELECT %s + 1", [1])
    with pytest.raises(Exception, match="division by zero"), connection.prepared_cursor() as cursor:
        cursor.execute("SELECT 1 / %s", [0])
    with connection.prepared_cursor() as cursor:
        assert cursor.cursor is first
        cursor.execute("SELECT %s + 2", [1])
        assert cursor.fetchone() == (3,)
    connection.close()
    with connection.prepared_cursor() as cursor:
        assert cursor.cursor is not first and not cursor.cursor.closed
        cursor.execute("SELECT %s + 3", [1])
        assert cursor.fetchone() == (4,)
