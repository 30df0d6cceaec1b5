"""The moderation admin: live tables and their players, penalties and reversals, bans,
grants, the ledger, ratings, site settings, and an audit log of every admin action — each kind
in its own module (admin_tables, admin_penalties, admin_points, admin_audit); this one holds the
site settings and server rows, and registers them all.

It extends the basic registrations in games.admin (imported first, then re-registered) and is
loaded from GamesConfig.ready. Every save, delete and action of these ModelAdmins appends an
AdminAuditLog row. Points and penalties change only through games.moderation.penalties / accounts.ledger,
so the add forms here call those services instead of saving rows directly.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse

from accounts.models import LedgerEntry
from common.admin_base import ReadOnlyAdmin
from games.history.models import Rating
from games.models import Seat, Table
from games.moderation.admin_audit import AdminAuditLogAdmin, AuditedAdmin
from games.moderation.admin_penalties import BanAdmin, PenaltyModerationAdmin, PenaltyReversalAdmin
from games.moderation.admin_points import LedgerEntryAdmin, RatingAdmin
from games.moderation.admin_tables import SeatAdmin, TableModerationAdmin
from games.moderation.models import AdminAuditLog, Ban, Penalty, PenaltyReversal, SiteSettings
from games.sockets.models import OpenSocket, ServerProcess, ServerStart

# --- site settings, server starts, the audit log ------------------------------------------------


class SiteSettingsAdmin(AuditedAdmin):
    list_display = [
        "__str__",
        "starting_balance",
        "escape_multiplier",
        "turn_seconds",
        "grace_seconds",
        "updated",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not SiteSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        """A singleton: go straight to its form."""
        row = SiteSettings.objects.first()
        if row is None:
            return HttpResponseRedirect(reverse("admin:games_sitesettings_add"))
        return HttpResponseRedirect(reverse("admin:games_sitesettings_change", args=[row.pk]))


class ServerStartAdmin(ReadOnlyAdmin):
    list_display = ["started"]


class ServerProcessAdmin(ReadOnlyAdmin):
    """The socket processes and their heartbeats (games.sockets.presence): the clock gives up one not
    seen for 30 s and drops its sockets."""

    list_display = ["host", "started", "seen"]
    ordering = ["-seen"]


class OpenSocketAdmin(ReadOnlyAdmin):
    list_display = ["table", "user", "seated", "process", "opened"]
    list_filter = ["seated"]
    search_fields = ["user__username"]
    list_select_related = ["table", "user", "process"]


def register() -> None:
    """Replace the basic Table and Penalty admins; register the moderation models."""
    for model in (Table, Penalty):
        if admin.site.is_registered(model):
            admin.site.unregister(model)
    admin.site.register(Table, TableModerationAdmin)
    admin.site.register(Seat, SeatAdmin)
    admin.site.register(Penalty, PenaltyModerationAdmin)
    admin.site.register(PenaltyReversal, PenaltyReversalAdmin)
    admin.site.register(Ban, BanAdmin)
    admin.site.register(LedgerEntry, LedgerEntryAdmin)
    admin.site.register(Rating, RatingAdmin)
    admin.site.register(SiteSettings, SiteSettingsAdmin)
    admin.site.register(ServerStart, ServerStartAdmin)
    admin.site.register(ServerProcess, ServerProcessAdmin)
    admin.site.register(OpenSocket, OpenSocketAdmin)
    admin.site.register(AdminAuditLog, AdminAuditLogAdmin)


register()
