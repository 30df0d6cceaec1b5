"""The review page: the replay viewer with the step's review beside the board, the summary, the
decisions in order and, apart, hindsight. While the review is being prepared the page says so and
polls (htmx) until it is ready."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.history import replays
from games.models import Hand
from games.rendering.board import bot_name
from games.review.models import HandReview
from games.review.present import review_page
from games.review.services import SeatRefused, request_review, seat_of


def _viewer(request: HttpRequest) -> AbstractBaseUser | None:
    return request.user if request.user.is_authenticated else None


def _hand_and_seat(request: HttpRequest, pk: int) -> tuple[Hand, int]:
    viewer = _viewer(request)
    try:
        hand = replays.replayable_hand(pk, viewer)
    except replays.ReplayRefused as e:
        if e.code == "hand_in_progress":
            raise PermissionError from None
        raise Http404(e.code) from None
    try:
        return hand, seat_of(hand, viewer, request.GET.get("seat"))
    except SeatRefused:
        raise Http404("no such seat") from None


def _refused(request: HttpRequest) -> HttpResponse:
    return render(request, "games/review/in_progress.html", status=403)


@require_GET
def review(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        hand, seat = _hand_and_seat(request, pk)
    except PermissionError:
        return _refused(request)
    row = request_review(hand, seat)
    seats = hand.match.players or []
    bots = [uid is None for uid in seats]
    context: dict[str, Any] = {"hand": hand, "seat": seat, "row": row}
    if row.status == HandReview.Status.READY:
        page_data = replays.for_page(replays.build(hand), bots, seat)  # the board from the seat reviewed
        context.update(data=page_data, hands=[page_data], review=review_page(row.data))
        names = page_data["players"]
    else:
        names = _seat_names(hand)
    viewer = _viewer(request)
    context["seat_links"] = [
        {"seat": i, "name": n, "current": i == seat, "mine": viewer is not None and seats[i] == viewer.pk}
        for i, n in enumerate(names)
    ]
    return render(request, "games/review/page.html", context)


def _seat_names(hand: Hand) -> list[str]:
    """Each seat as the board named it (a bot by its name in the viewer's language)."""
    seats = hand.match.players or []
    return [
        bot_name(i) if uid is None else n
        for i, (uid, n) in enumerate(zip(seats, replays.players(hand), strict=False))
    ]


@require_GET
def review_status(request: HttpRequest, pk: int) -> HttpResponse:
    """What the preparing page polls: the same notice while pending; once ready (or failed),
    an empty answer that tells htmx to load the page again (HX-Refresh)."""
    try:
        hand, seat = _hand_and_seat(request, pk)
    except PermissionError:
        return _refused(request)
    row = request_review(hand, seat)
    if row.status == HandReview.Status.PENDING:
        return render(request, "games/review/_preparing.html", {"hand": hand, "seat": seat})
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response
