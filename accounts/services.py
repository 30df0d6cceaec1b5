"""Every change to an account's points goes through a function here (a ledger comes later)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts import ledger
from accounts.models import ApiToken, Profile
from games.rows import RowSql

LAST_USED_GRAIN = timedelta(minutes=1)  # an API token's last use is kept to the minute


def grant_starting_balance(user: AbstractBaseUser) -> Profile:
    """Give a new user their profile and the starting balance (a ledger row); a no-op if they have one."""
    from games.settings_store import current  # the admin may change it without a deploy

    return ledger.open_account(user, current().starting_balance)


def change_balance(user: AbstractBaseUser, delta: int, reason: str, hand: Any = None) -> int:
    """Add `delta` to the user's balance, never below 0 (RULES §1.5); returns the delta applied.

    Every change is a row in the ledger (accounts.ledger), whose sum is the balance.
    """
    return ledger.post(user, delta, ledger.kind_for(reason), hand=hand).delta


def balance_of(user: AbstractBaseUser) -> int:
    balance = balance_or_none(user)
    if balance is None:
        raise Profile.DoesNotExist(f"no profile for user {user.pk}")
    return balance


def balance_or_none(user: AbstractBaseUser) -> int | None:
    """The user's balance; None when they have no profile (no account opened)."""
    profile = _PROFILE_ROWS.find("user_id", user.pk)  # at every sit-down: precompiled
    return profile.balance if profile is not None else None


# --- API tokens ----------------------------------------------------------------------------


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_api_token(user: AbstractBaseUser) -> str:
    """Make a new token for `user` and return it; it cannot be shown again."""
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, key_hash=_digest(key), prefix=key[:6])
    return key


def user_for_token(key: str) -> AbstractBaseUser | None:
    """The active user owning this token, or None."""
    if not key or len(key) > 200:
        return None
    # Every API socket starts here (a hundred tables reconnecting after a restart is 400 of
    # them at once): two precompiled reads, not the ORM's compiled join.
    token = _TOKEN_ROWS.find("key_hash", _digest(key))
    user = _USER_ROWS.find("id", token.user_id) if token is not None else None
    if token is None or user is None or not user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > LAST_USED_GRAIN:  # not a write per socket
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return user


_TOKEN_ROWS = RowSql(ApiToken)
_USER_ROWS = RowSql(get_user_model())
_PROFILE_ROWS = RowSql(Profile)
