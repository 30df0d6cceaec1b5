"""Which socket server processes are alive, so that the sockets of a dead one stop counting.

A seat's `connections` and a table's `spectators` count open sockets (games.table.presence). A process
killed without closing its sockets (`kill -9`, a machine lost) used to leave them counted for
ever: its players, if they never came back, were shown connected, waited for on every turn
for the full timer instead of being played (托管) after two seconds, and never charged the
escape. Now every counted socket has a row naming its process (OpenSocket); every process
that has held a socket beats its heart (ServerProcess.seen) every HEARTBEAT_SECONDS for as long
as it lives, sockets or none (games.sockets.watchers.HEARTBEAT); and the clock (`reap`) takes the
sockets of a process not seen for STALE_SECONDS out of the counts, as disconnected at the
process's last heartbeat. The server cut those off, so the seats they counted for are marked
(`Seat.server_cut`) and their disconnect escape is nobody's fault — theirs only: a process
given up excuses no one else (an idle process that stopped beating used to record a server
start, which excused every disconnect of the last minute anywhere).

Heartbeats are stamped with the database's time, and staleness is measured against the
freshest heartbeat, not the clock's own time: machines' clocks may disagree, and when the
database or the clock stalls every process looks old at once and none is given up. A process
given up for dead that was only stalled finds its row gone at its next heartbeat; its sockets
are no longer counted, so it closes them and they reconnect (games.sockets.watchers).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta

from django.db.models import Exists, Max, OuterRef, QuerySet
from django.db.models.functions import Now
from django.utils import timezone

from common import caches
from games.sockets.models import OpenSocket, ServerProcess
from games.table.presence import drop_socket

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
STALE_SECONDS = 30.0

_process_id: int | None = None  # this process's ServerProcess row


@caches.on_clear
def forget_registration() -> None:
    """Register again at the next socket (a test database rolled back loses the row)."""
    global _process_id
    _process_id = None


_registering = threading.Lock()


def registered() -> int | None:
    """This process's row, once registered (no database access)."""
    return _process_id


def heartbeat() -> bool:
    """Tell the others this process is alive (registering it on first use). False when it had
    been given up for dead (its row was gone): its sockets were taken out of the counts, and it
    is registered afresh."""
    global _process_id
    when = Now()  # the database's clock: the machines' clocks may disagree
    with _registering:  # sockets connecting at once to an idle process: one row, not one each
        if _process_id is not None and ServerProcess.objects.filter(pk=_process_id).update(seen=when):
            return True
        given_up = _process_id is not None
        _process_id = ServerProcess.objects.create(
            host=f"{socket.gethostname()} {os.getpid()}", started=when, seen=when
        ).pk
    if given_up:
        log.warning(
            "this process was given up for dead (no heartbeat for %.0f s); registered again", STALE_SECONDS
        )
    return not given_up


def reap(now: datetime | None = None) -> int:
    """The clock: take the sockets of every process not seen for STALE_SECONDS (before the
    freshest heartbeat) out of the counts; how many sockets that was."""
    now = now or timezone.now()
    newest = ServerProcess.objects.aggregate(newest=Max("seen"))["newest"]
    dropped = 0
    if newest is not None:
        limit = newest - timedelta(seconds=STALE_SECONDS)
        for process in ServerProcess.objects.filter(seen__lt=limit):
            # The row goes first, and only if it did not beat meanwhile: a socket it opens after
            # this is an orphan, closed by the process itself when it learns it was given up.
            if ServerProcess.objects.filter(pk=process.pk, seen=process.seen).delete()[0]:
                # No server start is recorded: that would excuse every disconnect anywhere. The
                # seats its sockets counted for are marked cut off (games.table.presence.drop_socket) instead.
                log.warning(
                    "server process %s gave no sign of life since %s: its sockets are closed",
                    process.host,
                    process.seen,
                )
                dropped += _drop(OpenSocket.objects.filter(process_id=process.pk), process.seen)
    # Orphans whose process never came to close them (it died as well).
    orphans = OpenSocket.objects.filter(opened__lt=now - timedelta(seconds=STALE_SECONDS)).exclude(
        Exists(ServerProcess.objects.filter(pk=OuterRef("process_id")))
    )
    return dropped + _drop(orphans, now)


def _drop(sockets: QuerySet[OpenSocket], at: datetime) -> int:
    return sum(drop_socket(row, at) for row in sockets.select_related("user"))
