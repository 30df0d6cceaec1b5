"""The admin for table chat: read messages (reported ones first), silence or ban
their senders; every action is in the audit log (games.moderation.admin_audit.audit)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.db.models import F, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.admin_base import ReadOnlyAdmin
from games.moderation.admin_audit import AuditedAdmin, audit
from games.moderation.penalties import ban_user
from games.social.models import ChatMessage, ChatSilence

SILENCE = timedelta(hours=24)
BAN_MINUTES = 24 * 60


class ReportedFilter(admin.SimpleListFilter):
    title = _("reported")
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", _("reported")), ("no", _("not reported"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(reported_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(reported_at__isnull=True)
        return queryset


@admin.action(description=_("Mute the senders' chat for 24 hours"))
def silence_senders(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    users = {m.user for m in queryset.select_related("user")}
    for user in users:
        silence = ChatSilence.objects.create(
            user=user, ends=timezone.now() + SILENCE, reason=_("reported chat"), created_by=request.user
        )
        audit(request, "chat_silence", silence, hours=24)
    messages.success(request, _("%(n)d player(s) muted.") % {"n": len(users)})


@admin.action(description=_("Ban the senders for 24 hours"))
def ban_senders(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    users = {m.user for m in queryset.select_related("user")}
    for user in users:
        ban = ban_user(user, BAN_MINUTES, request.user, str(_("reported chat")))
        audit(request, "chat_ban", ban, minutes=BAN_MINUTES)
    messages.success(request, _("%(n)d player(s) banned.") % {"n": len(users)})


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["created", "table", "user", "seat", "phrase", "text", "reported_at", "reported_by"]
    list_filter = [ReportedFilter]
    search_fields = ["user__username", "text"]
    actions = [silence_senders, ban_senders]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        reported_first = F("reported_at").desc(nulls_last=True)
        return (
            super()
            .get_queryset(request)
            .select_related("user", "reported_by")
            .order_by(reported_first, "-created")
        )

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # actions still run: they need only view permission here

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(ChatSilence)
class ChatSilenceAdmin(AuditedAdmin):
    list_display = ["user", "ends", "reason", "created_by", "created"]
    readonly_fields = ["created_by", "created"]

    def save_model(self, request: HttpRequest, obj: ChatSilence, form: object, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
