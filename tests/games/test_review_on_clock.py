"""Reviews computed by the clock process (REVIEWS_ON_CLOCK): a request only makes the pending
row; the clock's sweep takes one row at a time onto its review thread; a row is worked on once,
and work that died with its clock is taken over after STALE."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.clock import ticks
from games.review import services
from games.review.models import HandReview
from tests.games.history_helpers import finished_hand

pytestmark = pytest.mark.django_db


class Inline:
    """The review thread, run at once on the test's thread (and counted)."""

    def __init__(self) -> None:
        self.ran: list[int] = []

    def submit(self, fn: Callable[..., None], work: Callable[[int], None], review_id: int) -> Future[None]:
        self.ran.append(review_id)
        work(review_id)  # (the pool's connection handling is the real pool's business)
        done: Future[None] = Future()
        done.set_result(None)
        return done


@pytest.fixture
def on_clock(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Inline:
    settings.REVIEWS_ON_CLOCK = True
    pool = Inline()
    monkeypatch.setattr(services, "EXECUTOR", pool)
    return pool


def test_a_request_makes_the_row_and_the_clock_computes_it(
    alice: User, on_clock: Inline, django_capture_on_commit_callbacks: Any
) -> None:
    hand = finished_hand(alice)
    with django_capture_on_commit_callbacks(execute=True):
        row = services.request_review(hand, 0)
    assert on_clock.ran == []  # the request process computes nothing
    assert HandReview.objects.get(pk=row.pk).status == HandReview.Status.PENDING
    ticks.sweeps(timezone.now())  # the clock's period: every sweep, the review's among them
    assert on_clock.ran == [row.pk]
    done = HandReview.objects.get(pk=row.pk)
    assert done.status == HandReview.Status.READY and done.data["decisions"] and done.claimed
    ticks.sweeps(timezone.now())
    assert on_clock.ran == [row.pk]  # ready: never again


def test_a_claimed_row_is_left_to_its_clock_until_it_is_stale(alice: User, on_clock: Inline) -> None:
    hand = finished_hand(alice)
    row = services.request_review(hand, 0)
    now = timezone.now()
    HandReview.objects.filter(pk=row.pk).update(claimed=now)  # another clock is working on it
    services.sweep(now)
    assert on_clock.ran == []
    services.sweep(now + services.STALE * 2)  # that clock died: taken over once
    assert on_clock.ran == [row.pk]
    assert HandReview.objects.get(pk=row.pk).status == HandReview.Status.READY


def test_one_review_at_a_time_per_clock(
    alice: User, on_clock: Inline, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = [finished_hand(alice) for _ in range(2)]
    rows = [services.request_review(hand, 0) for hand in hands]
    pending: list[Future[None]] = []

    class Busy(Inline):  # a thread still working on the first review
        def submit(
            self, fn: Callable[..., None], work: Callable[[int], None], review_id: int
        ) -> Future[None]:
            self.ran.append(review_id)
            pending.append(Future())
            return pending[-1]

    busy = Busy()
    monkeypatch.setattr(services, "EXECUTOR", busy)
    services.sweep(timezone.now())
    services.sweep(timezone.now())
    assert busy.ran == [rows[0].pk]  # the oldest first, and nothing more while it runs
    pending[0].set_result(None)
    services.sweep(timezone.now())
    assert busy.ran == [rows[0].pk, rows[1].pk]
    pending[1].set_result(None)  # (the thread free again for the next test)


def test_with_the_clock_inside_daphne_the_request_s_process_computes(
    alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    settings.REVIEWS_ON_CLOCK = False
    pool = Inline()
    monkeypatch.setattr(services, "EXECUTOR", pool)
    hand = finished_hand(alice)
    with django_capture_on_commit_callbacks(execute=True):
        row = services.request_review(hand, 0)
    assert pool.ran == [row.pk]
    services.sweep(timezone.now())
    assert pool.ran == [row.pk]  # the clock leaves reviews alone
