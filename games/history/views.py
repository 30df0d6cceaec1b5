"""HTML pages: a player's match history with the points chart, hand replays, leaderboards."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from common import client_address
from games.engine.record import MAX_BYTES, RecordError
from games.engine.rulesets import VARIANT_IDS
from games.history import leaderboard as leaderboards
from games.history import queries, ranks, replays
from games.history.models import RecordUpload
from games.moderation.penalties import active_ban
from games.rendering.labels import VARIANT_NAMES
from games.review.stats import profile_stats
from games.review.uploaded import remember

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
        "matches": queries.user_matches(user, viewer),
        "chart": queries.chart(queries.balance_series(user)) if own or (viewer and viewer.is_staff) else None,
        "ban": active_ban(user) if own else None,
        "ranks": ranks.ranks_of(user, viewer),  # tiers per rule set, as the viewer may see them
        "review_stats": profile_stats(user, viewer),  # over the player's reviewed hands
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


class Workers:
    """At most `size` records are opened at once in this process, each on a thread of its own:
    a big record's seconds of replay neither run on the thread Django's other views share under
    ASGI nor pile up (a request finding every place taken is told to come back)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.busy = 0

    async def run(self, work: Callable[[], Any]) -> Any:
        """The work's result, or `BUSY` when every place is taken."""
        if self.busy >= self.size:
            return BUSY
        self.busy += 1
        try:
            return await sync_to_async(work, thread_sensitive=False)()
        finally:
            self.busy -= 1


BUSY = object()
RECORD_WORKERS = Workers(getattr(settings, "RECORD_UPLOADS_AT_ONCE", 2))


def _upload_refusal(user: AbstractBaseUser, address: str) -> str | None:
    """Why this upload may not run now (the hourly limits), else None — and it is counted."""
    since = timezone.now() - timedelta(hours=1)
    with transaction.atomic():
        # the account's row locked: two uploads at once are counted one after the other
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
        recent = RecordUpload.objects.filter(created__gt=since)
        if recent.filter(user_id=user.pk).count() >= settings.RECORD_UPLOADS_PER_USER_PER_HOUR:
            return _("You have opened many records this hour; try again later.")
        if recent.filter(address=address).count() >= settings.RECORD_UPLOADS_PER_ADDRESS_PER_HOUR:
            return _("Many records were opened from your address this hour; try again later.")
        RecordUpload.objects.create(user_id=user.pk, address=address)
    return None


async def open_record(request: HttpRequest) -> HttpResponse:
    """The replay viewer for a record file the user uploads: checked by the engine exactly as
    `python -m games.engine replay` checks it, shown, and never stored. Signed-in people only,
    within the hourly limits, a bounded number of hands, off the request thread (`Workers`)."""
    if request.method not in ("GET", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    user = await request.auser()
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    context: dict = {"max_bytes": MAX_BYTES}
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("record")
        try:
            if upload is None:
                raise RecordError("no_file", _("Choose a record file (.json) to open."))
            if upload.size > MAX_BYTES:
                raise RecordError("too_large", _("The file is larger than 1 MB."))
            refusal = await sync_to_async(_upload_refusal)(user, client_address.of_request(request.META))
            if refusal is not None:
                context["error"] = refusal
                return await _render_record(request, context, 429)
            raw = upload.read(MAX_BYTES + 1)
            hands = await RECORD_WORKERS.run(lambda: _opened_hands(raw))
            if hands is BUSY:
                context["error"] = _("The server is opening other records; try again in a minute.")
                response = await _render_record(request, context, 503)
                response["Retry-After"] = "60"
                return response
            digest = await sync_to_async(remember)(raw)  # for the review links below the viewer
            context.update(hands=hands, data=hands[0], filename=upload.name, digest=digest)
        except RecordError as e:
            context["error"] = e.message
            if e.code == "too_many_hands":
                limit = settings.RECORD_MAX_HANDS
                context["error"] = _("A record of at most %(n)d hands can be opened here.") % {"n": limit}
            status = 400
    return await _render_record(request, context, status)


def _opened_hands(raw: bytes) -> list[dict[str, Any]]:
    """Every hand of an uploaded record as the stored replay's viewer shows it (the replay is the
    work a worker bounds; naming and wording are cheap beside it)."""
    return [
        replays.for_page(data, replays.uploaded_bots(data))
        for data in replays.uploaded_replays(raw, settings.RECORD_MAX_HANDS)
    ]


async def _render_record(request: HttpRequest, context: dict, status: int) -> HttpResponse:
    return await sync_to_async(render)(request, "games/history/open_record.html", context, status=status)


def variant_param(request: HttpRequest) -> str | None:
    variant = request.GET.get("variant") or None
    return variant if variant in VARIANT_IDS else None


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    variant = variant_param(request)
    board = leaderboards.leaderboard(variant)
    variants = [(v, VARIANT_NAMES.get(v, (v, v))) for v in VARIANT_IDS]
    return render(request, "games/history/leaderboard.html", {"board": board, "variants": variants})
