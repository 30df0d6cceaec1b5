"""Quick match pages: `/play/` (choose and join, then the waiting page), its polled status
fragment and leaving. The lobby's Quick match button posts to `/play/` too. All the queue's
logic is in games.matchmaking.queue; these views only translate forms and redirects."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from games.matchmaking import queue
from games.matchmaking.models import QueueEntry
from games.matchmaking.rules import DEFAULT_BOT_WAIT, LEVELS, QueueError
from games.rendering.labels import VARIANT_NAMES

LEVEL_NAMES = {"bronze": _("Bronze 铜"), "silver": _("Silver 银"), "gold": _("Gold 金")}
BOT_WAIT_NAMES = {
    15: _("15 s"),
    30: _("30 s"),
    60: _("1 min"),
    120: _("2 min"),
    0: _("never (keep waiting)"),
}


def level_choices() -> list[tuple[str, str]]:
    return [(key, f"{LEVEL_NAMES[key]} · {_('base')} {base}") for key, base in LEVELS.items()]


class QuickMatchForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Rule set"), choices=[(v, f"{zh} {en}") for v, (zh, en) in VARIANT_NAMES.items()]
    )
    level = forms.ChoiceField(label=_("Stake level"), choices=level_choices, initial="bronze")
    ranked = forms.BooleanField(label=_("Ranked"), required=False)
    bot_wait = forms.TypedChoiceField(
        label=_("Fill with bots after"),
        choices=list(BOT_WAIT_NAMES.items()),
        coerce=int,
        initial=DEFAULT_BOT_WAIT,
    )


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """GET: the form, or the waiting page while queued. POST: join the chosen queue."""
    if request.method == "POST":
        return _join(request)
    status = queue.poll(request.user)
    if "table" in status:
        return redirect("games:table", pk=status["table"])
    if status.get("dropped"):
        messages.warning(request, status["dropped"])
    form = QuickMatchForm(initial={"variant": request.GET.get("variant", "shanghai")})
    shown = _shown(status) if status.get("queued") else status
    return render(request, "games/play.html", {"form": form, "status": shown})


def _join(request: HttpRequest) -> HttpResponse:
    form = QuickMatchForm(request.POST)
    if not form.is_valid():
        return render(request, "games/play.html", {"form": form, "status": {"queued": False}}, status=400)
    data = form.cleaned_data
    try:
        queue.join(
            request.user, data["variant"], data["level"], ranked=data["ranked"], bot_wait=data["bot_wait"]
        )
    except QueueError as e:
        messages.error(request, e.message)
        if e.code == "already_seated":
            return redirect("games:lobby")
    return redirect("games:play")


@login_required
@require_GET
def play_status(request: HttpRequest) -> HttpResponse:
    """The waiting page polls this every 2 s: it keeps the player in the queue, matches, and
    sends the browser to the table once seated."""
    status = queue.poll(request.user)
    if "table" in status:
        url = reverse("games:table", kwargs={"pk": status["table"]})
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if not status.get("queued"):
        url = reverse("games:play")
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return render(request, "games/_queue_status.html", {"status": _shown(status)})


def _shown(status: dict[str, Any]) -> dict[str, Any]:
    """The status with the names a person reads."""
    zh, en = VARIANT_NAMES[status["variant"]]
    return {**status, "variant_zh": zh, "variant_en": en, "level_name": LEVEL_NAMES.get(status["level"], "")}


@login_required
@require_http_methods(["GET", "POST"])
def play_leave(request: HttpRequest) -> HttpResponse:
    """POST leaves the queue. A GET (a bookmark, a typed address) changes nothing: it is sent to
    the quick match page, which has the Leave button while the player is queued."""
    if request.method == "GET":
        queued = QueueEntry.objects.filter(user=request.user).exists()
        if queued:
            messages.info(request, _("To leave the queue, press “Leave the queue” below."))
        else:
            messages.info(request, _("You are not in the quick match queue."))
        return redirect("games:play")
    if queue.leave(request.user):
        messages.info(request, _("You left the queue."))
    return redirect("games:lobby")
