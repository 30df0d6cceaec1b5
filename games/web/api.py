"""The JSON HTTP API (docs/protocol.md §3): token-authenticated, CSRF-exempt, JSON in and out."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import ApiToken
from accounts.services import revoke_tokens, token_for_key, user_for_token
from games.engine.bots import DEFAULT_LEVEL, check_level
from games.engine.errors import EngineError
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.table import commands, opening, stake
from games.table.errors import ServiceError

MAX_BODY = 4096
# Optional table timers in the request body, with their defaults (opening.create_table checks ranges).
TIMERS = {"turn_seconds": 15, "claim_seconds": 8, "min_pause_ms": 1000, "undo_ms": 1500, "grace_seconds": 120}

View = Callable[..., JsonResponse]


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


def token_user(request: HttpRequest) -> AbstractBaseUser | None:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return user_for_token(key.strip())


def token_required(view: Callable[[HttpRequest, AbstractBaseUser], JsonResponse]) -> View:
    """Bearer-token views only: they never use cookies, so they are safely CSRF-exempt."""

    @csrf_exempt
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        user = token_user(request)
        if user is None:
            response = error(401, "unauthorized", "send Authorization: Bearer <API token>")
            response["WWW-Authenticate"] = "Bearer"
            return response
        return view(request, user, *args, **kwargs)

    return wrapped


def json_body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise ServiceError("too_big", f"the body is at most {MAX_BODY} bytes")
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        raise ServiceError("bad_json", "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ServiceError("bad_json", "the body must be a JSON object")
    return data


def _bot_levels(bots: Any) -> list[str]:
    """The API's "bots": a count (default level each) or a list of levels; ServiceError if bad."""
    if isinstance(bots, list):
        try:
            return [check_level(level) for level in bots]
        except EngineError as e:
            raise ServiceError(e.code, e.message) from None
    if isinstance(bots, bool) or not isinstance(bots, int) or bots < 0:
        raise ServiceError("bad_bots", "'bots' must be a whole number or a list of levels")
    return [DEFAULT_LEVEL] * bots


def _whole(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(f"bad_{key}", f"'{key}' must be a whole number")
    return value


@require_POST
@token_required
def create_table(request: HttpRequest, user: AbstractBaseUser) -> JsonResponse:
    """{"variant", "base", "bots", "public"?, "options"?, timers?} → 201 {"id", "ws"}; caller in seat 0.

    "bots" is how many seats get a bot of the default level, or a list of levels, one per bot
    seat in seat order (e.g. ["strong", "easy"]).
    """
    try:
        data = json_body(request)
        variant = data.get("variant")
        if variant not in VARIANT_IDS:
            raise ServiceError("unknown_variant", f"variant must be one of {', '.join(VARIANT_IDS)}")
        players = get_ruleset(variant).players
        levels = _bot_levels(data.get("bots", 0))
        if not 0 <= len(levels) < players:
            raise ServiceError("bad_bots", f"bots must be 0–{players - 1} for {variant}")
        base = stake.validate_stake(variant, data.get("base"))
        public = data.get("public", True)
        if not isinstance(public, bool):
            raise ServiceError("bad_public", "'public' must be true or false")
        timers = {key: _whole(data, key, default) for key, default in TIMERS.items()}
        with transaction.atomic():
            table = opening.create_table(user, variant, public=public, options=data.get("options"), **timers)
            commands.sit(table.pk, user, 0)
            commands.set_stake(table.pk, user, base)
            for index, level in enumerate(levels, start=1):
                commands.add_bot(table.pk, user, index, level)
    except ServiceError as e:
        return error(400, e.code, e.message)
    return JsonResponse({"id": table.pk, "ws": f"/ws/tables/{table.pk}/"}, status=201)


@csrf_exempt
def current_token(request: HttpRequest) -> HttpResponse:
    """DELETE /api/tokens/current → 204: revokes the token the request is authorised with (a bot
    signing off) and closes that token's open sockets."""
    if request.method != "DELETE":
        response = error(405, "method_not_allowed", "only DELETE")
        response["Allow"] = "DELETE"
        return response
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    token = token_for_key(key.strip()) if scheme.lower() == "bearer" else None
    if token is None:
        response = error(401, "unauthorized", "send Authorization: Bearer <API token>")
        response["WWW-Authenticate"] = "Bearer"
        return response
    revoke_tokens(ApiToken.objects.filter(pk=token.pk))
    return HttpResponse(status=204)
