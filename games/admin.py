"""Basic registrations; the moderation admin (penalties, logs) is built on these later."""

from django.contrib import admin

from common.admin_base import ReadOnlyAdmin
from games.models import Hand, HandAction, Match, ScoreEntry, Seat, Table
from games.moderation.models import Penalty


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "user", "is_bot", "accepted", "connections", "auto", "left", "continue_choice"]
    readonly_fields = fields
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "variant", "owner", "base", "stake_state", "status", "version", "public", "created"]
    list_filter = ["variant", "status", "public"]
    search_fields = ["owner__username"]
    inlines = [SeatInline]
    readonly_fields = [
        *("version", "deadline", "deadline_version", "act_since", "pause_until", "match", "hand"),
        *("clock_failures", "clock_error", "clock_closed"),
    ]


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "started", "ended"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Read-only: a hand changes only through the services (under its table's lock, bumping
    the version that processes' snapshots rely on); a table is closed from the table admin."""

    list_display = ["id", "table", "match", "number", "status", "actions_count", "started", "ended"]
    list_filter = ["status"]

    def get_exclude(self, request: object, obj: Hand | None = None) -> list[str]:
        """The seed and the setup (which holds the salt) fix the wall: not even staff see them
        while the hand is played (docs/fairness.md); the replay reveals them afterwards."""
        return ["seed", "setup"] if obj is not None and obj.status == Hand.Status.PLAYING else []


@admin.register(HandAction)
class HandActionAdmin(ReadOnlyAdmin):
    """Append-only: the log is the truth, so nothing here can be added, edited or deleted."""

    list_display = ["hand", "seq", "seat", "action", "actor", "created"]
    list_filter = ["actor"]


@admin.register(ScoreEntry)
class ScoreEntryAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seat", "user", "delta", "balance_after", "created"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ["user", "table", "hand", "reason", "amount", "created"]
    list_filter = ["reason"]
