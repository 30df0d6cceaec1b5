"""The ledger (grants through games.moderation.penalties, never a row saved here) and the ratings, in the
moderation admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import LedgerEntry
from common.admin_base import ReadOnlyAdmin
from games.history.models import Rating
from games.moderation import penalties
from games.moderation.admin_audit import audit, become

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
        become(obj, entry)
        audit(request, "grant_points", entry, delta=entry.delta)


class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "variant", "ordinal_shown", "mu", "sigma", "hands", "updated"]
    list_filter = ["variant"]
    search_fields = ["user__username"]

    @admin.display(description=_("rating"), ordering="mu")
    def ordinal_shown(self, rating: Rating) -> str:
        return f"{rating.ordinal:.2f}"
