"""Table chat: messages, players' own mutes, and admins' silences (games.social.chat)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ChatMessage(models.Model):
    """One line said at a table: a preset phrase (`phrase`) or free text (`text`)."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a spectator
    phrase = models.CharField(max_length=20, blank=True)
    text = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(db_index=True)
    reported_at = models.DateTimeField(null=True, blank=True, db_index=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "created"], name="chat_user_created")]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.user} at {self.table_id}: {self.text or self.phrase}"


class ChatMute(models.Model):
    """A player no longer sees another player's chat (their own choice, per player)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chatmute_once")]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class ChatSilence(models.Model):
    """An admin's mute: the player may not chat anywhere until `ends`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ends = models.DateTimeField(db_index=True)
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat silence")
        verbose_name_plural = _("chat silences")

    def __str__(self) -> str:
        return f"{self.user} silenced until {self.ends:%Y-%m-%d %H:%M}"


class Announcement(models.Model):
    """Shown on every page and as a banner on open boards from `starts` until `ends`."""

    text_zh = models.CharField(_("text (Chinese)"), max_length=300, blank=True)
    text_en = models.CharField(_("text (English)"), max_length=300, blank=True)
    starts = models.DateTimeField(_("shown from"))
    ends = models.DateTimeField(_("expires"), db_index=True)
    # The clock tells open boards once when it starts and once when it has expired
    # (games.social.announcements.sweep).
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
