from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from accounts import flows, services
from accounts.models import ApiToken, FlaggedPointFlow, Profile
from common.admin_base import ReadOnlyAdmin


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "balance", "signup_ip"]
    search_fields = ["user__username", "signup_ip"]
    readonly_fields = ["user", "balance", "signup_ip"]  # balances change only through accounts.services


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are listed and revoked here, never edited: revoking also closes their sockets."""

    list_display = ["user", "prefix", "created", "created_ip", "last_used", "revoked"]
    list_filter = [("revoked", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "prefix"]
    readonly_fields = ["user", "prefix", "created", "created_ip", "last_used", "revoked"]
    exclude = ["key_hash"]
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens (and close their sockets)"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        count = services.revoke_tokens(queryset)
        self.message_user(request, _("%(count)d token(s) revoked.") % {"count": count}, messages.SUCCESS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by their owner (profile page, API) or `manage.py api_token`

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoke instead: the row stays as a record


@admin.register(FlaggedPointFlow)
class FlaggedPointFlowAdmin(ReadOnlyAdmin):
    """One page listing accounts.flows.flagged_flows() (no rows of its own to edit)."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Flagged point flows"),
            "flows": flows.flagged_flows(),
        }
        return TemplateResponse(request, "admin/accounts/flagged_point_flows.html", context)
