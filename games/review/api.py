"""`GET /api/hands/<id>/review?seat=N` (docs/protocol.md): the engine's review of one seat of a
finished hand, exactly as `python -m games.engine review --seat N` prints it for the hand's
record. Access as the replay's: 404 for a hand the viewer may not see, 403 while it is in
progress (or behind a quick match's spectator delay). 202 while the review is being prepared."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from accounts.services import user_for_token
from games.history.api import REFUSALS, error
from games.history.replays import ReplayRefused, replayable_hand
from games.review.models import HandReview
from games.review.services import SeatRefused, request_review, seat_of

RETRY_SECONDS = 2


def _viewer(request: HttpRequest) -> AbstractBaseUser | None:
    """The session's user, or the owner of an `Authorization: Bearer <API token>`, or None
    (as the replay's API reads it)."""
    if request.user.is_authenticated:
        return request.user
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return user_for_token(key.strip()) if scheme.lower() == "bearer" else None


@require_GET
def hand_review(request: HttpRequest, pk: int) -> JsonResponse:
    viewer = _viewer(request)
    try:
        hand = replayable_hand(pk, viewer)
    except ReplayRefused as e:
        status, message = REFUSALS[e.code]
        if e.code == "hand_in_progress":
            message = "a hand in progress has no review; wait until it is over"
        return error(status, e.code, message)
    try:
        seat = seat_of(hand, viewer, request.GET.get("seat"))
    except SeatRefused:
        return error(400, "bad_seat", f"no such seat: this hand has seats 0–{len(hand.match.players) - 1}")
    row = request_review(hand, seat)
    if row.status == HandReview.Status.READY:
        return JsonResponse(row.data, json_dumps_params={"ensure_ascii": False})
    if row.status == HandReview.Status.FAILED:
        return error(500, "review_failed", row.error or "the review could not be made")
    response = JsonResponse(
        {"status": "preparing", "hand": hand.pk, "seat": seat, "retry_after": RETRY_SECONDS}, status=202
    )
    response["Retry-After"] = str(RETRY_SECONDS)
    return response
