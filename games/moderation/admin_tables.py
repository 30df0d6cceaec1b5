"""The moderation admin of live tables: their state, players and hands; close, make
private, kick — each through games.moderation.live_tables and in the audit log."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

import games.admin as basic_admin  # the registrations this module extends
from common.admin_base import ReadOnlyAdmin
from games.engine.tiles import WIND_EN, WIND_ZH, name
from games.models import (
    EAST,
    Hand,
    Seat,
    Table,
)
from games.moderation import live_tables
from games.moderation.admin_audit import AuditedAdmin, report_done, run_audited

User = get_user_model()

# --- tables, seats, hands ----------------------------------------------------------------------


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "match", "status", "actions_count", "started", "ended", "replay"]
    readonly_fields = fields
    can_delete = False
    ordering = ["-started"]
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("replay"))
    def replay(self, hand: Hand) -> str:
        if hand.status != Hand.Status.OVER:
            return "–"
        return format_html('<a href="{}">{}</a>', reverse("history:replay", args=[hand.pk]), _("replay"))


class SeatModerationInline(basic_admin.SeatInline):
    """The seats as they are now; kicking is a button above the page (TableModerationAdmin)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.action(description=_("Close the selected tables (a hand in progress is settled as drawn)"))
def close_tables(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    done = sum(
        run_audited(request, modeladmin, "close_table", t, lambda t=t: live_tables.close_table(t.pk))
        for t in queryset
    )
    report_done(request, modeladmin, done, _("Closed"))


@admin.action(description=_("Make the selected tables private"))
def make_private(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    done = sum(
        run_audited(request, modeladmin, "make_private", t, lambda t=t: live_tables.make_private(t.pk))
        for t in queryset
    )
    report_done(request, modeladmin, done, _("Made private"))


class ClockTroubleFilter(admin.SimpleListFilter):
    """Tables whose timeouts fail (games.clock.ticks retries them with a back-off) or that the clock
    closed after too many failures."""

    title = _("clock trouble")
    parameter_name = "clock"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("failing", _("failing, retried")), ("closed", _("closed by the clock"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "failing":
            return queryset.filter(clock_failures__gt=0, clock_closed=False)
        if self.value() == "closed":
            return queryset.filter(clock_closed=True)
        return queryset


WIND_NAMES = {t: f"{WIND_ZH[name(t)]} {WIND_EN[name(t)]}" for t in range(EAST, EAST + 4)}  # (the engine's)


def live_state_rows(table: Table) -> list[tuple[str, str]]:
    """(label, value) lines of a table's state for the admin page."""
    seats = {s.index: s for s in table.seats.select_related("user")}

    def seat_name(index: int) -> str:
        seat = seats.get(index)
        who = (
            "–" if seat is None else "bot" if seat.is_bot else seat.user.get_username() if seat.user else "–"
        )
        return f"{_('seat')} {index} ({who})"  # the index the seats list shows

    hand = table.hand
    rows = [
        (_("status"), str(table.get_status_display())),
        (_("hand"), f"{hand.number} ({hand.get_status_display()})" if hand else "–"),
        (_("round wind"), WIND_NAMES.get(table.round_wind, str(table.round_wind))),
        (_("dealer"), seat_name(table.dealer)),
        (_("base stake"), f"{table.base or '–'} ({table.get_stake_state_display()})"),
        (_("spectators"), str(table.spectators)),
        (
            _("next timer"),
            date_format(timezone.localtime(table.deadline), "Y-m-d H:i:s") if table.deadline else "–",
        ),
    ]
    if table.counters:
        rows.append((_("counters"), ", ".join(f"{k}: {v}" for k, v in sorted(table.counters.items()))))
    names = dict(
        User.objects.filter(pk__in=[int(k) for k in table.notices or {}]).values_list("pk", "username")
    )
    for user_id, message in (table.notices or {}).items():
        rows.append((_("message to %(name)s") % {"name": names.get(int(user_id), user_id)}, message))
    return rows


class TableModerationAdmin(AuditedAdmin, basic_admin.TableAdmin):
    list_display = [
        "id",
        "variant",
        "status",
        "players_list",
        "base",
        "public",
        "spectators",
        "version",
        "clock_trouble",
        "created",
    ]
    list_display_links = ["id", "variant"]
    list_filter = ["status", "variant", "public", "stake_state", ClockTroubleFilter]
    search_fields = ["id", "owner__username", "seats__user__username"]
    inlines = [SeatModerationInline, HandInline]
    actions = [close_tables, make_private]
    date_hierarchy = "created"

    # The change page is a read-only view of the live state: a table changes only
    # through the services, so what an admin does there is a button (close, make private, kick).
    fields = ["live_state", "variant", "owner", "public", "created"]
    change_form_template = "admin/games/table/change_form.html"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return list(self.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened by players (the lobby's create form)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # closed, never deleted: its hands and logs stay

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("seats__user").distinct()

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        table = self.get_object(request, object_id)
        buttons = {
            "title": _("Table (live state)"),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "show_delete": False,
            "table_open": table is not None and table.status != Table.Status.CLOSED,
            "kickable": [s for s in table.seats.select_related("user").order_by("index") if s.user_id]
            if table is not None
            else [],
        }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **buttons})

    def get_urls(self) -> list[Any]:
        from django.urls import path

        own = [
            path("<int:pk>/close/", self.admin_site.admin_view(self.close_view), name="games_table_close"),
            path(
                "<int:pk>/private/", self.admin_site.admin_view(self.private_view), name="games_table_private"
            ),
            path(
                "<int:pk>/kick/<int:index>/",
                self.admin_site.admin_view(self.kick_view),
                name="games_table_kick",
            ),
        ]
        return own + super().get_urls()

    def _button(
        self, request: HttpRequest, pk: int, action: str, change: Any, done: str
    ) -> HttpResponseRedirect:
        """One button's POST: the moderation service, audited; back to the table's page."""
        table = Table.objects.filter(pk=pk).first()
        if request.method != "POST" or table is None or not self.has_change_permission(request, table):
            raise PermissionDenied
        if run_audited(request, self, action, table, change):
            self.message_user(request, done)
        return HttpResponseRedirect(reverse("admin:games_table_change", args=[pk]))

    def close_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return self._button(
            request, pk, "close_table", lambda: live_tables.close_table(pk), _("The table is closed.")
        )

    def private_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return self._button(
            request, pk, "make_private", lambda: live_tables.make_private(pk), _("The table is private.")
        )

    def kick_view(self, request: HttpRequest, pk: int, index: int) -> HttpResponseRedirect:
        seat = Seat.objects.filter(table_id=pk, index=index).select_related("user").first()
        if seat is None or seat.user is None:
            self.message_user(request, _("Nobody sits in that seat."), messages.WARNING)
            return HttpResponseRedirect(reverse("admin:games_table_change", args=[pk]))
        user = seat.user
        return self._button(
            request,
            pk,
            "kick",
            lambda: live_tables.kick(pk, user),
            _("%(name)s was kicked.") % {"name": user},
        )

    @admin.display(description=_("live state"))
    def live_state(self, table: Table) -> str:
        """The table as a person reads it: no engine numbers or raw JSON."""
        if not table.pk:
            return "–"
        rows = format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", live_state_rows(table))
        return format_html('<table class="live-state">{}</table>', rows)

    @admin.display(description=_("players"))
    def players_list(self, table: Table) -> str:
        names = [
            ("bot" if s.is_bot else s.user.get_username() if s.user else "·", " (left)" if s.left else "")
            for s in table.seats.all()
        ]
        return format_html_join(", ", "{}{}", names)

    @admin.display(description=_("clock"))
    def clock_trouble(self, table: Table) -> str:
        """Empty for a healthy table; else why the clock failed (and whether it gave the table up)."""
        if table.clock_closed:
            return _("closed by the clock: %(error)s") % {"error": table.clock_error}
        if table.clock_failures:
            return _("%(n)d failed timeouts: %(error)s") % {
                "n": table.clock_failures,
                "error": table.clock_error,
            }
        return ""


@admin.action(description=_("Kick the players in the selected seats (no escape penalty)"))
def kick_players(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    done = 0
    for seat in queryset.select_related("user"):
        if seat.user is not None:
            done += run_audited(
                request, modeladmin, "kick", seat, lambda s=seat: live_tables.kick(s.table_id, s.user)
            )
    report_done(request, modeladmin, done, _("Kicked"))


class SeatAdmin(ReadOnlyAdmin):
    """Seats of live tables, to kick players (the only change an admin makes to a seat)."""

    list_display = ["table", "index", "user", "is_bot", "connections", "auto", "left", "sat_at"]
    list_filter = ["table__status", "is_bot", "left"]
    search_fields = ["user__username", "table__id"]
    actions = [kick_players]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.change_table")  # the kick action needs it
