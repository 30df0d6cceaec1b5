"""Seating a quick match (games.matchmaking.queue): a matching pass over one queue, under its lock
(see games.matchmaking.queue on concurrency), seats each group it can form at a new public table with
the level's stake and bots in the open seats; the clock's `sweep` runs the passes that are due."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.matchmaking.models import QueueEntry, QuickMatch
from games.matchmaking.rules import (
    MATCHED_KEEP,
    STALE_SECONDS,
    Candidate,
    QueueError,
    QueueKey,
    choose_group,
    refuse_ineligible,
    waiting_entries,
)
from games.table import commands, opening
from games.table.errors import ServiceError

log = logging.getLogger(__name__)


def _lock_queue(key: QueueKey) -> None:
    """Serialise matching passes of one queue across processes (till the transaction ends)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key.lock_id()])


def match_queue(key: QueueKey, now: datetime | None = None) -> list[int]:
    """Seat every group the queue can form now; returns the new tables' ids."""
    now = now or timezone.now()
    created: list[int] = []
    with transaction.atomic():
        _lock_queue(key)
        QueueEntry.objects.filter(
            variant=key.variant,
            base=key.base,
            ranked=key.ranked,
            table__isnull=True,
            seen__lt=now - timedelta(seconds=STALE_SECONDS),
        ).delete()  # players whose queue page stopped polling
        entries = list(waiting_entries(key, now).select_for_update(skip_locked=True).order_by("joined", "pk"))
        entries = [e for e in entries if _still_eligible(e, now)]
        while True:
            candidates = [Candidate(e.pk, e.rating, e.joined, e.bots_at) for e in entries]
            chosen = choose_group(candidates, key.players, key.ranked, now)
            if chosen is None:
                break
            group_ids = {c.id for c in chosen[0]}
            group = [e for e in entries if e.pk in group_ids]
            group.sort(key=lambda e: (e.joined, e.pk))
            table_id = _seat_group(key, group, chosen[1], now)
            if table_id is None:
                break
            created.append(table_id)
            entries = [e for e in entries if e.pk not in group_ids]
    return created


def _still_eligible(entry: QueueEntry, now: datetime) -> bool:
    """Banned, seated elsewhere or short of points since joining: dropped with the reason."""
    try:
        refuse_ineligible(entry.user, entry.base, now)
    except QueueError as e:
        entry.dropped = e.message[:200]
        entry.save(update_fields=["dropped"])
        return False
    return True


def _seat_group(key: QueueKey, group: list[QueueEntry], bots: int, now: datetime) -> int | None:
    """A new public table: the group in queue order, the level's stake fixed, bots in the
    remaining seats, the first hand started. None (nothing written) if a service refuses."""
    users = [e.user for e in group]
    first = users[0]
    try:
        with transaction.atomic():
            table = opening.create_table(first, key.variant, public=True)
            for index, user in enumerate(users):
                commands.sit(table.pk, user, index)
            commands.set_stake(table.pk, first, key.base)
            for user in users[1:]:
                commands.accept_stake(table.pk, user)
            for index in range(len(users), key.players):
                commands.add_bot(table.pk, first, index, settings.QUICK_MATCH_BOT_LEVEL)
            table = commands.start_hand(table.pk, first)
            QuickMatch.objects.create(
                table=table,
                match_id=table.match_id,
                variant=key.variant,
                level=group[0].level,
                base=key.base,
                ranked=key.ranked and bots == 0,
                hands=key.players,
                bots=bots,
                waited=sum((now - e.joined).total_seconds() for e in group) / len(group),
                created=now,
            )
            QueueEntry.objects.filter(pk__in=[e.pk for e in group]).update(table=table)
    except ServiceError as e:
        log.warning("quick match for %s failed: %s", key, e)
        return None
    return table.pk


def sweep(now: datetime | None = None) -> int:
    """The clock's pass: match queues whose bot wait has run out or that hold stale entries,
    and forget old matched entries. Returns how many tables it started."""
    now = now or timezone.now()
    due = (
        QueueEntry.objects.filter(table__isnull=True, dropped="")
        .filter(Q(bots_at__lte=now) | Q(seen__lt=now - timedelta(seconds=STALE_SECONDS)))
        .values_list("variant", "base", "ranked")
        .distinct()
    )
    started = 0
    for variant, base, ranked in list(due):
        started += len(match_queue(QueueKey(variant, base, ranked), now))
    QueueEntry.objects.filter(table__isnull=False, joined__lt=now - MATCHED_KEEP).delete()
    return started
