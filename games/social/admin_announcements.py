"""The admin for site-wide announcements: every save and delete is audit-logged and
reaches the open boards at once (games.social.announcements.publish)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.moderation.admin_audit import AuditedAdmin
from games.social.announcements import publish
from games.social.models import Announcement


class AnnouncementForm(forms.ModelForm):
    class Meta:
        model = Announcement
        fields = ["text_zh", "text_en", "starts", "ends"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not (data.get("text_zh") or "").strip() and not (data.get("text_en") or "").strip():
            raise forms.ValidationError(_("Write the announcement in at least one language."))
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends <= starts:
            raise forms.ValidationError(_("An announcement must expire after it starts."))
        return data


@admin.register(Announcement)
class AnnouncementAdmin(AuditedAdmin):
    form = AnnouncementForm
    list_display = ["__str__", "starts", "ends", "is_active", "created_by"]
    readonly_fields = ["created_by", "created"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        now = timezone.now()
        return {"starts": now, "ends": now + timezone.timedelta(hours=2)}

    @admin.display(boolean=True, description=_("shown now"))
    def is_active(self, announcement: Announcement) -> bool:
        return announcement.starts <= timezone.now() < announcement.ends

    def save_model(self, request: HttpRequest, obj: Announcement, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        now = timezone.now()
        obj.start_announced = obj.starts <= now  # published now; else the clock does when it starts
        obj.expiry_announced = obj.ends <= now
        super().save_model(request, obj, form, change)
        publish()

    def delete_model(self, request: HttpRequest, obj: Announcement) -> None:
        super().delete_model(request, obj)
        publish()

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        super().delete_queryset(request, queryset)
        publish()
