"""The moderation admin (issue 7): live tables and their players, penalties and reversals, bans,
grants, the ledger, ratings, site settings, and an audit log of every admin action.

It extends the basic registrations in games.admin (imported first, then re-registered) and is
loaded from GamesConfig.ready. Every save, delete and action of these ModelAdmins appends an
AdminAuditLog row. Points and penalties change only through games.penalties / accounts.ledger,
so the add forms here call those services instead of saving rows directly.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

import games.admin as basic_admin  # the registrations this module extends
from accounts.models import LedgerEntry
from games import moderation, penalties
from games.models import (
    AdminAuditLog,
    Ban,
    Hand,
    OpenSocket,
    Penalty,
    PenaltyReversal,
    Rating,
    Seat,
    ServerProcess,
    ServerStart,
    SiteSettings,
    Table,
)
from games.services import ServiceError

User = get_user_model()


# --- the audit log ---------------------------------------------------------------------------


def audit(request: HttpRequest, action: str, obj: Model | None = None, **details: Any) -> AdminAuditLog:
    """Append one audit row for an admin's action on `obj` (or on no object)."""
    return AdminAuditLog.objects.create(
        user=request.user if request.user.is_authenticated else None,
        action=action,
        model=obj._meta.label if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        details=details,
    )


class AuditedAdmin(admin.ModelAdmin):
    """Writes an audit row for every save and delete (actions call `audit` themselves)."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        audit(request, "change" if change else "add", obj, fields=list(getattr(form, "changed_data", [])))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        audit(request, "delete", obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for obj in queryset:
            audit(request, "delete", obj)
        super().delete_queryset(request, queryset)


class ReadOnlyAdmin(admin.ModelAdmin):
    """History rows: appended by the services, never edited or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _run(request: HttpRequest, modeladmin: admin.ModelAdmin, action: str, obj: Model, change: Any) -> bool:
    """Call a moderation service for one object; audit it, or report why it was refused."""
    try:
        change()
    except (ServiceError, ValueError) as e:
        modeladmin.message_user(request, f"{obj}: {e}", messages.WARNING)
        return False
    audit(request, action, obj)
    return True


def _become(obj: Model, made: Model) -> None:
    """The add view logs and redirects with `obj`: make it the row the service created."""
    obj.__dict__.update({k: v for k, v in made.__dict__.items() if not k.startswith("_")})


def _done(request: HttpRequest, modeladmin: admin.ModelAdmin, count: int, what: str) -> None:
    modeladmin.message_user(request, _("%(what)s: %(count)d done.") % {"what": what, "count": count})


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
        _run(request, modeladmin, "close_table", t, lambda t=t: moderation.close_table(t.pk))
        for t in queryset
    )
    _done(request, modeladmin, done, _("Closed"))


