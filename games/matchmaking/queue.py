"""Quick match: a queue per (variant, base stake, ranked) in the database.

A player joins (`join`), keeps the queue page open (each poll, `poll`, says they are still
there) and is seated at a new public table together with the others of the queue as soon as
there are enough of them (`games.matchmaking.seating.match_queue`): the stake is fixed by the level
and the hand starts. When the longest-waiting player's own wait for bots (`bot_wait`) has
passed, the open seats are filled with bots. Ranked queues only group players whose ratings are
close, the allowed gap widening the longer they wait (`games.matchmaking.rules.choose_group`, a pure
function).

Concurrency: the queue is PostgreSQL rows, so any server process (or the clock) may match. A
matching pass holds a transaction-level advisory lock on its queue (PostgreSQL; SQLite
transactions take the database's write lock when they begin) and locks the waiting rows with
`select_for_update(skip_locked=True)`: two requests at the same instant never seat a player
twice or at two tables (tests/games/test_matchmaking.py runs them concurrently).

Leaving a table the queue started is like leaving any table: an escape (penalty and graded ban,
games.moderation.penalties) only mid-hand with another person at the table, never between hands.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.matchmaking.models import QueueEntry, QuickMatch
from games.matchmaking.rules import (
    DEFAULT_BOT_WAIT,
    ESTIMATE_FROM,
    QueueError,
    QueueKey,
    check_bot_wait,
    level_base,
    rating_of,
    refuse_ineligible,
    waiting_entries,
)
from games.matchmaking.seating import match_queue
from games.models import Seat

# --- joining, polling, leaving ----------------------------------------------------------------


def join(
    user: AbstractBaseUser,
    variant: Any,
    level: Any,
    ranked: Any = False,
    bot_wait: Any = DEFAULT_BOT_WAIT,
    now: datetime | None = None,
) -> int:
    """Queue `user` and return their place in the queue; then match the queue at once (GET tells
    whether that seated them). Refused, nothing written, when the input is bad or the user is
    banned, seated, short of points, or queued already."""
    now = now or timezone.now()
    level_name, base = level_base(variant, level)
    if not isinstance(ranked, bool):
        raise QueueError("bad_ranked", "ranked must be true or false")
    wait = check_bot_wait(bot_wait)
    _forget_delivered(user)
    if QueueEntry.objects.filter(user_id=user.pk, table__isnull=True, dropped="").exists():
        raise QueueError("already_queued", _("You are already in a queue: leave it first."), 409)
    refuse_ineligible(user, base, now)
    try:
        with transaction.atomic():
            # only a delivered or dropped entry: a waiting one another request made meanwhile
            # stays, and this insert then breaks the one-entry-per-user constraint (IntegrityError)
            QueueEntry.objects.filter(user_id=user.pk).exclude(table__isnull=True, dropped="").delete()
            entry = QueueEntry.objects.create(
                user=user,
                variant=variant,
                level=level_name,
                base=base,
                ranked=ranked,
                rating=rating_of(user, variant),
                bot_wait=wait,
                bots_at=now + timedelta(seconds=wait) if wait else None,
                joined=now,
                seen=now,
            )
    except IntegrityError:  # the same user joining twice at the same instant
        raise QueueError("already_queued", _("You are already in a queue: leave it first."), 409) from None
    key = key_of(entry)
    position = (
        waiting_entries(key, now).filter(Q(joined__lt=now) | Q(joined=now, pk__lt=entry.pk)).count() + 1
    )
    match_queue(key, now)
    return position


def _forget_delivered(user: AbstractBaseUser) -> None:
    """A matched entry whose player no longer sits at its table has done its job."""
    entry = QueueEntry.objects.filter(user_id=user.pk, table__isnull=False).first()
    if entry is not None and not Seat.objects.filter(table_id=entry.table_id, user_id=user.pk).exists():
        entry.delete()


def key_of(entry: QueueEntry) -> QueueKey:
    return QueueKey(entry.variant, entry.base, entry.ranked)


def leave(user: AbstractBaseUser) -> bool:
    """Leave the queue; False when the user was not waiting in one."""
    deleted, _rows = QueueEntry.objects.filter(user_id=user.pk, table__isnull=True).delete()
    return bool(deleted)


POLL_WRITE_INTERVAL = timedelta(seconds=1)


def poll(user: AbstractBaseUser, now: datetime | None = None) -> dict[str, Any]:
    """The queue page's (or API client's) poll: still here; match if possible; the status."""
    now = now or timezone.now()
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is None:
        return {"queued": False}
    recent = entry.seen is not None and now - entry.seen < POLL_WRITE_INTERVAL
    if entry.table_id is None and not entry.dropped and not recent:
        # at most one write (and one matching) per second and waiting person: a client polling
        # faster gets the status it would have got, not a transaction each time
        QueueEntry.objects.filter(pk=entry.pk).update(seen=now)
        match_queue(key_of(entry), now)
        entry.refresh_from_db()
    return status(entry, now)


def status(entry: QueueEntry, now: datetime) -> dict[str, Any]:
    """What the queue page and GET /api/queue/ show for an entry."""
    if entry.table_id is not None:
        if Seat.objects.filter(table_id=entry.table_id, user_id=entry.user_id).exists():
            return {"table": entry.table_id, "ws": f"/ws/tables/{entry.table_id}/"}
        entry.delete()
        return {"queued": False}
    if entry.dropped:
        entry.delete()
        return {"queued": False, "dropped": entry.dropped}
    key = key_of(entry)
    waiting = waiting_entries(key, now)
    ahead = waiting.filter(Q(joined__lt=entry.joined) | Q(joined=entry.joined, pk__lt=entry.pk)).count()
    waited = max(0.0, (now - entry.joined).total_seconds())
    return {
        "queued": True,
        "variant": entry.variant,
        "level": entry.level,
        "base": entry.base,
        "ranked": entry.ranked,
        "position": ahead + 1,
        "waiting": waiting.count(),
        "players": key.players,
        "waited": int(waited),
        "bot_wait": entry.bot_wait,
        "bots_in": max(0, int((entry.bots_at - now).total_seconds())) if entry.bots_at else None,
        "expected_wait": expected_wait(key),
    }


def expected_wait(key: QueueKey) -> int | None:
    """Seconds, from how long the last quick matches of this queue took; None: no history yet."""
    recent = QuickMatch.objects.filter(variant=key.variant, base=key.base, ranked=key.ranked)
    waits = list(recent.order_by("-created").values_list("waited", flat=True)[:ESTIMATE_FROM])
    return round(sum(waits) / len(waits)) if waits else None
