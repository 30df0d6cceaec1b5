"""The socket servers' rows: each process's starts and heartbeats, and the sockets it counts
(games.sockets.presence). Registered with the app by games.models."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ServerStart(models.Model):
    """Appended when a server process starts, or is given up for dead (games.sockets.presence):
    disconnects from before it are nobody's fault."""

    started = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"server start {self.started:%Y-%m-%d %H:%M:%S}"


class ServerProcess(models.Model):
    """A socket server process, vouching by its heartbeat for the sockets it counts (OpenSocket).
    When it dies without closing them (`kill -9`, a lost machine) its heartbeat stops and the
    clock takes its sockets out of the counts (games.sockets.presence)."""

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
