"""The rows of a tournament: the event, its players, its rounds (with their committed salts) and
the tables each round seated. Standings are not stored: they are read from the hands
(games.tournaments.standings), so a hand settled by any process counts at once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.rulesets import VARIANT_IDS


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Seating(models.TextChoices):
        RANDOM = "random", _("random each round")
        SWISS = "swiss", _("Swiss, by standings")

    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=2000)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # A club's event: its owner and admins organise it, and with `public` off only its active
    # members see it (games.tournaments.access: can_organise, visible). Deleting the club leaves
    # the event with its organiser and players.
    club = models.ForeignKey(
        "games.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments"
    )
    variant = models.CharField(max_length=20, choices=[(v, v) for v in VARIANT_IDS])
    options = models.JSONField(default=dict, blank=True)  # house rules, checked as a table's
    base = models.PositiveIntegerField(default=1)  # the virtual stake: no account balance moves
    rounds = models.PositiveSmallIntegerField(default=2)
    hands_per_round = models.PositiveSmallIntegerField(default=4)
    wind_rounds = models.PositiveSmallIntegerField(default=0)  # >0: this many wind rounds instead
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.SWISS)
    duplicate = models.BooleanField(default=False)
    starts_at = models.DateTimeField(db_index=True)
    signup_opens = models.DateTimeField()
    signup_closes = models.DateTimeField()
    max_players = models.PositiveSmallIntegerField(default=16)
    checkin_minutes = models.PositiveSmallIntegerField(default=30)
    public = models.BooleanField(default=True)
    grace_seconds = models.PositiveIntegerField(default=120)  # the round's grace for a lost player
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    current_round = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name


class TournamentPlayer(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    signed_up = models.DateTimeField(auto_now_add=True)
    checked_in = models.DateTimeField(null=True, blank=True)
    disqualified = models.DateTimeField(null=True, blank=True)
    disqualified_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["signed_up", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class TournamentRound(models.Model):
    """One round. Its salt is drawn when the tournament is created and only its commitment
    (sha256 of the salt) is shown until the round is over (docs/tournaments.md)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveSmallIntegerField()
    salt = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def revealed(self) -> bool:
        return self.ended is not None


class TournamentTable(models.Model):
    """A table a round seated: `players` is the seating (user id, or None for a bot, per seat)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()  # 0, 1, …: the duplicate rotation's offset
    players = models.JSONField(default=list)
    paused = models.BooleanField(default=False)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"{self.round} table {self.number + 1}"
