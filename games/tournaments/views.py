"""Tournament pages: the list, the organiser's form, a tournament (sign-up, check-in, its rounds
and tables, standings, the organiser's controls), its results with every player's games, and its
record (every hand in one file). Plain Django views over the services."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engine.record import match_record
from games.history import queries, replays
from games.rendering.labels import VARIANT_NAMES
from games.tournaments import creating, organising, services
from games.tournaments.access import TournamentError, can_organise, managed_clubs, visible_tournaments
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable
from games.tournaments.standings import finished_hands, standings


def _viewer(request: HttpRequest) -> AbstractBaseUser | None:
    return request.user if request.user.is_authenticated else None


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament if the viewer may see it; else 404, as for a private table."""
    tournament = visible_tournaments(_viewer(request)).filter(pk=pk).first()
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = visible_tournaments(_viewer(request)).order_by("status", "starts_at")
    context = {"tournaments": rows, "may_create": can_organise(_viewer(request))}
    return render(request, "games/tournaments/list.html", context)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    if not can_organise(request.user):
        raise Http404("not an organiser")
    clubs = managed_clubs(request.user)
    initial = {"club": request.GET["club"]} if request.GET.get("club") else {}
    form = TournamentForm(request.POST or None, clubs=clubs, staff=request.user.is_staff, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = creating.create(request.user, form.data_for_service())
        except TournamentError as e:
            form.add_error(None, e.message)
        else:
            return redirect("tournaments:detail", pk=tournament.pk)
    return render(request, "games/tournaments/create.html", {"form": form})


def _usernames(ids: set[int]) -> dict[int, str]:
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def _tables(tournament: Tournament) -> list[dict[str, Any]]:
    rows = TournamentTable.objects.filter(round__tournament=tournament).select_related("round", "table")
    rows = list(rows.order_by("-round__number", "number"))
    names = _usernames({p for tt in rows for p in tt.players if p is not None})
    return [
        {
            "row": tt,
            "round": tt.round.number,
            "players": [names.get(p, "?") if p is not None else None for p in tt.players],
            "ids": tt.players,
        }
        for tt in rows
    ]


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = visible_tournament(request, pk)
    viewer = _viewer(request)
    now = timezone.now()
    me = TournamentPlayer.objects.filter(tournament=tournament, user_id=viewer.pk).first() if viewer else None
    tables = _tables(tournament)
    current = [t for t in tables if t["round"] == tournament.current_round]
    mine = next((t for t in current if viewer and viewer.pk in t["ids"]), None)
    scheduled = tournament.status == Tournament.Status.SCHEDULED
    context = {
        "t": tournament,
        "variant": " ".join(VARIANT_NAMES.get(tournament.variant, (tournament.variant,))),
        "me": me,
        "organiser": can_organise(viewer, tournament),
        "signup_open": scheduled and tournament.signup_opens <= now < tournament.signup_closes,
        "checkin_opens": services.checkin_opens(tournament),
        "checkin_open": scheduled and services.checkin_opens(tournament) <= now < tournament.starts_at,
        "entrants": TournamentPlayer.objects.filter(tournament=tournament).count(),
        "rounds": tournament.round_rows.all(),
        "tables": current,
        "my_table": mine,
        "standings": standings(tournament),
    }
    return render(request, "games/tournaments/detail.html", context)


@require_GET
def results(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings and every player's games, each hand linked to its replay (with its review)."""
    tournament = visible_tournament(request, pk)
    viewer = _viewer(request)
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for hand in finished_hands(tournament):
        if queries.behind_the_delay(hand, viewer):
            continue  # still behind the spectators' delay: not shown anywhere yet
        paid = (hand.settlement or {}).get("payments") or []
        for seat, user_id in enumerate(hand.match.players or []):
            if user_id is not None and seat < len(paid):
                games[user_id].append(
                    {"hand": hand, "round": hand.table.tournament_table.round.number, "points": paid[seat]}
                )
    rows = standings(tournament)
    context = {
        "t": tournament,
        "standings": rows,
        "games": [(row, games.get(row.user_id, [])) for row in rows],
        "rounds": tournament.round_rows.all(),
    }
    return render(request, "games/tournaments/results.html", context)


@require_GET
def record(request: HttpRequest, pk: int) -> JsonResponse:
    """Every finished hand of the tournament in one record file (docs/record-format.md): the
    header names the rounds with their commitments and, once over, their salts."""
    tournament = visible_tournament(request, pk)
    viewer = _viewer(request)
    hands = [h for h in finished_hands(tournament) if not queries.behind_the_delay(h, viewer)]
    header = {
        "tournament": tournament.pk,
        "name": tournament.name,
        "variant": tournament.variant,
        "duplicate": tournament.duplicate,
        "rounds": [
            {"number": r.number, "commitment": r.commitment, "salt": r.salt if r.revealed else None}
            for r in tournament.round_rows.all()
        ],
        "standings": [row.as_json() for row in standings(tournament)],
    }
    body = match_record(header, [replays.hand_record(h) for h in hands])
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response


# --- actions (POST, then back to the tournament page with a message) ------------------------------


def _act(request: HttpRequest, pk: int, action: Callable[[], Any], done: str) -> HttpResponse:
    visible_tournament(request, pk)
    try:
        action()
    except TournamentError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def sign_up(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.sign_up(pk, request.user), _("You are signed up."))


@login_required
@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.check_in(pk, request.user), _("You are checked in."))


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, lambda: services.withdraw(pk, request.user), _("You have withdrawn."))


def _table_id(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("table", ""))
    except ValueError:
        raise Http404("no such table") from None


@login_required
@require_POST
def table_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    table_id = _table_id(request)
    calls = {
        "pause": (organising.pause_table, _("The table is paused.")),
        "resume": (organising.resume_table, _("The table plays on.")),
        "end": (organising.end_table, _("The round is over at that table.")),
    }
    if action not in calls:
        raise Http404("no such action")
    call, done = calls[action]
    return _act(request, pk, lambda: call(pk, request.user, table_id), done)


@login_required
@require_POST
def disqualify(request: HttpRequest, pk: int) -> HttpResponse:
    username = request.POST.get("username", "")
    reason = request.POST.get("reason", "")
    done = _("%(name)s is disqualified.") % {"name": username}
    return _act(request, pk, lambda: organising.disqualify(pk, request.user, username, reason), done)
