"""The create-table form: variant, base stake, timers, house rules, public or private, bots."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from common import settings_store
from games.engine.rulesets import MAX_BASE, VARIANT_IDS, get_ruleset
from games.engine.rulesets.options import OptionError, OptionRange
from games.rendering.labels import VARIANT_NAMES

OPTION_OUT_OF_RANGE = _("This rule set allows %(range)s.")

OPTION_LABELS: dict[str, Any] = {
    "escape_penalty": _("Escape penalty (× base stake)"),
    "rounds": _("Rounds (圈)"),
    "cap": _("Score cap (封顶)"),
    "exchange": _("Exchange tiles after the deal (开局换牌)"),
    "cuopai": _("Allow 搓牌 (swap a drawn tile)"),
    "cuopai_p": _("搓牌 chance"),
    "reserve": _("Keep a 海底捞月 reserve"),
    "swap_pung": _("Offer a pung from the wall (游戏中换牌)"),
    "swap_pung_p": _("游戏中换牌 chance"),
    "reserve_n": _("Reserve size"),
    "self_draw_multiplier": _("Self-draw multiplier 自摸 (value × this × base, 1–3)"),
}


# Timer presets (turn seconds, claim seconds): the speeds players know from other sites; "none"
# is for private practice tables only (docs/board.md, "Timers").
TIMER_PRESETS: dict[str, tuple[int, int]] = {
    "fast": (5, 4),
    "normal": (15, 8),
    "slow": (30, 15),
    "none": (0, 0),
}
TIMER_CHOICES = [
    ("fast", _("Fast: 5 s a turn, 4 s to claim")),
    ("normal", _("Normal: 15 s a turn, 8 s to claim")),
    ("slow", _("Slow: 30 s a turn, 15 s to claim")),
    ("none", _("No timer (private tables only)")),
    ("custom", _("Custom: the timers below")),
]


def preset_for(turn_seconds: int, claim_seconds: int) -> str:
    """The named preset these timers are, else "custom" (the admin chose other default timers)."""
    timers = (turn_seconds, claim_seconds)
    return next((name for name, pair in TIMER_PRESETS.items() if pair == timers and name != "none"), "custom")


def variant_choices() -> list[tuple[str, str]]:
    return [(v, f"{VARIANT_NAMES[v][0]} {VARIANT_NAMES[v][1]}") for v in VARIANT_IDS]


def option_field_name(variant: str, key: str) -> str:
    return f"opt_{variant}_{key}"


def _option_field(key: str, default: Any, allowed: OptionRange) -> forms.Field:
    """A field for one house rule. Its range is shown to the browser (min/max) but checked in
    `clean` by the chosen rule set only, so a hidden variant's fieldset never blocks the form."""
    label = OPTION_LABELS.get(key, key.replace("_", " "))
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, initial=default)
    if allowed.choices is not None:
        choices = [(c, str(c)) for c in allowed.choices]
        return forms.TypedChoiceField(
            label=label, required=False, initial=default, choices=choices, coerce=type(default)
        )
    bounds = {"min": allowed.minimum, "max": allowed.maximum}
    if isinstance(default, int):
        return forms.IntegerField(
            label=label, required=False, initial=default, widget=forms.NumberInput(bounds)
        )
    if isinstance(default, float):
        bounds["step"] = "any"
        return forms.FloatField(
            label=label, required=False, initial=default, widget=forms.NumberInput(bounds)
        )
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
    # Not required: an API-like post without it keeps the two timer fields (custom).
    # The initial preset is the one the admin's default timers match (__init__); left out of a
    # post: custom, the two timer fields as typed.
    timer = forms.ChoiceField(label=_("Timer"), choices=TIMER_CHOICES, initial="normal", required=False)
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
        help_text=_(
            "You sit down first; this many other seats get a bot. "
            "The winds follow the dealer, drawn at the first deal."
        ),
    )
    bot_level = forms.ChoiceField(
        label=_("Bot strength"),
        choices=[
            ("easy", _("Easy")),
            ("normal", _("Normal")),
            ("strong", _("Strong")),
            ("expert", _("Expert")),
        ],
        initial="normal",
        required=False,  # left out: the default level (normal)
        help_text=_(
            "Easy takes any win; normal also plays for valuable hands; "
            "strong also defends and passes a small win for a self-draw when that pays; "
            "expert also plays its best discards forward in sampled deals and keeps the one that scores best."
        ),
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
        self.fields["timer"].initial = preset_for(site.turn_seconds, site.claim_seconds)
        # the page's script sets the two timer fields when a preset is chosen (static/games/create_form.js)
        self.fields["timer"].widget.attrs["data-presets"] = json.dumps(TIMER_PRESETS)
        for variant in VARIANT_IDS:
            rules = get_ruleset(variant)
            for key, default in rules.default_options.items():
                field = _option_field(key, default, rules.option_ranges[key])
                site = settings_store.escape_multiplier(variant) if key == "escape_penalty" else None
                if site is not None and rules.option_ranges[key].admits(site):
                    field.initial = site  # what applies when left alone: the admin's multiplier
                self.fields[option_field_name(variant, key)] = field

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
        if get_ruleset(variant).even_stake and base is not None and base % 2:
            self.add_error("base", _("一花起胡 One-flower needs an even base stake."))
        self._apply_timer_preset(data)
        bots = data.get("bots")
        players = get_ruleset(variant).players
        if bots is not None and bots > players - 1:
            self.add_error("bots", _("This rule set has only %(n)d other seats.") % {"n": players - 1})
        self._check_options(variant)
        return data

    def _apply_timer_preset(self, data: dict[str, Any]) -> None:
        preset = data.get("timer")
        if preset not in TIMER_PRESETS:
            return  # custom: the two timer fields as typed
        if preset == "none" and data.get("public"):
            self.add_error("timer", _("Only a private table may play without a timer."))
            return
        data["turn_seconds"], data["claim_seconds"] = TIMER_PRESETS[preset]
        for name in ("turn_seconds", "claim_seconds"):
            self.errors.pop(name, None)  # a preset replaces whatever the custom fields held

    def _check_options(self, variant: str) -> None:
        """The chosen rule set's declared ranges (the same check as the API's)."""
        rules = get_ruleset(variant)
        try:
            rules.check_options(self.options(variant))
        except OptionError as e:
            allowed = rules.option_ranges.get(e.option or "")
            if e.option is None or allowed is None:
                self.add_error(None, e.message)
                return
            self.add_error(
                option_field_name(variant, e.option), OPTION_OUT_OF_RANGE % {"range": allowed.describe()}
            )

    def options(self, variant: str | None = None) -> dict[str, Any]:
        """The chosen variant's house rules that differ from its defaults."""
        variant = variant or self.cleaned_data["variant"]
        out: dict[str, Any] = {}
        for key, default in get_ruleset(variant).default_options.items():
            value = self.cleaned_data.get(option_field_name(variant, key))
            if value is None or value == "":
                continue
            value = type(default)(value)
            if value != default:
                out[key] = value
        return out


# The create-table fields a group's tables do not choose one by one: timers, bots, the pause.
TABLE_ONLY_FIELDS = ("timer", "turn_seconds", "claim_seconds", "pause_ms", "bots", "bot_level")


class TableRulesForm(CreateTableForm):
    """The create-table form's rule set, base stake and house rules with the same checks, and no
    timers or bots: what every table of a club or of a tournament plays by."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in TABLE_ONLY_FIELDS:
            del self.fields[name]

    def rules_data(self) -> dict[str, Any]:
        """The cleaned fields with the chosen rule set's house rules as one `options` dict, in
        place of the per-rule-set fields (the services' shape)."""
        per_rule_set = {option_field_name(v, k) for v in VARIANT_IDS for k in get_ruleset(v).default_options}
        data = {k: v for k, v in self.cleaned_data.items() if k not in per_rule_set}
        data["options"] = self.options()
        return data
