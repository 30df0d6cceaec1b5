"""Reviews kept per (hand, seat, reviewer version), computed once, off the request path.

A request never computes a review itself: it finds the kept row or creates a pending one, and
the work is done elsewhere. Django's sync views and the table sockets' database calls share one
thread under ASGI, so seconds of review there would stall every live table.

Where it is done: with a clock process of its own beside daphne (`REVIEWS_ON_CLOCK`, the default
whenever the clock runs apart: settings), the clock takes pending rows one at a time (`sweep`,
one of the clock's sweeps) onto a thread of its own — the CPU of a review is then never taken
from a process serving tables, and any number of clocks share the work (a row is claimed with
SKIP LOCKED and a compare-and-set). With the clock inside daphne (`make run`), the request that
created the row hands it to a one-thread pool in that process (`submit`).

The unique (hand, seat, version) row makes the work happen once: only the request that created
the row starts it (or one clock claims it); another request finds it pending and waits (the page
polls). Work that died with its process — a pending row older than `STALE`, or a claim older than
that — is taken over once, by the next request or the next clock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from games.engine.review import REVIEWER_VERSION, review_hand
from games.history.replays import hand_record
from games.models import Hand
from games.review.models import HandReview

log = logging.getLogger(__name__)

STALE = timedelta(minutes=5)
# One thread: reviews are CPU work and the machine's cores belong to the live tables first.
EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")


_IN_FLIGHT = threading.Semaphore(1)  # the clock claims a row only when its review thread is free


def submit(work: Callable[[int], None], review_id: int) -> None:
    """Run `work(review_id)` on this process's review pool — unless a clock process does the
    reviews (`REVIEWS_ON_CLOCK`), which finds the pending row itself. (Tests replace this to run
    the work at once.)"""
    if not settings.REVIEWS_ON_CLOCK:
        EXECUTOR.submit(_pooled, work, review_id)


def sweep(now: datetime) -> int:
    """The clock's share (one of its sweeps): take the oldest pending review nobody is working
    on — or whose worker died — onto this process's review thread, when that thread is free.
    Returns 0: no table changes."""
    if not settings.REVIEWS_ON_CLOCK or not _IN_FLIGHT.acquire(blocking=False):
        return 0
    try:
        review_id = _claim(now)
    except Exception:
        _IN_FLIGHT.release()
        raise
    if review_id is None:
        _IN_FLIGHT.release()
        return 0
    future = EXECUTOR.submit(_pooled, compute, review_id)
    future.add_done_callback(lambda _: _IN_FLIGHT.release())
    return 0


def _claim(now: datetime) -> int | None:
    """One pending review for this clock: unclaimed, or claimed longer than STALE ago."""
    open_work = Q(claimed__isnull=True) | Q(claimed__lt=now - STALE)
    with transaction.atomic():
        pending = HandReview.objects.select_for_update(skip_locked=True).filter(
            open_work, status=HandReview.Status.PENDING
        )
        row = pending.order_by("started").values("pk", "claimed").first()
        if row is None:
            return None
        # compare-and-set as well: SQLite has no row locks, and `make run` may run a clock too
        taken = HandReview.objects.filter(pk=row["pk"], claimed=row["claimed"]).update(claimed=now)
    return row["pk"] if taken else None


def _pooled(work: Callable[[int], None], review_id: int) -> None:
    """A pool thread's connection is its own: opened for the work, closed after it."""
    close_old_connections()
    try:
        work(review_id)
    finally:
        close_old_connections()


class SeatRefused(Exception):
    """The seat asked for is not a seat of this hand."""


def seat_of(hand: Hand, viewer: AbstractBaseUser | None, asked: str | None) -> int:
    """The seat to review: the one asked for, else the viewer's own seat in the hand, else 0."""
    players = hand.match.players or []
    if asked not in (None, ""):
        try:
            seat = int(asked)
        except ValueError:
            raise SeatRefused(asked) from None
        if not 0 <= seat < len(players):
            raise SeatRefused(asked)
        return seat
    if viewer is not None and viewer.pk in players:
        return players.index(viewer.pk)
    return 0


def request_review(hand: Hand, seat: int) -> HandReview:
    """The kept review of `seat` in a finished `hand`: ready, failed, or pending (its work
    started here when this request created the row or found it stale)."""
    assert hand.status == Hand.Status.OVER, "only finished hands are reviewed"
    players = hand.match.players or []
    defaults = {
        "user_id": players[seat] if seat < len(players) else None,
        "variant": hand.table.variant,
        "hand_ended": hand.ended,
    }
    try:
        with transaction.atomic():
            row, created = HandReview.objects.get_or_create(
                hand=hand, seat=seat, version=REVIEWER_VERSION, defaults=defaults
            )
    except IntegrityError:  # created by another request between the get and the create
        return HandReview.objects.get(hand=hand, seat=seat, version=REVIEWER_VERSION)
    if created:
        transaction.on_commit(lambda: submit(compute, row.pk))
        return row
    if row.status == HandReview.Status.PENDING and row.started < timezone.now() - STALE:
        taken = HandReview.objects.filter(pk=row.pk, status=HandReview.Status.PENDING, started=row.started)
        if taken.update(started=timezone.now()):  # exactly one request takes a stale row over
            transaction.on_commit(lambda: submit(compute, row.pk))
    return row


def compute(review_id: int) -> None:
    """The work of one review (on the review pool): the hand's record through the engine's
    review — what `python -m games.engine review` prints for that record — then kept."""
    row = HandReview.objects.select_related("hand__table", "hand__match").get(pk=review_id)
    if row.status == HandReview.Status.READY:
        return
    try:
        data = review_hand(hand_record(row.hand), row.seat)
    except Exception as e:  # a review that cannot be made says why, and is not retried
        log.exception("review of hand %s seat %s failed", row.hand_id, row.seat)
        HandReview.objects.filter(pk=row.pk).update(
            status=HandReview.Status.FAILED, error=str(e)[:300], finished=timezone.now()
        )
        return
    HandReview.objects.filter(pk=row.pk).update(
        status=HandReview.Status.READY,
        data=data,
        finished=timezone.now(),
        **figures(row.hand, row.seat, data),
    )


def figures(hand: Hand, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    """What the statistics add up: the seat's result in the hand and the review's sums."""
    result = hand.result or {}
    won = seat in result.get("winners", [])
    payments = result.get("payments") or []
    decisions = [d for d in data["decisions"] if d.get("loss") is not None]
    return {
        "won": won,
        "self_drawn": won and result.get("by") == "self_draw",
        "dealt_in": not won and bool(result.get("winners")) and result.get("from") == seat,
        "win_points": payments[seat] if won and seat < len(payments) else None,
        "rated": len(decisions),
        "agreed": sum(1 for d in decisions if d["agrees"]),
        "loss": round(sum(d["loss"] for d in decisions), 4),
    }


def queue_unreviewed(user: AbstractBaseUser, limit: int = 20) -> int:
    """Start the review of the player's latest finished hands not reviewed yet (their own seat),
    so that the profile's statistics cover their play without them opening every review."""
    done = HandReview.objects.filter(user=user, version=REVIEWER_VERSION).values("hand_id")
    hands = (
        Hand.objects.filter(scores__user=user, status=Hand.Status.OVER)
        .exclude(pk__in=done)
        .exclude(result__by="admin_closed")
        .select_related("table", "match")
        .order_by("-ended")[:limit]
    )
    count = 0
    for hand in hands:
        players = hand.match.players or []
        if user.pk in players:
            request_review(hand, players.index(user.pk))
            count += 1
    return count
