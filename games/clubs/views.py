"""The club pages: the list of your clubs, a new club, the invite, a club's page and the forms on
it. Every change is a POST handed to one service function (games.clubs.services); a refused
one comes back as a message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.clubs import services, stats
from games.clubs.forms import ClubForm
from games.clubs.membership import membership
from games.clubs.models import Club, ClubMember
from games.engine.rulesets import get_ruleset
from games.rendering.board import bot_name
from games.rendering.labels import VARIANT_NAMES
from games.table.errors import ServiceError


def _variant_name(variant: str) -> str:
    zh, en = VARIANT_NAMES[variant][0], VARIANT_NAMES[variant][1]
    return f"{zh} {en}"


def index(request: HttpRequest) -> HttpResponse:
    """Your clubs (and requests waiting for approval); the way to start one."""
    rows = []
    if request.user.is_authenticated:
        rows = list(
            ClubMember.objects.filter(user=request.user)
            .exclude(status=ClubMember.Status.BANNED)
            .select_related("club")
            .order_by("club__name")
        )
    return render(request, "games/clubs/index.html", {"memberships": rows})


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = services.create_club(
                request.user,
                data["name"],
                data["variant"],
                data["base"],
                description=data["description"],
                options=form.options(),
                policy=data["policy"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("clubs:club", pk=club.pk)
    return render(request, "games/clubs/create.html", {"form": form})


def join(request: HttpRequest, code: str) -> HttpResponse:
    """The invite link: the club's name and a Join button (signing in first if need be)."""
    club = Club.objects.filter(invite_code=code).first()
    if request.method == "POST" and request.user.is_authenticated:
        try:
            row = services.join_by_invite(request.user, code)
        except ServiceError as error:
            messages.error(request, error.message)
            return redirect("clubs:index")
        if row.status == ClubMember.Status.PENDING:
            messages.info(request, _("Your request to join was sent; an admin will answer it."))
            return redirect("clubs:index")
        messages.success(request, _("Welcome to %(club)s.") % {"club": row.club.name})
        return redirect("clubs:club", pk=row.club_id)
    mine = membership(request.user, club) if club is not None else None
    return render(
        request,
        "games/clubs/join.html",
        {"club": club, "code": code, "mine": mine, "variant": _variant_name(club.variant) if club else ""},
        status=200 if club is not None else 404,
    )


def _member_club(request: HttpRequest, pk: int) -> tuple[Club, ClubMember]:
    """The club and the viewer's row; anyone not an active member gets the 404 a private
    table gives (a club's existence is its members' business)."""
    club = get_object_or_404(Club, pk=pk)
    row = membership(request.user, club)
    if row is None or row.status != ClubMember.Status.ACTIVE:
        raise Http404("no such club")
    return club, row


def _table_rows(club: Club) -> list[dict[str, Any]]:
    rows = []
    for table in services.tables_of(club):
        seats = list(table.seats.all())
        rows.append(
            {
                "id": table.pk,
                "status": table.status,
                "taken": sum(1 for s in seats if not s.empty),
                "total": len(seats),
                "names": [
                    bot_name(s.index) if s.is_bot else s.user.get_username() for s in seats if not s.empty
                ],
            }
        )
    return rows


def _members(club: Club) -> dict[str, list[ClubMember]]:
    online = stats.online_user_ids(club)
    rows = list(ClubMember.objects.filter(club=club).select_related("user").order_by("joined"))
    order = {ClubMember.Role.OWNER: 0, ClubMember.Role.ADMIN: 1, ClubMember.Role.MEMBER: 2}
    recently = timezone.now() - timedelta(minutes=1)
    for row in rows:
        row.online = row.user_id in online
        row.just_seen = row.last_seen is not None and row.last_seen > recently
    active = [r for r in rows if r.status == ClubMember.Status.ACTIVE]
    active.sort(key=lambda r: (not r.online, order[r.role], r.user.get_username().lower()))
    return {
        "active": active,
        "pending": [r for r in rows if r.status == ClubMember.Status.PENDING],
        "banned": [r for r in rows if r.status == ClubMember.Status.BANNED],
    }


