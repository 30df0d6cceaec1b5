"""Every change to an account's points goes through a function here (a ledger comes later)."""

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from accounts.models import Profile


@transaction.atomic
def grant_starting_balance(user: AbstractBaseUser) -> Profile:
    """Give a new user their profile with STARTING_BALANCE points; a no-op if they have one."""
    profile, _created = Profile.objects.get_or_create(
        user=user, defaults={"balance": settings.STARTING_BALANCE}
    )
    return profile
