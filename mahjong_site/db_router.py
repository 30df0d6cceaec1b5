"""Reads that may lag go to a PostgreSQL streaming replica; everything else stays on the primary.

With `DATABASE_REPLICA_URL` set (settings: the `replica` alias), a read goes to the replica only
when all of these hold, and to the primary (`default`) otherwise:

- the request is one of the pages that only look back — history, leaderboards, replays and
  records, profiles, the rules pages — marked with `replica_reads` where they are routed
  (games/history/urls.py, games/rules/urls.py). Nothing a table does runs under that mark: the
  sockets, the clock, the services and every other view read and write the primary, so a
  table never acts on a state the replica has not caught up with;
- the model is one of REPLICA_MODELS (what those pages show: finished hands, their actions,
  scores, ranks, ratings, balances). The live-table models (tables, seats, sockets, queues),
  sessions, users and tokens are never read from the replica, even under the mark: a login or a
  token made a moment ago must be seen at once;
- this request has written nothing yet (then it reads its own write from the primary) and no
  transaction is open on the primary;
- the replica answered its last check (at most REPLICA_CHECK_SECONDS old) and was at most
  REPLICA_MAX_LAG seconds behind. A replica that is down, cut off from its primary or behind
  serves nothing until a later check finds it well; a query that fails on the replica mid-page
  marks it down and the page is made again from the primary (`replica_reads`).

Writes always go to the primary, and migrations run only there.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

log = logging.getLogger(__name__)

REPLICA = "replica"
# "app_label.model_name" of what the look-back pages read and may read a few seconds late.
REPLICA_MODELS = frozenset(
    {
        "games.match",
        "games.hand",
        "games.handcheckpoint",
        "games.handaction",
        "games.scoreentry",
        "games.penalty",
        "games.penaltyreversal",
        "games.rank",
        "games.rankchange",
        "games.rating",
        "accounts.profile",
        "accounts.ledgerentry",
    }
)


@dataclass
class _Request:
    """What one marked request did so far (a context variable: one per request/task)."""

    wrote: bool = False
    used_replica: bool = False


_MARK: contextvars.ContextVar[_Request | None] = contextvars.ContextVar("replica_reads", default=None)


def replica_reads(view: Callable[..., Any]) -> Callable[..., Any]:
    """Let this (read-only) view read REPLICA_MODELS from the replica while it is well; a view
    whose replica query fails is run again on the primary."""

    @functools.wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        if REPLICA not in settings.DATABASES:
            return view(request, *args, **kwargs)
        mark = _Request()
        token = _MARK.set(mark)
        try:
            return view(request, *args, **kwargs)
        except (OperationalError, InterfaceError) as error:
            if not mark.used_replica or mark.wrote:  # not the replica's fault, or not safe to redo
                raise
            HEALTH.mark_down(f"query failed: {error}")
        finally:
            _MARK.reset(token)
        return view(request, *args, **kwargs)  # unmarked: every read on the primary

    return wrapped


class ReplicaHealth:
    """Whether the replica may serve reads now: checked at most every REPLICA_CHECK_SECONDS per
    process, on a connection of its own (never one a page is using), one thread at a time."""

    LAG_SQL = (
        "SELECT pg_is_in_recovery(), "
        "(SELECT status FROM pg_stat_wal_receiver LIMIT 1), "
        "CASE WHEN NOT pg_is_in_recovery() "
        "       OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
        "     ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END"
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._checked = float("-inf")
        self._well = False
        self.reason = "not checked yet"

    def usable(self) -> bool:
        if time.monotonic() - self._checked < settings.REPLICA_CHECK_SECONDS:
            return self._well
        if not self._lock.acquire(blocking=False):
            return self._well  # another thread is checking: its answer is a moment away
        try:
            self._well, self.reason = self.check()
            self._checked = time.monotonic()
            if not self._well:
                log.warning("replica not used: %s", self.reason)
        finally:
            self._lock.release()
        return self._well

    def check(self) -> tuple[bool, str]:
        """(well, why not) from one query on a fresh connection to the replica."""
        import psycopg

        config = settings.DATABASES[REPLICA]
        params = {
            "dbname": config.get("NAME"),
            "user": config.get("USER") or None,
            "password": config.get("PASSWORD") or None,
            "host": config.get("HOST") or None,
            "port": config.get("PORT") or None,
            "connect_timeout": 2,  # a replica host that does not answer is down
        }
        try:
            with psycopg.connect(**{k: v for k, v in params.items() if v is not None}) as conn:
                in_recovery, receiver, lag = conn.execute(self.LAG_SQL).fetchone()  # type: ignore[misc]
        except psycopg.Error as error:
            return False, f"unreachable ({str(error).strip()[:200]})"
        # The WAL receiver's status is visible to superusers and pg_read_all_stats only (None else).
        if in_recovery and receiver is not None and receiver != "streaming":
            return False, f"not streaming from its primary ({receiver})"
        if float(lag) > settings.REPLICA_MAX_LAG:
            return False, f"{float(lag):.1f} s behind (REPLICA_MAX_LAG={settings.REPLICA_MAX_LAG})"
        return True, ""

    def mark_down(self, reason: str) -> None:
        self._well, self.reason, self._checked = False, reason, time.monotonic()
        log.warning("replica not used: %s", reason)

    def reset(self) -> None:
        """Forget the last check (tests; the next read checks again)."""
        self._checked, self._well, self.reason = float("-inf"), False, "not checked yet"


HEALTH = ReplicaHealth()


class ReplicaRouter:
    """settings.DATABASE_ROUTERS: see the module's description."""

    def db_for_read(self, model: type, **hints: Any) -> str:
        mark = _MARK.get()
        if (
            mark is None
            or mark.wrote
            or model._meta.label_lower not in REPLICA_MODELS  # type: ignore[attr-defined]
            or REPLICA not in settings.DATABASES
            or connections[DEFAULT_DB_ALIAS].in_atomic_block
            or not HEALTH.usable()
        ):
            return DEFAULT_DB_ALIAS
        mark.used_replica = True
        return REPLICA

    def db_for_write(self, model: type, **hints: Any) -> str:
        mark = _MARK.get()
        if mark is not None:
            mark.wrote = True  # read your own writes: this request's later reads go to the primary
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS
