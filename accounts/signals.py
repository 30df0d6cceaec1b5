from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.services import grant_starting_balance


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_grant_starting_balance")
def create_profile(sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """Every new user (sign-up, admin, createsuperuser) starts with a profile and points."""
    if created and not raw:
        grant_starting_balance(instance)
