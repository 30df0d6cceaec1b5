"""The organiser's form: every setting of a tournament (checked again, as the API's, by
games.tournaments.creating). The rule set, stake and house rules are the create-table form's
fields, with the same checks: a tournament's tables are tables."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Club
from games.tournaments.models import Tournament
from games.web.forms import TableRulesForm

LOCAL = "%Y-%m-%dT%H:%M"
EVENT_FIELDS = (
    "rounds",
    "hands_per_round",
    "wind_rounds",
    "seating",
    "duplicate",
    "starts_at",
    "signup_closes",
    "max_players",
    "checkin_minutes",
    "grace_seconds",
    "club",
    "public",
)


class DateTimeLocal(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format=LOCAL)


class TournamentForm(TableRulesForm):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=12, initial=2)
    hands_per_round = forms.IntegerField(label=_("Hands per round"), min_value=1, max_value=32, initial=4)
    wind_rounds = forms.IntegerField(
        label=_("Or wind rounds per round (0: count hands)"), min_value=0, max_value=4, initial=0
    )
    seating = forms.ChoiceField(label=_("Seating"), choices=Tournament.Seating.choices)
    duplicate = forms.BooleanField(
        label=_("Duplicate deals (every table plays the same walls)"), required=False
    )
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=DateTimeLocal(), input_formats=[LOCAL])
    signup_closes = forms.DateTimeField(
        label=_("Sign-up closes at"), widget=DateTimeLocal(), input_formats=[LOCAL], required=False
    )
    max_players = forms.IntegerField(label=_("Most players"), min_value=2, max_value=256, initial=16)
    checkin_minutes = forms.IntegerField(
        label=_("Check-in opens (minutes before the start)"), min_value=0, max_value=1440, initial=30
    )
    grace_seconds = forms.IntegerField(
        label=_("Grace for a lost player (seconds, then 托管)"), min_value=10, max_value=3600, initial=120
    )
    club = forms.ModelChoiceField(
        label=_("Club (its owner and admins run the event)"),
        queryset=Club.objects.none(),
        required=False,
        empty_label=_("No club"),
    )
    public = forms.BooleanField(
        label=_("Public (listed for everybody; off with a club: its members only)"),
        required=False,
        initial=True,
    )

    def __init__(
        self, *args: Any, clubs: QuerySet[Club] | None = None, staff: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["base"].help_text = _("Tournament points: no player's balance moves.")
        club = self.fields["club"]
        club.queryset = clubs if clubs is not None else Club.objects.none()
        if not club.queryset.exists():
            del self.fields["club"]
        elif not staff:  # a club's owner or admin runs that club's events only
            club.required, club.empty_label = True, None
            self.initial.setdefault("club", club.queryset.first())
        if not self.is_bound:
            start = (timezone.localtime() + timedelta(hours=1)).replace(second=0, microsecond=0)
            self.initial.setdefault("starts_at", start)

    def event_fields(self) -> list[forms.BoundField]:
        """The event's own settings, in the order the page shows them (after the rules)."""
        return [self[name] for name in EVENT_FIELDS if name in self.fields]

    def data_for_service(self) -> dict[str, Any]:
        data = self.rules_data()
        if not data.get("signup_closes"):
            data["signup_closes"] = data["starts_at"]
        return data
