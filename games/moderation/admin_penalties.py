"""The moderation admin of penalties, their reversals and bans: made and lifted through
games.moderation.penalties, each in the audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.admin_base import ReadOnlyAdmin
from games.moderation import penalties
from games.moderation.admin_audit import AuditedAdmin, audit, become, report_done
from games.moderation.models import Ban, Penalty

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
    report_done(request, modeladmin, done, _("Reversed"))


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
        """A manual penalty: charged through the ledger by games.moderation.penalties."""
        made = penalties.manual_penalty(obj.user, obj.amount, request.user, note=obj.note, hand=obj.hand)
        become(obj, made)
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
    report_done(request, modeladmin, done, _("Lifted"))


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
        become(obj, ban)
        audit(request, "ban", ban, minutes=form.cleaned_data["minutes"])
