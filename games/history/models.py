"""Ranks — visible tiers per variant that move with ranked results only (games.history.ranks) — and the
openskill ratings every hand moves (games.history.ratings)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.matchmaking.models import VARIANT_CHOICES_QUEUE


class Rank(models.Model):
    """A player's tier and rank points in one variant; absent means 新人 (Novice), 0 points."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ranks")
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES_QUEUE)
    tier = models.PositiveSmallIntegerField(default=0)
    points = models.IntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)  # ranked hands played
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "variant"], name="rank_unique_user_variant")]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} tier {self.tier} ({self.points})"


class RankChange(models.Model):
    """Append-only: how one ranked hand moved one player's rank."""

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="rank_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES_QUEUE)
    place = models.PositiveSmallIntegerField()
    tier_before = models.PositiveSmallIntegerField()
    points_before = models.IntegerField()
    tier_after = models.PositiveSmallIntegerField()
    points_after = models.IntegerField()
    delta = models.IntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "user"], name="rankchange_once_per_hand")]

    def __str__(self) -> str:
        return f"{self.user} {self.delta:+d} in {self.hand}"


class Rating(models.Model):
    """A player's openskill (Plackett-Luce) rating in one variant, updated after every hand."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES_QUEUE)
    mu = models.FloatField()
    sigma = models.FloatField()
    hands = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "variant"], name="rating_unique_user_variant")]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """The conservative skill shown on the leaderboard: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RecordUpload(models.Model):
    """One record opened in the viewer (/replays/open/): counted per account and per address for
    the hourly limits (games.history.views); old rows are only counted, never read again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=45)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"record opened by {self.user_id} from {self.address}"
