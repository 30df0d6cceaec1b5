"""The review page: the replay viewer with the step's review beside the board, the summary, the
decisions in order and, apart, hindsight. While the review is being prepared the page says so and
polls (htmx) until it is ready."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine.errors import EngineError
from games.history import replays
from games.history.views import BUSY, RECORD_WORKERS
from games.models import Hand
from games.rendering.board import bot_name
from games.review import uploaded
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


def _number(request: HttpRequest, name: str) -> int:
    try:
        return int(request.GET.get(name) or 0)
    except ValueError:
        return -1  # refused by the engine as no such hand or seat, with its message


async def open_review(request: HttpRequest, digest: str) -> HttpResponse:
    """The review of one seat in one hand of a record opened with /replays/open/ (kept by its
    hash): computed here, on the record workers' threads, as the command line computes it."""
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    user = await request.auser()
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    index, seat = _number(request, "hand"), _number(request, "seat")
    try:
        raw, data, review = await sync_to_async(uploaded.kept)(digest, index, seat)
    except uploaded.RecordGone:
        return await _record_error(request, _("It is no longer kept here: open the file again."), 404)
    if data is None or review is None:
        try:
            result = await RECORD_WORKERS.run(
                lambda: uploaded.review_of_upload(raw, index, seat, data, review)
            )
        except EngineError as e:
            return await _record_error(request, e.message, 400)
        if result is BUSY:
            response = await _record_error(
                request, _("The server is opening other records; try again in a minute."), 503
            )
            response["Retry-After"] = "60"
            return response
        data, review = result
        await sync_to_async(uploaded.keep)(digest, index, seat, data, review)
    page_data = await sync_to_async(replays.for_page)(data, replays.uploaded_bots(data), seat)
    context = {
        "data": page_data,
        "hands": [page_data],
        "review": await sync_to_async(review_page)(review),
        "digest": digest,
        "index": index,
        "seat": seat,
        "seat_links": [
            {"seat": i, "name": n, "current": i == seat} for i, n in enumerate(page_data["players"])
        ],
    }
    return await sync_to_async(render)(request, "games/review/opened.html", context)


async def _record_error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """The record page with its error, as a bad upload shows it."""
    return await sync_to_async(render)(
        request, "games/history/open_record.html", {"error": message}, status=status
    )
