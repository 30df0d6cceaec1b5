"""Quick match: the queue lives in the database so every server process shares it.

`QueueEntry`: one per queued player (a user is in at most one queue: a unique user).
`QuickMatch`: one per table a queue started, with what the queue promised (stake, ranked, how
many hands before leaving stops being an escape). games.matchmaking.queue owns both.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.engine.rulesets import VARIANT_IDS

VARIANT_CHOICES_QUEUE = [(v, v) for v in VARIANT_IDS]


class QueueEntry(models.Model):
    """A player waiting in the queue (variant, base, ranked); `table` is set once seated."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES_QUEUE)
    level = models.CharField(max_length=12)  # "bronze", "silver", "gold", or the base as text
    base = models.PositiveIntegerField()
    ranked = models.BooleanField(default=False)
    rating = models.FloatField(default=0.0)  # the variant's ordinal (mu - 3 sigma) when joining
    bot_wait = models.PositiveSmallIntegerField(default=30)  # seconds before bots may fill; 0: never
    bots_at = models.DateTimeField(null=True, blank=True, db_index=True)  # joined + bot_wait
    joined = models.DateTimeField(db_index=True)
    seen = models.DateTimeField(db_index=True)  # the last poll of the queue page (or GET /api/queue/)
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    dropped = models.CharField(max_length=200, blank=True)  # why the queue let the player go

    class Meta:
        indexes = [models.Index(fields=["variant", "base", "ranked", "joined"], name="queue_key_joined")]

    def __str__(self) -> str:
        return f"{self.user} queued for {self.variant} {self.level}{' ranked' if self.ranked else ''}"


class QuickMatch(models.Model):
    """A table started by the queue. Leaving it between hands is free, as at any table: only
    leaving a hand in progress with another person at the table is an escape (games.moderation.penalties)."""

    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="quick_match")
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES_QUEUE)
    level = models.CharField(max_length=12)
    base = models.PositiveIntegerField()
    ranked = models.BooleanField(default=False)  # ranked queue and no bot at the table
    hands = models.PositiveSmallIntegerField()
    bots = models.PositiveSmallIntegerField(default=0)
    waited = models.FloatField(default=0.0)  # seconds the seated people waited, on average
    created = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"quick match at {self.table}"