def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club, me = _member_club(request, pk)
    services.mark_seen(request.user, club)
    period = request.GET.get("period", "week")
    if period not in stats.PERIODS:
        period = "week"
    players = get_ruleset(club.variant).players
    periods = [("week", _("This week")), ("month", _("This month")), ("all", _("All time"))]
    invite = request.build_absolute_uri(reverse("clubs:join", args=[club.invite_code]))
    context = {
        "club": club,
        "me": me,
        "manages": me.manages,
        "is_owner": me.role == ClubMember.Role.OWNER,
        "variant": _variant_name(club.variant),
        "members": _members(club),
        "tables": _table_rows(club),
        "bot_choices": range(players),
        "default_bots": players - 1,
        "period": period,
        "periods": periods,
        "period_label": dict(periods)[period],
        "leaderboard": stats.leaderboard(club, period),
        "matches": stats.recent_matches(club),
        "tournaments": club.tournaments.order_by("status", "-starts_at")[:20],  # type: ignore[attr-defined]
        "invite": invite,
    }
    return render(request, "games/clubs/club.html", context)


def _done(request: HttpRequest, pk: int, change: Callable[[], Any], ok: str) -> HttpResponse:
    """Run one service call; its refusal becomes the page's message and nothing changed."""
    try:
        change()
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ok)
    return redirect("clubs:club", pk=pk)


@login_required
@require_POST
def open_table(request: HttpRequest, pk: int) -> HttpResponse:
    club, _me = _member_club(request, pk)
    try:
        bots = int(request.POST.get("bots", "0"))
    except ValueError:
        bots = -1  # refused by the service with its message
    try:
        table = services.open_table(request.user, club, bots)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("clubs:club", pk=pk)
    return redirect("games:table", pk=table.pk)


@login_required
@require_POST
def announcement(request: HttpRequest, pk: int) -> HttpResponse:
    club, _me = _member_club(request, pk)
    text = request.POST.get("announcement", "")
    return _done(request, pk, lambda: services.set_announcement(request.user, club, text), _("Saved."))


@login_required
@require_POST
def policy(request: HttpRequest, pk: int) -> HttpResponse:
    club, _me = _member_club(request, pk)
    chosen = request.POST.get("policy", "")
    return _done(request, pk, lambda: services.set_policy(request.user, club, chosen), _("Saved."))


@login_required
@require_POST
def new_invite(request: HttpRequest, pk: int) -> HttpResponse:
    club, _me = _member_club(request, pk)
    ok = _("A new invite link: the old one no longer works.")
    return _done(request, pk, lambda: services.reset_invite(request.user, club), ok)


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    club, _me = _member_club(request, pk)
    try:
        services.leave(request.user, club)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("clubs:club", pk=pk)
    messages.success(request, _("You left %(club)s.") % {"club": club.name})
    return redirect("clubs:index")


MEMBER_ACTIONS: dict[str, tuple[Callable[[Any, ClubMember], Any], Any]] = {
    "approve": (services.approve, gettext_lazy("Approved.")),
    "remove": (services.remove, gettext_lazy("Removed.")),
    "ban": (services.ban, gettext_lazy("Banned from the club.")),
    "admin": (lambda actor, m: services.appoint_admin(actor, m, True), gettext_lazy("Now an admin.")),
    "unadmin": (
        lambda actor, m: services.appoint_admin(actor, m, False),
        gettext_lazy("No longer an admin."),
    ),
    "owner": (services.transfer_ownership, gettext_lazy("The club has a new owner.")),
}


@login_required
@require_POST
def member_action(request: HttpRequest, pk: int, member: int, action: str) -> HttpResponse:
    club, _me = _member_club(request, pk)
    target = get_object_or_404(ClubMember, pk=member, club=club)
    if action not in MEMBER_ACTIONS:
        raise Http404("no such action")
    change, ok = MEMBER_ACTIONS[action]
    return _done(request, pk, lambda: change(request.user, target), str(ok))
