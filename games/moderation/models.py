"""Moderation's rows: penalties and their reversals, bans, the admin's audit log and the site
settings an admin changes without a deploy (SiteSettings, read through common.settings_store).
Registered with the app by games.models."""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SiteSettings(models.Model):
    """The one row of settings an admin may change without a deploy (read via common.settings_store)."""

    starting_balance = models.PositiveIntegerField(_("starting balance"), default=1000)
    escape_multiplier = models.PositiveSmallIntegerField(_("escape multiplier (× base)"), default=50)
    two_player_escape_multiplier = models.PositiveSmallIntegerField(
        _("two-player escape multiplier (× base)"), default=13
    )
    turn_seconds = models.PositiveSmallIntegerField(_("default turn timer (s)"), default=15)
    claim_seconds = models.PositiveSmallIntegerField(_("default claim timer (s)"), default=8)
    grace_seconds = models.PositiveIntegerField(_("grace period (s)"), default=120)
    rating_min_hands = models.PositiveIntegerField(_("hands before a player is ranked"), default=10)
    spectator_delay_seconds = models.PositiveIntegerField(
        _("spectator delay at quick-match tables (s)"), default=180
    )  # games.rendering.spectator_delay
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("site settings")
        verbose_name_plural = _("site settings")

    def __str__(self) -> str:
        return str(_("site settings"))

    def save(self, *args: object, **kwargs: object) -> None:
        self.pk = 1  # a singleton
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class AdminAuditLog(models.Model):
    """Append-only: one row per admin save, delete or action (games.moderation.admin_audit)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=60)
    model = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} {self.action} {self.model} {self.object_repr}"


class Penalty(models.Model):
    """A penalty charged to a player; reversed only by an appended PenaltyReversal (an audit trail)."""

    class Reason(models.TextChoices):
        ESCAPE = "escape", _("left mid-hand")
        DISCONNECT = "disconnect", _("disconnected past the grace period")
        FALSE_WIN = "false_win", _("false win")
        MANUAL = "manual", _("set by an admin")

    ESCAPES = (Reason.ESCAPE, Reason.DISCONNECT)

    # Null for a manual penalty that is not about a hand.
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    hand = models.ForeignKey(
        "games.Hand", null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="penalties")
    reason = models.CharField(max_length=12, choices=Reason.choices)
    amount = models.BigIntegerField()
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = _("penalties")
        # The escape penalty is charged exactly once per player and hand (RULES §1.8).
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "user"],
                condition=models.Q(reason__in=["escape", "disconnect"]),
                name="penalty_escape_once_per_hand",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.reason} {self.amount} ({self.hand})"

    @property
    def reversed(self) -> bool:
        return hasattr(self, "reversal")


class PenaltyReversal(models.Model):
    """Append-only: undoes a Penalty with a compensating ledger row; the penalty itself stays."""

    penalty = models.OneToOneField(Penalty, on_delete=models.CASCADE, related_name="reversal")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"reversal of {self.penalty}"


# How an escape ban stores its reason (games.moderation.penalties.escalate_ban): read back by Ban.reason_text.
ESCAPE_BAN_REASON = re.compile(r"(\d+) escape\(s\) in 24 hours")


class Ban(models.Model):
    """A temporary ban from sitting down: from repeated escapes (games.moderation.penalties) or by
    an admin."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans")
    starts = models.DateTimeField()
    ends = models.DateTimeField(db_index=True)
    reason = models.CharField(max_length=200, blank=True)
    manual = models.BooleanField(default=False)
    penalty = models.ForeignKey(Penalty, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-ends"]

    def __str__(self) -> str:
        # local time, as the admin's lists show it (a message in UTC read as the wrong hour)
        return f"{self.user} banned until {timezone.localtime(self.ends):%Y-%m-%d %H:%M}"

    @property
    def reason_text(self) -> str:
        """The reason in the reader's language. An escape ban stores its reason in English (the
        clock that writes it has no reader); an admin's reason is shown as the admin wrote it."""
        if self.manual:
            return self.reason or gettext("banned")
        escapes = ESCAPE_BAN_REASON.fullmatch(self.reason)
        if escapes is None:
            return self.reason or gettext("banned")
        return gettext("%(count)d escape(s) in 24 hours") % {"count": int(escapes[1])}
