"""Admission control for table sockets: a saturated process tells new sockets to come back later.

A socket's handshake is the most expensive thing a table socket does (token, table access, the
seat's count and its row, the first render: several database calls on the process's few database
threads). When thousands of sockets arrive at once — a process restarted after a crash takes back
its share of every table's players within seconds — their handshakes fill those threads, and every
hand action of every table already playing on the process waits behind them: one storm slowed every
table for seconds.

So each process lets at most `ADMIT_CONNECTING` (settings) handshakes run at once. A socket
arriving beyond that is accepted only to be told `busy` with `retry_after` (seconds) and closed
with 4013 (RFC 6455's 1013 "try again later", in the range daphne can send), before any database
work: the handshakes in progress finish quickly, the tables keep their pace, and the refused
clients come back spread over the next seconds (they wait `retry_after` plus a random share of
their back-off, docs/protocol.md). `retry_after` grows with the queue: with twice the limit in
progress it is twice the base.

A handshake counts from its start until its first state frame went out (or the socket closed); an
entry older than STALE_SECONDS is ignored, so a handshake that died without telling cannot keep the
process closed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable

from django.conf import settings

STALE_SECONDS = 30.0  # a handshake not finished by then counts no longer
MAX_RETRY_AFTER = 30  # seconds


class Admission:
    """Handshakes in progress in this process, and whether one more may start."""

    def __init__(self) -> None:
        self.started: dict[Hashable, float] = {}  # handshake -> when it began (monotonic)

    def limit(self) -> int:
        return int(getattr(settings, "ADMIT_CONNECTING", 0))

    def in_progress(self) -> int:
        now = time.monotonic()
        stale = [key for key, began in self.started.items() if now - began > STALE_SECONDS]
        for key in stale:
            del self.started[key]
        return len(self.started)

    def enter(self, key: Hashable) -> int | None:
        """Start a handshake: None when admitted (then `leave(key)` when done), else the seconds
        the client should wait before trying again."""
        limit = self.limit()
        if limit <= 0:  # no limit (the default for tests and `make run`)
            return None
        busy = self.in_progress()
        if busy >= limit:
            return retry_after(busy, limit)
        self.started[key] = time.monotonic()
        return None

    def leave(self, key: Hashable) -> None:
        """The handshake finished (its first state went out) or the socket closed before."""
        self.started.pop(key, None)


def retry_after(busy: int, limit: int) -> int:
    """Seconds to come back after: the base (`ADMIT_RETRY_AFTER`) for each limit's worth of
    handshakes in progress, at most MAX_RETRY_AFTER."""
    base = int(getattr(settings, "ADMIT_RETRY_AFTER", 2))
    return max(1, min(MAX_RETRY_AFTER, base * math.ceil((busy + 1) / max(1, limit))))


ADMISSION = Admission()  # one per process: all its sockets share its database threads
