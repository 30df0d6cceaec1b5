"""The clubs' JSON API (docs/protocol.md, "Clubs"): token-authenticated as the rest of games.web.api."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from games.clubs import services
from games.clubs.models import Club
from games.table.errors import ServiceError
from games.web.api import error, json_body, token_required


@require_POST
@token_required
def join(request: HttpRequest, user: AbstractBaseUser) -> JsonResponse:
    """{"invite": code} → 201 {"club", "name", "status": "active" | "pending"}; a refusal is
    400 with its code (bad_invite, banned, already_member, already_requested, club_full, …)."""
    try:
        data = json_body(request)
        row = services.join_by_invite(user, data.get("invite"))
    except ServiceError as e:
        return error(400, e.code, e.message)
    return JsonResponse({"club": row.club_id, "name": row.club.name, "status": row.status}, status=201)


@require_GET
@token_required
def tables(request: HttpRequest, user: AbstractBaseUser, pk: int) -> JsonResponse:
    """The club's open tables, for its members only: anyone else gets 404, as for the page."""
    club = Club.objects.filter(pk=pk).first()
    if club is None or not services.is_member(user, club):
        return error(404, "not_found", "no such club")
    rows = []
    for table in services.tables_of(club):
        seats = sorted(table.seats.all(), key=lambda s: s.index)
        rows.append(
            {
                "id": table.pk,
                "variant": table.variant,
                "base": table.base,
                "status": table.status,
                "ws": f"/ws/tables/{table.pk}/",
                "seats": [
                    {
                        "index": s.index,
                        "user": s.user.get_username() if s.user_id else None,
                        "is_bot": s.is_bot,
                    }
                    for s in seats
                ],
            }
        )
    return JsonResponse({"club": club.pk, "name": club.name, "tables": rows})
