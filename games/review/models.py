"""A kept review: one row per (hand, seat, reviewer version), computed once (docs/review.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class HandReview(models.Model):
    """The engine's review of one seat of one finished hand, as JSON, plus the few figures the
    profile's statistics add up (copied out so that a player's statistics are one query).

    `status` pending → ready (or failed): the row is created before the work starts, so a
    second request for the same review waits for the first instead of computing it again."""

    class Status(models.TextChoices):
        PENDING = "pending", _("preparing")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    version = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    data = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    # who played the seat (None: a bot) and the hand's variant and end: the statistics' keys
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    variant = models.CharField(max_length=20)
    hand_ended = models.DateTimeField(null=True, blank=True)
    # the seat's result in the hand and the review's sums (ready rows only)
    won = models.BooleanField(default=False)
    self_drawn = models.BooleanField(default=False)
    dealt_in = models.BooleanField(default=False)
    win_points = models.IntegerField(null=True, blank=True)
    rated = models.PositiveIntegerField(default=0)
    agreed = models.PositiveIntegerField(default=0)
    loss = models.FloatField(default=0.0)
    started = models.DateTimeField(auto_now_add=True)
    # when a clock process took the pending row's work (games.review.services.sweep); None: not yet
    claimed = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat", "version"], name="handreview_unique_version")
        ]
        indexes = [models.Index(fields=["user", "variant", "status"], name="handreview_stats")]

    def __str__(self) -> str:
        return f"review of {self.hand} seat {self.seat} ({self.version}, {self.status})"
