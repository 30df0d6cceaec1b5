"""The ledger: the one place a balance changes. Each change appends a LedgerEntry in the same
transaction as the Profile update, so a balance always equals the sum of its entries."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Sum

from accounts.models import LedgerEntry, Profile

Kind = LedgerEntry.Kind


@transaction.atomic
def post(
    user: AbstractBaseUser,
    delta: int,
    kind: str,
    *,
    hand: Any = None,
    penalty: Any = None,
    note: str = "",
    by: AbstractBaseUser | None = None,
    keep: int = 0,
) -> LedgerEntry:
    """Add `delta` to the balance, never below 0 (RULES §1.5), and append the entry.

    `keep`: a loss stops there instead (points held by the player's running hands at other
    tables, games.table.holds). The entry records the delta actually applied (a loser pays at
    most what they have).
    """
    profile = Profile.objects.select_for_update().get(user=user)
    applied = max(delta, min(0, max(0, keep) - profile.balance))
    profile.balance += applied
    profile.save(update_fields=["balance"])
    return LedgerEntry.objects.create(
        user=user,
        delta=applied,
        balance_after=profile.balance,
        kind=kind,
        hand=hand,
        penalty=penalty,
        note=note[:200],
        created_by=by,
    )


@transaction.atomic
def open_account(user: AbstractBaseUser, starting_balance: int) -> Profile:
    """Create the profile at 0 and grant the starting balance through the ledger; a no-op if it exists."""
    profile, created = Profile.objects.get_or_create(user=user, defaults={"balance": 0})
    if created and starting_balance:
        post(user, starting_balance, Kind.STARTING_GRANT)
        profile.refresh_from_db()
    return profile


def ledger_sum(user: AbstractBaseUser) -> int:
    return LedgerEntry.objects.filter(user=user).aggregate(total=Sum("delta"))["total"] or 0


# The live-play code names its reasons; these are their ledger kinds.
KIND_FOR_REASON = {
    "hand": Kind.HAND_RESULT,
    "escape": Kind.PENALTY,
    "escape_share": Kind.PENALTY_SHARE,
}


def kind_for(reason: str) -> str:
    return KIND_FOR_REASON.get(reason, reason if reason in Kind.values else Kind.ADJUSTMENT)
