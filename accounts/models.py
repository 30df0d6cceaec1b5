from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """Per-user data beside Django's built-in User: for now the virtual points balance.

    The balance only changes through functions in `accounts.services`.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    balance = models.BigIntegerField(_("balance"), default=0)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="profile_balance_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.balance})"


class ApiToken(models.Model):
    """A personal API token for the JSON API; only its SHA-256 is stored (shown once at creation)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)  # the first characters, to tell tokens apart
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"
