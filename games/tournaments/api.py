"""The tournaments' JSON API (docs/protocol.md): sign up and check in with an API token, and the
standings (public tournaments for anybody; others for those who may see them)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from games.tournaments import services
from games.tournaments.access import TournamentError, visible_tournaments
from games.tournaments.models import Tournament
from games.tournaments.standings import standings as standings_of
from games.web.api import error, token_required, token_user

NOT_FOUND = "there is no such tournament"


def _visible(user: AbstractBaseUser | None, pk: int) -> Tournament | None:
    return visible_tournaments(user).filter(pk=pk).first()


@require_POST
@token_required
def sign_up(request: HttpRequest, user: AbstractBaseUser, pk: int) -> JsonResponse:
    """POST /api/tournaments/<id>/signup → 201 {"tournament", "player", "signed_up"}."""
    if _visible(user, pk) is None:
        return error(404, "not_found", NOT_FOUND)
    try:
        player = services.sign_up(pk, user)
    except TournamentError as e:
        return error(409, e.code, e.message)
    body = {"tournament": pk, "player": user.get_username(), "signed_up": player.signed_up.isoformat()}
    return JsonResponse(body, status=201)


@require_POST
@token_required
def check_in(request: HttpRequest, user: AbstractBaseUser, pk: int) -> JsonResponse:
    """POST /api/tournaments/<id>/checkin → 200 {"tournament", "player", "checked_in"}."""
    if _visible(user, pk) is None:
        return error(404, "not_found", NOT_FOUND)
    try:
        player = services.check_in(pk, user)
    except TournamentError as e:
        return error(409, e.code, e.message)
    assert player.checked_in is not None
    body = {"tournament": pk, "player": user.get_username(), "checked_in": player.checked_in.isoformat()}
    return JsonResponse(body)


@require_GET
def standings(request: HttpRequest, pk: int) -> JsonResponse:
    """GET /api/tournaments/<id>/standings → {"tournament", "status", "round", "rounds", "standings"}."""
    viewer = token_user(request) or (request.user if request.user.is_authenticated else None)
    tournament = _visible(viewer, pk)
    if tournament is None:
        return error(404, "not_found", NOT_FOUND)
    body = {
        "tournament": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "round": tournament.current_round,
        "duplicate": tournament.duplicate,
        "club": {"id": tournament.club_id, "name": tournament.club.name} if tournament.club else None,
        "public": tournament.public,
        "rounds": [
            {"number": r.number, "commitment": r.commitment, "salt": r.salt if r.revealed else None}
            for r in tournament.round_rows.all()
        ],
        "standings": [row.as_json() for row in standings_of(tournament)],
    }
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
