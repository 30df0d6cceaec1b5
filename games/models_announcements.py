"""Site-wide announcements: written in the admin, shown until they expire."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Announcement(models.Model):
    """Shown on every page and as a banner on open boards from `starts` until `ends`."""

    text_zh = models.CharField(_("text (Chinese)"), max_length=300, blank=True)
    text_en = models.CharField(_("text (English)"), max_length=300, blank=True)
    starts = models.DateTimeField(_("shown from"))
    ends = models.DateTimeField(_("expires"), db_index=True)
    # The clock tells open boards once when it starts and once when it has expired
    # (games.announcements.sweep).
    start_announced = models.BooleanField(default=False, editable=False)
    expiry_announced = models.BooleanField(default=False, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return (self.text_en or self.text_zh)[:60]
