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
