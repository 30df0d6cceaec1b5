"""The organiser's form: every setting of a tournament (checked again, as the API's, by
games.tournaments.creating)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Club
from games.tournaments.models import Tournament
from games.web.forms import variant_choices

LOCAL = "%Y-%m-%dT%H:%M"


class DateTimeLocal(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format=LOCAL)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    variant = forms.ChoiceField(label=_("Rule set"), choices=variant_choices)
    base = forms.IntegerField(label=_("Base stake (virtual: no balance moves)"), min_value=1, initial=1)
    options = forms.CharField(
        label=_("House rules (as a table's, JSON; empty: the rule set's own)"),
        required=False,
        widget=forms.TextInput(attrs={"placeholder": '{"cap": 8}'}),
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

    def __init__(self, *args: Any, clubs: QuerySet[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()
        if clubs is None or not clubs.exists():
            del self.fields["club"]
        if not self.is_bound:
            start = (timezone.localtime() + timedelta(hours=1)).replace(second=0, microsecond=0)
            self.initial.setdefault("starts_at", start)

    def clean_options(self) -> dict[str, Any]:
        text = self.cleaned_data.get("options", "").strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError:
            raise forms.ValidationError(_("House rules must be a JSON object.")) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("House rules must be a JSON object."))
        return value

    def data_for_service(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        if not data.get("signup_closes"):
            data["signup_closes"] = data["starts_at"]
        return data
