"""Django's PostgreSQL backend with one difference: the pool's check of a connection it hands
out costs no round trip (docs/benchmarks.md, "Cost per action: one statement per hand action").

With `CONN_HEALTH_CHECKS` Django has psycopg_pool send an empty query on every checkout, and
every socket handler's `db()` call checks a connection out: one more round trip, and one more
statement for PostgreSQL, per hand action. A connection the server closed — a restart, a
failover, `pg_terminate_backend`, an idle timeout — has something to read on its socket while it
sits idle in the pool: PostgreSQL's FATAL message, or the end of the stream. So the check looks
(`poll`, no waiting) and sends the empty query only when there is something to read; a dead
connection then fails it and the pool replaces it, as before. A connection that dies between the
check and its use fails that use, as it could with the empty query too.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg import OperationalError
from psycopg_pool import ConnectionPool

_READABLE = select.POLLIN | select.POLLERR | select.POLLHUP


def check_without_round_trip(conn: Any) -> None:
    """psycopg_pool's `check` for an idle connection: raise if it is closed or the server sent
    it anything (then `ConnectionPool.check_connection` reads it, and raises if it is dead)."""
    if conn.closed or conn.broken:
        raise OperationalError("the connection is closed")
    poller = select.poll()
    poller.register(conn.fileno(), _READABLE)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        if pool is not None and self.settings_dict["CONN_HEALTH_CHECKS"]:
            pool._check = check_without_round_trip  # (Django passes psycopg_pool's own)
        return pool
