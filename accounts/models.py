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
    # The address the account was signed up from (None: made by an admin or a command). Signups
    # are throttled per address, and point flows between accounts sharing one are flagged.
    signup_ip = models.GenericIPAddressField(_("signup address"), null=True, blank=True, db_index=True)

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
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    created_ip = models.GenericIPAddressField(
        null=True, blank=True
    )  # token creation is throttled per address
    last_used = models.DateTimeField(null=True, blank=True)
    # Revoked tokens stay (who had what, and the creation throttle counts them) but open nothing.
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"

    @property
    def active(self) -> bool:
        return self.revoked is None


# --- History, ratings, moderation ----------------------------------------------------------


class LedgerEntry(models.Model):
    """Append-only: every change of a balance. A balance always equals the sum of its entries."""

    class Kind(models.TextChoices):
        STARTING_GRANT = "starting_grant", _("starting grant")
        HAND_RESULT = "hand_result", _("hand result")
        PENALTY = "penalty", _("penalty")
        PENALTY_SHARE = "penalty_share", _("share of a penalty")
        PENALTY_REVERSAL = "penalty_reversal", _("penalty reversed")
        ADMIN_GRANT = "admin_grant", _("admin grant")
        ADJUSTMENT = "adjustment", _("adjustment")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ledger")
    delta = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    hand = models.ForeignKey("games.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    penalty = models.ForeignKey(
        "games.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="ledger"
    )
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger")

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.delta:+d} → {self.balance_after}"


class FlaggedPointFlow(LedgerEntry):
    """The admin's view of point flows between linked accounts (accounts.flows); no rows of its own."""

    class Meta:
        proxy = True
        verbose_name = _("flagged point flow")
        verbose_name_plural = _("flagged point flows")
