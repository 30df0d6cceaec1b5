"""HTML pages: a player's match history with the points chart, hand replays, leaderboards."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import history, ranks, replays
from games.engine.record import MAX_BYTES, RecordError
from games.engine.rulesets import VARIANT_IDS
from games.penalties import active_ban
from games.rendering.labels import VARIANT_NAMES

User = get_user_model()


def _viewer(request: HttpRequest) -> AbstractBaseUser | None:
    return request.user if request.user.is_authenticated else None


@require_GET
def user_history(request: HttpRequest, username: str) -> HttpResponse:
    """Every match the viewer may see, each hand's settlement, and the balance over time."""
    user = get_object_or_404(User, username=username, is_active=True)
    viewer = _viewer(request)
    own = viewer is not None and viewer.pk == user.pk
    context = {
        "player": user,
        "own": own,
        "matches": history.user_matches(user, viewer),
        "chart": history.chart(history.balance_series(user)) if own or (viewer and viewer.is_staff) else None,
        "ban": active_ban(user) if own else None,
        "ranks": ranks.ranks_of(user),  # tiers per rule set (issue 18)
    }
    return render(request, "games/history/user.html", context)


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a finished hand; a hand in progress (or a private one) is not found."""
    try:
        hand = replays.replayable_hand(pk, _viewer(request))
    except replays.ReplayRefused as e:
        raise Http404(e.code) from None
    data = replays.build(hand)
    viewer = _viewer(request)
    seats = hand.match.players or []
    # the board from the viewer's seat when they played this hand (as the live board), else seat 0
    bottom = seats.index(viewer.pk) if viewer is not None and viewer.pk in seats else 0
    page_data = replays.for_page(data, [uid is None for uid in seats], bottom)
    context = {"hand": hand, "data": page_data, "hands": [page_data]}
    return render(request, "games/history/replay.html", context)


@require_http_methods(["GET", "POST"])
def open_record(request: HttpRequest) -> HttpResponse:
    """The replay viewer for a record file the user uploads: checked by the engine exactly as
    `python -m games.engine replay` checks it, shown, and never stored."""
    context: dict = {"max_bytes": MAX_BYTES}
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("record")
        try:
            if upload is None:
                raise RecordError("no_file", _("Choose a record file (.json) to open."))
            if upload.size > MAX_BYTES:
                raise RecordError("too_large", _("The file is larger than 1 MB."))
            hands = [
                replays.for_page(data, replays.uploaded_bots(data))
                for data in replays.uploaded_replays(upload.read(MAX_BYTES + 1))
            ]
            context.update(hands=hands, data=hands[0], filename=upload.name)
        except RecordError as e:
            context["error"] = e.message
            status = 400
    return render(request, "games/history/open_record.html", context, status=status)


def variant_param(request: HttpRequest) -> str | None:
    variant = request.GET.get("variant") or None
    return variant if variant in VARIANT_IDS else None


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    variant = variant_param(request)
    board = history.leaderboard(variant)
    variants = [(v, VARIANT_NAMES.get(v, (v, v))) for v in VARIANT_IDS]
    return render(request, "games/history/leaderboard.html", {"board": board, "variants": variants})
