"""Every change to an account's points goes through a function here (a ledger comes later)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts import ledger
from accounts.models import ApiToken, Profile
from common.rows import RowSql
from common.settings_store import current  # the starting balance: the admin may change it

LAST_USED_GRAIN = timedelta(minutes=1)  # an API token's last use is kept to the minute


def grant_starting_balance(user: AbstractBaseUser) -> Profile:
    """Give a new user their profile and the starting balance (a ledger row); a no-op if they have one."""
    return ledger.open_account(user, current().starting_balance)


def change_balance(user: AbstractBaseUser, delta: int, reason: str, hand: Any = None, keep: int = 0) -> int:
    """Add `delta` to the user's balance, never below 0 (RULES §1.5), nor a loss below `keep`
    (what the user's other running hands hold); returns the delta applied.

    Every change is a row in the ledger (accounts.ledger), whose sum is the balance.
    """
    return ledger.post(user, delta, ledger.kind_for(reason), hand=hand, keep=keep).delta


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


class Throttled(Exception):
    """Too many of something from one account or address: try again later."""


def token_digest(key: str) -> str:
    """What is stored of a token (ApiToken.key_hash): its SHA-256."""
    return hashlib.sha256(key.encode()).hexdigest()


def create_api_token(user: AbstractBaseUser, address: str | None = None) -> str:
    """Make a new token for `user` and return it; it cannot be shown again.

    `address`: where the request came from (a web request; None for a command, which is not
    throttled). Raises Throttled past settings.TOKENS_PER_USER_PER_HOUR or
    TOKENS_PER_ADDRESS_PER_HOUR tokens made in the last hour (revoked ones count too).
    """
    with transaction.atomic():
        if address is not None:
            address_lock(f"token:{address}")
            _check_token_throttle(user, address)
        key = secrets.token_urlsafe(32)
        ApiToken.objects.create(user=user, key_hash=token_digest(key), prefix=key[:6], created_ip=address)
    return key


def _check_token_throttle(user: AbstractBaseUser, address: str) -> None:
    since = timezone.now() - timedelta(hours=1)
    recent = ApiToken.objects.filter(created__gte=since)
    if recent.filter(user=user).count() >= settings.TOKENS_PER_USER_PER_HOUR:
        raise Throttled("token_throttled")
    if recent.filter(created_ip=address).count() >= settings.TOKENS_PER_ADDRESS_PER_HOUR:
        raise Throttled("token_throttled")


def token_for_key(key: str) -> ApiToken | None:
    """The active token with this key whose user is active, or None."""
    if not key or len(key) > 200:
        return None
    # Every API socket starts here (a hundred tables reconnecting after a restart is 400 of
    # them at once): two precompiled reads, not the ORM's compiled join.
    token = _TOKEN_ROWS.find("key_hash", token_digest(key))
    if token is None or token.revoked is not None:
        return None
    user = _USER_ROWS.find("id", token.user_id)
    if user is None or not user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > LAST_USED_GRAIN:  # not a write per socket
        token.last_used = now
        _TOKEN_ROWS.update(token, ["last_used"])
    token.user = user
    return token


def user_for_token(key: str) -> AbstractBaseUser | None:
    """The active user owning this (unrevoked) token, or None."""
    token = token_for_key(key)
    return token.user if token is not None else None


def revoke_tokens(tokens: QuerySet[ApiToken]) -> int:
    """Revoke the still-active tokens of `tokens` and close their open sockets (in any process:
    through the channel layer, after the commit). Returns how many were revoked."""
    from accounts import sockets

    with transaction.atomic():
        rows = list(tokens.filter(revoked__isnull=True).values_list("pk", "key_hash"))
        ApiToken.objects.filter(pk__in=[pk for pk, _ in rows]).update(revoked=timezone.now())
        transaction.on_commit(lambda: sockets.close_token_sockets([key_hash for _, key_hash in rows]))
    return len(rows)


def revoke_all_tokens(user: AbstractBaseUser) -> int:
    return revoke_tokens(ApiToken.objects.filter(user=user))


def active_tokens(user: AbstractBaseUser) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user, revoked__isnull=True).order_by("-created")


# --- signups -------------------------------------------------------------------------------


def check_signup_allowed(address: str) -> None:
    """Raise Throttled when `address` already signed up SIGNUPS_PER_ADDRESS_PER_HOUR accounts in
    the last hour or SIGNUPS_PER_ADDRESS_PER_DAY in the last day. Call inside the transaction
    that creates the account, after `address_lock(f"signup:{address}")`."""
    now = timezone.now()
    joined = Profile.objects.filter(signup_ip=address)
    if (
        joined.filter(user__date_joined__gte=now - timedelta(hours=1)).count()
        >= settings.SIGNUPS_PER_ADDRESS_PER_HOUR
    ):
        raise Throttled("signup_throttled")
    if (
        joined.filter(user__date_joined__gte=now - timedelta(days=1)).count()
        >= settings.SIGNUPS_PER_ADDRESS_PER_DAY
    ):
        raise Throttled("signup_throttled")


def record_signup_address(user: AbstractBaseUser, address: str) -> None:
    Profile.objects.filter(user=user).update(signup_ip=address)


def address_lock(name: str) -> None:
    """Serialise the check-then-create of one address's signups or tokens (twelve requests
    at once must not all see "none yet"): a transaction-scoped advisory lock on PostgreSQL;
    SQLite runs one writer at a time anyway. Call inside transaction.atomic()."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [name])


_TOKEN_ROWS = RowSql(ApiToken)
_USER_ROWS = RowSql(get_user_model())
_PROFILE_ROWS = RowSql(Profile)


def still_signed_in(user_id: int, session_hash: str | None) -> bool:
    """Whether a socket signed in as this account may stay so: the account is active and, for a
    session, its password is the one the session was made with (read after the socket joined
    the account's group, so a change committed meanwhile is seen here or closes it there)."""
    user = _USER_ROWS.find("id", user_id)  # at every signed-in socket's arrival: precompiled
    if user is None or not user.is_active:
        return False
    return session_hash is None or constant_time_compare(session_hash, user.get_session_auth_hash())
