"""JSON reads (docs/history.md): a hand's replay, a player's matches, the leaderboard.

Readable anonymously for public tables; a session or an API token (Authorization: Bearer)
identifies a viewer who may also see their private tables' hands.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from accounts.services import user_for_token
from games.history import leaderboard as leaderboards
from games.history import queries, replays
from games.history.views import variant_param

User = get_user_model()

REFUSALS = {
    "not_found": (404, "there is no such hand"),
    "no_finished_hand": (404, "the match has no finished hand yet"),
    "hand_in_progress": (403, "a hand in progress cannot be replayed; wait until it is over"),
}


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


def _viewer(request: HttpRequest) -> AbstractBaseUser | None:
    """The session's user, or the owner of an `Authorization: Bearer <API token>`, or None."""
    if request.user.is_authenticated:
        return request.user
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return user_for_token(key.strip()) if scheme.lower() == "bearer" else None


@require_GET
def hand_replay(request: HttpRequest, pk: int) -> JsonResponse:
    try:
        hand = replays.replayable_hand(pk, _viewer(request))
    except replays.ReplayRefused as e:
        status, message = REFUSALS[e.code]
        return error(status, e.code, message)
    return JsonResponse(replays.build(hand))


@require_GET
def hand_record(request: HttpRequest, pk: int) -> JsonResponse:
    """The open record of a finished hand (docs/record-format.md), with the salt and wall revealed."""
    try:
        hand = replays.replayable_hand(pk, _viewer(request))
    except replays.ReplayRefused as e:
        status, message = REFUSALS[e.code]
        return error(status, e.code, message)
    return _record_response(replays.hand_record(hand), f"hand-{hand.pk}.json", request)


@require_GET
def match_record(request: HttpRequest, pk: int) -> JsonResponse:
    """The match header and the record of each of its finished hands."""
    try:
        viewer = _viewer(request)
        record = replays.match_record(replays.visible_match(pk, viewer), viewer)
    except replays.ReplayRefused as e:
        status, message = REFUSALS[e.code]
        return error(status, e.code, "there is no such match" if e.code == "not_found" else message)
    return _record_response(record, f"match-{pk}.json", request)


def _record_response(record: dict, filename: str, request: HttpRequest) -> JsonResponse:
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False})
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def user_matches(request: HttpRequest, username: str) -> JsonResponse:
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        return error(404, "no_user", "there is no such user")
    rows = queries.user_matches(user, _viewer(request))
    return JsonResponse({"username": user.get_username(), "matches": queries.matches_json(rows)})


@require_GET
def leaderboard(request: HttpRequest) -> JsonResponse:
    board = leaderboards.leaderboard(variant_param(request))
    return JsonResponse(
        {
            "variant": board.variant,
            "min_hands": board.min_hands,
            "ranked": [s.as_json() for s in board.ranked],
            "provisional": [s.as_json() for s in board.provisional],
        }
    )