@admin.action(description=_("Make the selected tables private"))
def make_private(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    done = sum(
        _run(request, modeladmin, "make_private", t, lambda t=t: moderation.make_private(t.pk))
        for t in queryset
    )
    _done(request, modeladmin, done, _("Made private"))


class ClockTroubleFilter(admin.SimpleListFilter):
    """Tables whose timeouts fail (games.clock retries them with a back-off) or that the clock
    closed after too many failures (issue 23)."""

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
WIND_NAMES = {27: "东 East", 28: "南 South", 29: "西 West", 30: "北 North"}


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

    # The change page is a read-only view of the live state (issue 24): a table changes only
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
        if _run(request, self, action, table, change):
            self.message_user(request, done)
        return HttpResponseRedirect(reverse("admin:games_table_change", args=[pk]))

    def close_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return self._button(
            request, pk, "close_table", lambda: moderation.close_table(pk), _("The table is closed.")
        )

    def private_view(self, request: HttpRequest, pk: int) -> HttpResponseRedirect:
        return self._button(
            request, pk, "make_private", lambda: moderation.make_private(pk), _("The table is private.")
        )

    def kick_view(self, request: HttpRequest, pk: int, index: int) -> HttpResponseRedirect:
        seat = Seat.objects.filter(table_id=pk, index=index).select_related("user").first()
        if seat is None or seat.user is None:
            self.message_user(request, _("Nobody sits in that seat."), messages.WARNING)
            return HttpResponseRedirect(reverse("admin:games_table_change", args=[pk]))
        user = seat.user
        return self._button(
            request, pk, "kick", lambda: moderation.kick(pk, user), _("%(name)s was kicked.") % {"name": user}
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
            done += _run(
                request, modeladmin, "kick", seat, lambda s=seat: moderation.kick(s.table_id, s.user)
            )
    _done(request, modeladmin, done, _("Kicked"))


class SeatAdmin(ReadOnlyAdmin):
    """Seats of live tables, to kick players (the only change an admin makes to a seat)."""

    list_display = ["table", "index", "user", "is_bot", "connections", "auto", "left", "sat_at"]
    list_filter = ["table__status", "is_bot", "left"]
    search_fields = ["user__username", "table__id"]
    actions = [kick_players]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.change_table")  # the kick action needs it


# --- penalties, reversals, bans ----------------------------------------------------------------


class ManualPenaltyForm(forms.ModelForm):
    class Meta:
        model = Penalty
        fields = ["user", "amount", "hand", "note"]

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount <= 0:
            raise forms.ValidationError(_("A penalty takes a positive number of points."))
        return amount


@admin.action(description=_("Reverse the selected penalties (give the points back)"))
def reverse_penalties(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    done = 0
    for penalty in queryset:
        reversal = penalties.reverse_penalty(penalty, request.user, note="admin")
        if reversal is not None:
            audit(request, "reverse_penalty", penalty, amount=penalty.amount)
            done += 1
    _done(request, modeladmin, done, _("Reversed"))


class ReversedFilter(admin.SimpleListFilter):
    title = _("reversed")
    parameter_name = "reversed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in ("yes", "no"):
            return queryset.filter(reversal__isnull=self.value() == "no")
        return queryset


class PenaltyModerationAdmin(AuditedAdmin):
    list_display = ["id", "user", "reason", "amount", "table", "hand", "is_reversed", "created_by", "created"]
    list_filter = ["reason", ReversedFilter, "created"]
    search_fields = ["user__username", "note"]
    actions = [reverse_penalties]
    date_hierarchy = "created"
    form = ManualPenaltyForm
    autocomplete_fields = ["user"]  # found by name (the User admin's search)
    raw_id_fields = ["hand"]

    @admin.display(boolean=True, description=_("reversed"))
    def is_reversed(self, penalty: Penalty) -> bool:
        return penalty.reversed

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        return ["user", "reason", "amount", "table", "hand", "note", "created_by", "created"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)  # the list's actions

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # never deleted: reversed

    def save_model(self, request: HttpRequest, obj: Penalty, form: Any, change: bool) -> None:
        """A manual penalty: charged through the ledger by games.penalties."""
        made = penalties.manual_penalty(obj.user, obj.amount, request.user, note=obj.note, hand=obj.hand)
        _become(obj, made)
        audit(request, "manual_penalty", made, amount=made.amount)


class PenaltyReversalAdmin(ReadOnlyAdmin):
    list_display = ["penalty", "by", "note", "created"]
    search_fields = ["penalty__user__username"]


class BanForm(forms.ModelForm):
    minutes = forms.IntegerField(label=_("minutes"), min_value=1, max_value=60 * 24 * 365, initial=60)

    class Meta:
        model = Ban
        fields = ["user", "reason"]


@admin.action(description=_("Lift the selected bans now"))
def lift_bans(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    now = timezone.now()
    done = 0
    for ban in queryset.filter(ends__gt=now):
        Ban.objects.filter(pk=ban.pk).update(ends=now)
        audit(request, "lift_ban", ban)
        done += 1
    _done(request, modeladmin, done, _("Lifted"))


class ActiveBanFilter(admin.SimpleListFilter):
    title = _("active")
    parameter_name = "active"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(starts__lte=now, ends__gt=now)
        if self.value() == "no":
            return queryset.exclude(starts__lte=now, ends__gt=now)
        return queryset


class BanAdmin(AuditedAdmin):
    list_display = ["user", "starts", "ends", "reason", "manual", "created_by"]
    list_filter = [ActiveBanFilter, "manual"]
    search_fields = ["user__username", "reason"]
    actions = [lift_bans]
    autocomplete_fields = ["user"]

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = BanForm
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else ["user", "starts", "ends", "reason", "manual", "penalty", "created_by"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # lifted (ends = now), never deleted

    def save_model(self, request: HttpRequest, obj: Ban, form: Any, change: bool) -> None:
        if change:
            return
        ban = penalties.ban_user(obj.user, form.cleaned_data["minutes"], request.user, obj.reason)
        _become(obj, ban)
        audit(request, "ban", ban, minutes=form.cleaned_data["minutes"])


# --- the ledger and grants ---------------------------------------------------------------------


class GrantForm(forms.ModelForm):
    class Meta:
        model = LedgerEntry
        fields = ["user", "delta", "note"]
        labels = {"delta": _("points to grant (negative to take)")}

    def clean_delta(self) -> int:
        delta = self.cleaned_data["delta"]
        if delta == 0:
            raise forms.ValidationError(_("A grant moves some points."))
        return delta


class LedgerEntryAdmin(admin.ModelAdmin):
    """Append-only. "Add" is the admin's grant of points (kind admin_grant)."""

    list_display = [
        "created",
        "user",
        "kind",
        "delta",
        "balance_after",
        "hand",
        "penalty",
        "note",
        "created_by",
    ]
    list_filter = ["kind", "created"]
    search_fields = ["user__username", "note"]
    date_hierarchy = "created"
    form = GrantForm
    autocomplete_fields = ["user"]
    list_select_related = ["user", "created_by"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        return ["user", "delta", "balance_after", "kind", "hand", "penalty", "note", "created_by", "created"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: LedgerEntry, form: Any, change: bool) -> None:
        entry = penalties.grant_points(obj.user, obj.delta, request.user, note=obj.note)
        _become(obj, entry)
        audit(request, "grant_points", entry, delta=entry.delta)


class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "variant", "ordinal_shown", "mu", "sigma", "hands", "updated"]
    list_filter = ["variant"]
    search_fields = ["user__username"]

    @admin.display(description=_("rating"), ordering="mu")
    def ordinal_shown(self, rating: Rating) -> str:
        return f"{rating.ordinal:.2f}"


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
    """The socket processes and their heartbeats (games.presence): the clock gives up one not
    seen for 30 s and drops its sockets."""

    list_display = ["host", "started", "seen"]
    ordering = ["-seen"]


class OpenSocketAdmin(ReadOnlyAdmin):
    list_display = ["table", "user", "seated", "process", "opened"]
    list_filter = ["seated"]
    search_fields = ["user__username"]
    list_select_related = ["table", "user", "process"]


class AdminAuditLogAdmin(ReadOnlyAdmin):
    list_display = ["created", "user", "action", "model", "object_repr", "details"]
    list_filter = ["action", "model", "created"]
    search_fields = ["user__username", "object_repr", "action"]
    date_hierarchy = "created"


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
