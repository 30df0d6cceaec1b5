"""`/api/queue/` (docs/protocol.md §5): join, look at and leave the quick-match queue.

Bearer-token authenticated like the rest of the JSON API (so CSRF-exempt). An API client polls
GET like the queue page does: an entry not polled for `games.matchmaking.rules.STALE_SECONDS` is dropped.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods

from games.matchmaking import queue as matchmaking_queue
from games.matchmaking.rules import DEFAULT_BOT_WAIT, QueueError
from games.table.errors import ServiceError
from games.web.api import error, json_body, token_required


@require_http_methods(["GET", "POST", "DELETE"])
@token_required
def queue(request: HttpRequest, user: AbstractBaseUser) -> JsonResponse:
    if request.method == "POST":
        return _join(request, user)
    if request.method == "DELETE":
        if not matchmaking_queue.leave(user):
            return error(404, "not_queued", "you are not waiting in a queue")
        return JsonResponse({"queued": False})
    return JsonResponse(matchmaking_queue.poll(user))


def _join(request: HttpRequest, user: AbstractBaseUser) -> JsonResponse:
    """{"variant", "level", "ranked"?, "bot_wait"?} → 202 {"queued": true, "position": n}."""
    try:
        data = json_body(request)
        position = matchmaking_queue.join(
            user,
            data.get("variant"),
            data.get("level"),
            ranked=data.get("ranked", False),
            bot_wait=data.get("bot_wait", DEFAULT_BOT_WAIT),
        )
    except QueueError as e:
        return error(e.status, e.code, e.message)
    except ServiceError as e:  # a malformed body
        return error(400, e.code, e.message)
    return JsonResponse({"queued": True, "position": position}, status=202)
