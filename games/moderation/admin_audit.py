"""The audit log of the moderation admin: `audit` appends one row per admin action;
`AuditedAdmin` audits every save and delete; `ReadOnlyAdmin` (common.admin_base) shows history rows
it may not edit;
`run_audited` calls a moderation service for one object and audits it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from common.admin_base import ReadOnlyAdmin
from games.moderation.models import AdminAuditLog
from games.table.errors import ServiceError

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


def run_audited(
    request: HttpRequest, modeladmin: admin.ModelAdmin, action: str, obj: Model, change: Any
) -> bool:
    """Call a moderation service for one object; audit it, or report why it was refused."""
    try:
        change()
    except (ServiceError, ValueError) as e:
        modeladmin.message_user(request, f"{obj}: {e}", messages.WARNING)
        return False
    audit(request, action, obj)
    return True


def become(obj: Model, made: Model) -> None:
    """The add view logs and redirects with `obj`: make it the row the service created."""
    obj.__dict__.update({k: v for k, v in made.__dict__.items() if not k.startswith("_")})


def report_done(request: HttpRequest, modeladmin: admin.ModelAdmin, count: int, what: str) -> None:
    modeladmin.message_user(request, _("%(what)s: %(count)d done.") % {"what": what, "count": count})


class AdminAuditLogAdmin(ReadOnlyAdmin):
    list_display = ["created", "user", "action", "model", "object_repr", "details"]
    list_filter = ["action", "model", "created"]
    search_fields = ["user__username", "object_repr", "action"]
    date_hierarchy = "created"
