"""HTML views: home, lobby (with its live fragment), create a table, the table page.

Every change to a table goes through games.table (the table page sends actions over
its websocket); these views only read, except `create_table`, which calls its commands.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common import settings_store
from games.engine.bots import DEFAULT_LEVEL
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.engine.tiles import WIND_ZH, name, seat_wind
from games.matchmaking.views import level_choices as quick_levels
from games.models import Table
from games.rendering import spectator_delay
from games.rendering.board import board_model
from games.rendering.fragments import lobby_groups
from games.rendering.labels import VARIANT_NAMES, round_label
from games.rendering.presenters import table_context
from games.social import chat
from games.table import access, commands, opening
from games.table.errors import ServiceError
from games.web.forms import CreateTableForm

LOBBY_LIMIT = 200


def home(request: HttpRequest) -> HttpResponse:
    """Greets visitors and links to the lobby ("Welcome" right after signing up, else "Welcome back")."""
    return render(
        request, "games/home.html", {"just_signed_up": request.session.pop("just_signed_up", False)}
    )


def api_docs(request: HttpRequest) -> HttpResponse:
    """What a program needs to play here: tokens, creating a table, the socket, history."""
    return render(request, "games/api_docs.html")


@require_GET
def fairness(request: HttpRequest) -> HttpResponse:
    """How a player checks a deal: the commitment shown from the deal on, the reveal after the
    hand, and the commands that check one against the other (docs/fairness.md for developers)."""
    example = reverse("history:api_hand_record", args=[0]).replace("/0/", "/ID/")  # ID: the hand's number
    record_url = request.build_absolute_uri(example)
    return render(request, "games/fairness.html", {"record_url": record_url})


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on every site: the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)


# --- lobby ------------------------------------------------------------------------------------


def _lobby_row(table: Table) -> dict[str, Any]:
    seats = list(table.seats.all())
    taken = [s for s in seats if not s.empty]
    return {
        "id": table.pk,
        "variant": table.variant,
        "owner": table.owner.get_username() if table.owner else "",
        "base": table.base,
        "stake_state": table.stake_state,
        "escape": settings_store.escape_multiplier_for_render(table),  # × base: a joiner sees it first
        "seats_taken": len(taken),
        "seats_total": len(seats),
        "free": len(seats) - len(taken),
        "spectators": max(table.spectators, 0),
        "status": table.status,
        "public": table.public,
        # the match's place while it plays: 东风圈 第2局 (the hand running, else the last one)
        "round": round_label(name(table.round_wind), table.hand.round_hand if table.hand else 1)
        if table.status == Table.Status.PLAYING
        else None,
        "seats": [
            {
                "index": s.index,
                # the wind the board shows for this seat (it follows the dealer), and the
                # bots' table names: one name per seat everywhere
                "wind_zh": WIND_ZH[name(seat_wind(s.index, table.dealer, len(seats)))],
                "name": (
                    f"机器人 {s.index + 1}" if s.is_bot else s.user.get_username() if s.user_id else None
                ),
                "is_bot": s.is_bot,
            }
            for s in seats
        ],
    }


def lobby_tables(user: Any = None) -> list[dict[str, Any]]:
    """Open public tables, plus private ones where `user` sits or that they own: the newest
    first, at most `LOBBY_TABLES_PER_OWNER` of any one owner (all of the viewer's own), so
    that one account's tables cannot push everybody else's out of the list."""
    signed_in = user is not None and user.is_authenticated
    open_tables = Table.objects.exclude(status=Table.Status.CLOSED)
    ranked = open_tables.filter(public=True).annotate(
        owner_rank=Window(RowNumber(), partition_by=[F("owner_id")], order_by=F("created").desc())
    )
    newest = ranked.filter(owner_rank__lte=settings.LOBBY_TABLES_PER_OWNER).order_by("-created")
    shown = Q(pk__in=list(newest.values_list("pk", flat=True)[:LOBBY_LIMIT]))
    if signed_in:
        shown |= Q(seats__user=user) | Q(owner=user)
    tables = (
        open_tables.filter(shown)
        .distinct()
        .select_related("owner", "hand")
        .prefetch_related("seats__user")
        .order_by("-created")[:LOBBY_LIMIT]
    )
    return [_lobby_row(t) for t in tables]


def _lobby_filters(request: HttpRequest) -> tuple[str, bool]:
    variant = request.GET.get("variant", "")
    if variant not in VARIANT_IDS:
        variant = ""
    return variant, request.GET.get("free") in ("1", "on", "true")


def _lobby_context(request: HttpRequest) -> dict[str, Any]:
    variant, free_only = _lobby_filters(request)
    tables = lobby_tables(request.user)
    return {
        "groups": lobby_groups(tables, variant, free_only),
        "variant": variant,
        "free_only": free_only,
        "count": len(tables),
        "variants": [(v, *names) for v, names in VARIANT_NAMES.items()],
        "quick_levels": quick_levels(),  # the Quick match button (games.matchmaking.views)
    }


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", _lobby_context(request))


@require_GET
def lobby_fragment(request: HttpRequest) -> HttpResponse:
    """The table list alone, polled by the lobby page (hx-trigger every few seconds)."""
    return render(request, "games/_lobby_tables.html", _lobby_context(request))


# --- create a table ---------------------------------------------------------------------------


@login_required
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = _create_and_sit(request.user, form)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("games:table", pk=table.pk)
    return render(request, "games/create_table.html", {"form": form})


def _create_and_sit(user: Any, form: CreateTableForm) -> Table:
    """Create the table, seat its creator in East, propose the stake, add the asked-for bots."""
    data = form.cleaned_data
    with transaction.atomic():
        table = opening.create_table(
            user,
            data["variant"],
            public=data["public"],
            options=form.options(),
            turn_seconds=data["turn_seconds"],
            claim_seconds=data["claim_seconds"],
            min_pause_ms=data["pause_ms"],
        )
        commands.sit(table.pk, user, 0)
        commands.set_stake(table.pk, user, data["base"])
        for index in range(1, 1 + data["bots"]):
            commands.add_bot(table.pk, user, index, data.get("bot_level") or DEFAULT_LEVEL)
    return table


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """One click from the lobby: a private table for you and bots in every other seat, the hand
    started. No timer (you practise at your own pace); see docs/board.md, "Practice"."""
    variant = request.POST.get("variant", "")
    if variant not in VARIANT_NAMES:
        messages.error(request, _("Choose a rule set to practise."))
        return redirect("games:lobby")
    try:
        with transaction.atomic():
            table = opening.create_table(
                request.user, variant, public=False, turn_seconds=0, claim_seconds=0, min_pause_ms=500
            )
            commands.sit(table.pk, request.user, 0)
            commands.set_stake(table.pk, request.user, PRACTICE_BASE[variant])
            for index in range(1, table.players):
                commands.add_bot(table.pk, request.user, index)
            commands.start_hand(table.pk, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    return redirect("games:table", pk=table.pk)


# The smallest stake each rule set allows (一花起胡: an even one).
PRACTICE_BASE = {v: 2 if get_ruleset(v).even_stake else 1 for v in VARIANT_NAMES}


# --- the table page ---------------------------------------------------------------------------


def _may_see(request: HttpRequest, table: Table) -> bool:
    access.remember_invite(table, request.session, request.GET.get("invite"))
    return access.may_watch(table, request.user, request.session)


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk)
    if not _may_see(request, table):
        raise Http404("no such table")
    user = request.user if request.user.is_authenticated else None
    context = spectator_delay.for_viewer(table.pk, user, table_context(table, user))
    if context["viewer"]["seat"] is None:
        # this page's socket counts its viewer as a spectator as soon as it opens: count them
        # already, rather than show 0 until the first frame
        context["table"] = {**context["table"], "spectators": context["table"]["spectators"] + 1}
    model = board_model(context)
    ws_path = f"/ws/tables/{table.pk}/"
    delay = context["table"].get("delay_s") or 0  # the chat is as far behind as the board
    chat_panel = chat.board_context(table, user, context["viewer"]["seat"], delay)
    page = {**model, **chat_panel, "ws_path": ws_path, "oob": False, "club_id": table.club_id}
    return render(request, "games/table.html", page)
