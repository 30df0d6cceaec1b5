"""The site's own rows: the admin's settings (SiteSettings), the server processes and the sockets
they count (games.presence), and the admin's audit log. Registered with the app by games.models."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
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
    )  # games.spectator_delay
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("site settings")
        verbose_name_plural = _("site settings")

    def __str__(self) -> str:
        return str(_("site settings"))

    def save(self, *args: object, **kwargs: object) -> None:
        self.pk = 1  # a singleton
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class ServerStart(models.Model):
    """Appended when a server process starts, or is given up for dead (games.presence):
    disconnects from before it are nobody's fault."""

    started = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"server start {self.started:%Y-%m-%d %H:%M:%S}"


class ServerProcess(models.Model):
    """A socket server process, vouching by its heartbeat for the sockets it counts (OpenSocket).
    When it dies without closing them (`kill -9`, a lost machine) its heartbeat stops and the
    clock takes its sockets out of the counts (games.presence)."""

    host = models.CharField(max_length=200)  # "hostname pid", for admins
    started = models.DateTimeField()
    seen = models.DateTimeField(db_index=True)  # its last heartbeat

    class Meta:
        verbose_name = _("server process")
        verbose_name_plural = _("server processes")

    def __str__(self) -> str:
        return f"{self.host} (seen {timezone.localtime(self.seen):%H:%M:%S})"


class OpenSocket(models.Model):
    """A socket counted in a seat's `connections` (`seated`) or its table's `spectators`, and
    the process that holds it: deleted when it closes, or when its process is found dead."""

    # No constraint: a process found dead is deleted first, and a socket it opened meanwhile
    # is still closed (and deleted) by it, or dropped by the clock as an orphan.
    process = models.ForeignKey(
        ServerProcess, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+")
    seated = models.BooleanField()
    opened = models.DateTimeField()

    def __str__(self) -> str:
        return f"socket of {self.user_id or 'anonymous'} at table {self.table_id} (process {self.process_id})"


class AdminAuditLog(models.Model):
    """Append-only: one row per admin save, delete or action (games.admin_audit)."""

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


class RecordUpload(models.Model):
    """One record opened in the viewer (/replays/open/): counted per account and per address for
    the hourly limits (games.views_history); old rows are only counted, never read again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=45)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"record opened by {self.user_id} from {self.address}"
