"""The new-club form: the create-table form's rule set, stake and house rules (the same fields
and checks), with a name, a description and the joining policy instead of timers and seats."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.clubs.models import Club
from games.web.forms import TableRulesForm


class ClubForm(TableRulesForm):
    name = forms.CharField(label=_("Club name"), max_length=60)
    description = forms.CharField(
        label=_("Description"), max_length=1000, required=False, widget=forms.Textarea({"rows": 3})
    )
    policy = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            (Club.Policy.OPEN, _("Anyone with the invite link joins at once")),
            (Club.Policy.APPROVAL, _("An admin approves each request")),
        ],
        initial=Club.Policy.OPEN,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["public"]  # a club's tables are its members' only
        self.fields["base"].help_text = _(
            "Every club table plays at this stake. One-flower (一花起胡) needs an even one."
        )
