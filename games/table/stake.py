"""The base stake (底分, RULES §1.2): who sets it, accepting it, and the 50 × base points floor."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engine.rulesets import MAX_BASE, get_ruleset
from games.models import Seat, Table
from games.table import holds
from games.table.errors import ServiceError
from games.table.loaded import Loaded
from games.table.seating import INSUFFICIENT_POINTS, fix_stake_if_ready, humans, require_seat
from games.table.store import Change
from games.tournaments.hooks import virtual_stake


def validate_stake(variant: str, base: Any) -> int:
    if isinstance(base, bool) or not isinstance(base, int):
        try:
            base = int(str(base).strip())
        except ValueError:
            raise ServiceError("bad_stake", "the base stake must be a whole number") from None
    if not 1 <= base <= MAX_BASE:
        raise ServiceError("bad_stake", f"the base stake must be between 1 and {MAX_BASE}")
    rules = get_ruleset(variant)
    if rules.even_stake and base % 2:
        raise ServiceError("bad_stake", f"{rules.name_zh} needs an even base stake")
    return base


def may_set_stake(t: Loaded, user: AbstractBaseUser | None) -> bool:
    """The chooser sets the stake; at a table with nobody seated (bots only) the owner does."""
    if user is None or not user.is_authenticated or t.table.stake_state == Table.Stake.FIXED:
        return False
    if t.table.stake_chooser_id is not None:
        return t.table.stake_chooser_id == user.pk and t.seat_of(user) is not None
    return not humans(t) and t.table.owner_id == user.pk


def set_stake(t: Change, user: AbstractBaseUser, base: Any) -> None:
    table = t.table
    if table.stake_state == Table.Stake.FIXED:
        raise ServiceError("stake_fixed", "the base stake is fixed")
    if not may_set_stake(t, user):
        require_seat(t, user)
        raise ServiceError("not_stake_chooser", "another player sets the base stake")
    seat = t.seat_of(user)
    base = validate_stake(table.variant, base)
    if seat is not None:  # the setter plays at this stake (an owner of a bots-only table does not)
        require_points(user, base, table.pk)
    table.base = base
    table.stake_state = Table.Stake.PROPOSED
    table.stake_setter = user
    for s in t.seats:
        s.accepted = s.is_bot or s is seat
    fix_stake_if_ready(t)


def accept_stake(t: Change, user: AbstractBaseUser) -> None:
    seat = require_seat(t, user)
    if t.table.stake_state == Table.Stake.UNSET:
        raise ServiceError("stake_unset", "the base stake has not been set yet")
    if seat.accepted:
        raise ServiceError("already_accepted", "you already accepted the base stake")
    require_points(user, t.table.base or 1, t.table.pk)
    seat.accepted = True
    fix_stake_if_ready(t)


def require_points(user: AbstractBaseUser, base: int, table_id: int | None = None) -> None:
    """The 50 × base floor (RULES §1.6), checked wherever a player could cross it, on the points
    their running hands at other tables do not hold (games.table.holds)."""
    if holds.available(user, table_id) < Table.minimum_for(base):
        raise ServiceError("insufficient_points", INSUFFICIENT_POINTS)


def short_of_points(t: Loaded) -> list[Seat]:
    """Seated people whose balance (read now), less what their running hands elsewhere hold, is
    below the table's floor. Before a hand starts: their accounts are locked first, so two tables
    starting on the same points at once see each other's hold."""
    if virtual_stake(t.table):
        return []  # a tournament's virtual stake has no floor
    people = humans(t)
    available = holds.available_after_lock([s.user for s in people], t.table.pk)
    return [s for s in people if available[s.user_id] < t.table.minimum_balance]
