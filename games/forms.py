"""The create-table form: variant, base stake, timers, house rules, public or private, bots."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import settings_store
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.rendering import VARIANT_NAMES

MAX_BASE = 1000

OPTION_LABELS: dict[str, Any] = {
    "escape_penalty": _("Escape penalty (× base stake)"),
    "rounds": _("Rounds (圈)"),
    "cap": _("Score cap (封顶)"),
    "exchange": _("Exchange tiles after the deal (开局换牌)"),
    "cuopai": _("Allow 搓牌 (swap a drawn tile)"),
    "cuopai_p": _("搓牌 chance"),
    "reserve": _("Keep a 海底捞月 reserve"),
    "reserve_n": _("Reserve size"),
}


def variant_choices() -> list[tuple[str, str]]:
    return [(v, f"{VARIANT_NAMES[v][0]} {VARIANT_NAMES[v][1]}") for v in VARIANT_IDS]


def option_field_name(variant: str, key: str) -> str:
    return f"opt_{variant}_{key}"


def _option_field(key: str, default: Any) -> forms.Field:
    label = OPTION_LABELS.get(key, key.replace("_", " "))
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, initial=default)
    if isinstance(default, int):
        return forms.IntegerField(label=label, required=False, initial=default, min_value=0, max_value=1000)
    if isinstance(default, float):
        return forms.FloatField(label=label, required=False, initial=default, min_value=0, max_value=1)
    return forms.CharField(label=label, required=False, initial=default, max_length=50)


class CreateTableForm(forms.Form):
    variant = forms.ChoiceField(label=_("Rule set"), choices=variant_choices, initial="shanghai")
    base = forms.IntegerField(
        label=_("Base stake 底分"),
        min_value=1,
        max_value=MAX_BASE,
        initial=2,
        help_text=_("One-flower (一花起胡) tables need an even base stake."),
    )
    turn_seconds = forms.IntegerField(label=_("Turn timer (seconds)"), min_value=3, max_value=120, initial=15)
    claim_seconds = forms.IntegerField(label=_("Claim timer (seconds)"), min_value=2, max_value=60, initial=8)
    pause_ms = forms.IntegerField(
        label=_("Pause after each discard (ms)"),
        min_value=0,
        max_value=5000,
        initial=1000,
        help_text=_("The same short pause after every discard, so claim timing reveals nothing."),
    )
    bots = forms.IntegerField(
        label=_("Fill empty seats with bots"),
        min_value=0,
        max_value=3,
        initial=0,
        help_text=_("You take the East seat; this many other seats get a bot."),
    )
    bot_level = forms.ChoiceField(
        label=_("Bot strength"),
        choices=[("easy", _("Easy")), ("normal", _("Normal")), ("strong", _("Strong"))],
        initial="normal",
        required=False,  # left out: the default level (normal)
        help_text=_("Easy takes any win; normal also plays for valuable hands; strong also defends."),
    )
    public = forms.BooleanField(
        label=_("Public table (listed in the lobby)"),
        required=False,
        initial=True,
        help_text=_("A private table is reached only through its invite link."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        site = settings_store.current()  # the admin's default timers
        self.fields["turn_seconds"].initial = site.turn_seconds
        self.fields["claim_seconds"].initial = site.claim_seconds
        for variant in VARIANT_IDS:
            for key, default in get_ruleset(variant).default_options.items():
                self.fields[option_field_name(variant, key)] = _option_field(key, default)

    def option_groups(self) -> list[dict[str, Any]]:
        """Bound house-rule fields per variant, for the template's fieldsets."""
        return [
            {
                "variant": v,
                "name": f"{VARIANT_NAMES[v][0]} {VARIANT_NAMES[v][1]}",
                "fields": [self[option_field_name(v, k)] for k in get_ruleset(v).default_options],
            }
            for v in VARIANT_IDS
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        variant = data.get("variant")
        if not variant:
            return data
        base = data.get("base")
        if variant == "yihua" and base is not None and base % 2:
            self.add_error("base", _("一花起胡 One-flower needs an even base stake."))
        bots = data.get("bots")
        players = get_ruleset(variant).players
        if bots is not None and bots > players - 1:
            self.add_error("bots", _("This rule set has only %(n)d other seats.") % {"n": players - 1})
        return data

    def options(self) -> dict[str, Any]:
        """The chosen variant's house rules that differ from its defaults."""
        variant = self.cleaned_data["variant"]
        out: dict[str, Any] = {}
        for key, default in get_ruleset(variant).default_options.items():
            value = self.cleaned_data.get(option_field_name(variant, key))
            if value is None or value == "":
                continue
            value = type(default)(value)
            if value != default:
                out[key] = value
        return out
