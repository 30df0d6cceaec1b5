"""Django's PostgreSQL backend with two differences: the pool's check of a connection it hands
out costs no round trip, and a cursor that prepares its statements (`prepared_cursor`) for the
one statement of a hand action (docs/benchmarks.md, "Cost per action: one statement per hand
action").

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


class PreparedCursor(base.ServerBindingCursor):
    """Django's cursor with server-side binding, each statement prepared on its connection the
    first time it runs there: PostgreSQL parses and plans it once per connection, not per call."""

    def execute(self, query: Any, params: Any = None, *, prepare: Any = None, binary: Any = None) -> Any:
        return super().execute(query, params, prepare=True, binary=binary)

    def close(self) -> None:
        """Left open for its connection's next hand action (`DatabaseWrapper.prepared_cursor`):
        it goes with its connection."""

    def close_for_good(self) -> None:
        super().close()


class DatabaseWrapper(base.DatabaseWrapper):
    # The hand action's cursor, kept with the connection it was made on: a new cursor per call
    # set up its adapters again and looked up the dumper of every parameter's type each time,
    # a fifth of psycopg's CPU for the statement (docs/benchmarks.md, "Cost per action: the
    # hand action's path", part 2). An error in its statement (the compare-and-set's) leaves it
    # usable, as it leaves the connection.
    _kept_cursor: tuple[Any, PreparedCursor] | None = None

    def get_connection_params(self) -> dict[str, Any]:
        """psycopg prepares nothing on a connection without a `prepare_threshold` (Django's
        default), not even when asked to; with one, only server-side binding cursors prepare —
        Django's are client-side binding (they never do), so the threshold is this module's
        `PreparedCursor`'s alone."""
        params = super().get_connection_params()
        if params.get("prepare_threshold") is None:
            params["prepare_threshold"] = 1
        return params

    def prepared_cursor(self) -> Any:
        """A cursor for the one statement every hand action sends (common.rows,
        `in_one_statement_if_first`): prepared, its parse and plan were half PostgreSQL's CPU
        for it. Only there: server-side binding for every ORM query was tried and not kept
        (docs/benchmarks.md, "Tried and not kept")."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        kept = self._kept_cursor
        if kept is None or kept[0] is not self.connection:
            if kept is not None:
                kept[1].close_for_good()
            kept = self._kept_cursor = (self.connection, PreparedCursor(self.connection))
        with self.wrap_database_errors:
            return self._prepare_cursor(kept[1])

    @property
    def pool(self) -> Any:
        pool = super().pool
        if pool is not None and self.settings_dict["CONN_HEALTH_CHECKS"]:
            pool._check = check_without_round_trip  # (Django passes psycopg_pool's own)
        return pool
