"""`GET /api/users/<username>` (docs/history.md): a player's public profile with their ranks."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from games.history import ranks
from games.history.api import error

User = get_user_model()


@require_GET
def user_profile(request: HttpRequest, username: str) -> JsonResponse:
    """{"username", "ranks": {variant: {tier, tier_zh, tier_en, level, points, ranked_hands, rating}}}."""
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        return error(404, "no_user", "there is no such user")
    return JsonResponse({"username": user.get_username(), "ranks": ranks.ranks_of(user, request.user)})
