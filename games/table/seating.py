"""Who sits where: sitting down, standing up, bots, and what freeing a seat does to the stake
and the match. Also the checks other commands share (seated? may manage the seats?)."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.engine.bots import DEFAULT_LEVEL, check_level
from games.engine.errors import EngineError
from games.history.ranks import seat_rank
from games.models import Match, Seat, Table
from games.moderation.penalties import active_ban, ban_message
from games.table import holds, snapshots
from games.table.errors import ServiceError
from games.table.loaded import Loaded
from games.table.store import Change

INSUFFICIENT_POINTS = "您的积分不足，不能进行下一局"


# --- the checks commands share ---------------------------------------------------------------


def require_login(_t: Loaded, user: AbstractBaseUser | None) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to play")


def require_seat(t: Loaded, user: AbstractBaseUser | None) -> Seat:
    require_login(t, user)
    seat = t.seat_of(user)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated at this table")
    return seat


def require_manager(t: Loaded, user: AbstractBaseUser | None) -> None:
    """Bots are added or removed (and a hand started) by a seated person, or the owner."""
    require_login(t, user)
    assert user is not None
    if t.seat_of(user) is None and t.table.owner_id != user.pk:
        raise ServiceError("not_seated", "only seated people or the owner may do that")


def require_between_hands(t: Loaded) -> None:
    if t.table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed", "the table is closed")
    if t.hand_running:
        raise ServiceError("hand_running", "not while a hand is being played")


def seat_at(t: Loaded, index: Any) -> Seat:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(t.seats):
        raise ServiceError("bad_seat", f"seat must be 0–{len(t.seats) - 1}")
    return t.seats[index]


def humans(t: Loaded) -> list[Seat]:
    return [s for s in t.seats if s.user_id is not None]


# --- the commands ----------------------------------------------------------------------------


def sit(t: Change, user: AbstractBaseUser, index: Any, socket_id: int | None = None) -> None:
    """`socket_id`: asked over this socket of the table (its OpenSocket), counted as a
    spectator's, which from now on counts for the seat (no second change: see
    `presence.move_presence`)."""
    from games.table.presence import move_socket  # (presence builds on seating)

    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to sit down")
    ban = active_ban(user, t.now)  # the abandonment policy (games.moderation.penalties)
    if ban is not None:
        raise ServiceError("banned", ban_message(ban))
    require_between_hands(t)
    if t.seat_of(user) is not None:
        raise ServiceError("already_seated", "you already have a seat here")
    seat = seat_at(t, index)
    if not seat.empty:
        raise ServiceError("seat_taken", "that seat is taken")
    table = t.table
    balance, held = refuse_too_many_seats(user, table.pk)
    # 50 × base (or 50 while no stake is set) of points no running hand elsewhere holds
    if max(0, (balance or 0) - held) < table.minimum_balance:
        raise ServiceError("insufficient_points", INSUFFICIENT_POINTS)
    # A light copy with the balance just read: the snapshot of this change needs no query for
    # it, and the caller's user object (a socket's, long-lived) gets no profile cached.
    seat.user = snapshots.light_user(user.pk, user.get_username(), balance)
    seat.sat_at = t.now
    seat.rank = seat_rank(user.pk, table.variant)  # shown beside the name
    seat.accepted = False
    seat.continue_choice = None
    seat.connections = 0
    seat.disconnected_at = None
    if table.stake_chooser_id is None:  # the first person to sit sets the stake (§1.2)
        table.stake_chooser = user
    table.notices.pop(str(user.pk), None)
    if socket_id is not None:
        move_socket(t, socket_id, seat)


def refuse_too_many_seats(user: AbstractBaseUser, table_id: int) -> tuple[int | None, int]:
    """One account sits at `SEATS_PER_USER` open tables at most (its profile row locked after the
    table's, as a settlement locks them: two sit-downs at once are counted one after the other).
    Returns the balance the lock read (None: no profile), as `balance_or_none` would now, and
    what the account's running hands at other tables hold (`holds.held_elsewhere`), read with
    the count after the lock: two precompiled statements at every sit-down."""
    balance = holds.lock_balance(user)  # first, alone: the count is read after the lock is held
    seats, held = holds.seats_and_held(user, table_id)
    if seats >= settings.SEATS_PER_USER:
        message = _("You may sit at %(n)d tables at most; leave one of them first.") % {
            "n": settings.SEATS_PER_USER
        }
        raise ServiceError("too_many_seats", message)
    return balance, held


def stand(t: Change, user: AbstractBaseUser) -> None:
    seat = require_seat(t, user)
    require_between_hands(t)
    free_seat(t, seat)
    after_seat_change(t)


def add_bot(t: Change, user: AbstractBaseUser, index: Any, level: Any = DEFAULT_LEVEL) -> None:
    """A bot of `level` (easy | normal | strong | expert) takes the empty seat `index`."""
    try:
        level = check_level(level)
    except EngineError as e:
        raise ServiceError(e.code, e.message) from None
    require_manager(t, user)
    require_between_hands(t)
    seat = seat_at(t, index)
    if not seat.empty:
        raise ServiceError("seat_taken", "that seat is taken")
    seat.is_bot = True
    seat.bot_level = level
    seat.accepted = t.table.stake_state != Table.Stake.UNSET  # bots accept any stake
    seat.continue_choice = True
    seat.sat_at = t.now
    fix_stake_if_ready(t)


def remove_bot(t: Change, user: AbstractBaseUser, index: Any) -> None:
    require_manager(t, user)
    require_between_hands(t)
    seat = seat_at(t, index)
    if not seat.is_bot:
        raise ServiceError("not_a_bot", "there is no bot in that seat")
    free_seat(t, seat)
    after_seat_change(t)


# --- what freeing a seat does ------------------------------------------------------------------


def fix_stake_if_ready(t: Change) -> None:
    table = t.table
    if table.stake_state == Table.Stake.PROPOSED and all(not s.empty and s.accepted for s in t.seats):
        table.stake_state = Table.Stake.FIXED


def free_seat(t: Change, seat: Seat) -> None:
    """Empty a seat; the base stake follows RULES §1.2 when its chooser or setter goes."""
    table = t.table
    user_id = seat.user_id
    seat.user = None
    seat.is_bot = False
    seat.accepted = False
    seat.connections = 0
    seat.disconnected_at = None
    seat.server_cut = False
    seat.continue_choice = None
    seat.auto = seat.left = False
    seat.pending = seat.pending_until = None
    seat.sat_at = None
    seat.rank = None
    seat.ban_if_escaping = None
    if user_id is None:
        return
    others = [s for s in humans(t) if s.user_id != user_id]
    if table.stake_setter_id == user_id:
        # The setter left: reset, and a randomly chosen seated person sets it again.
        table.base = None
        table.stake_state = Table.Stake.UNSET
        table.stake_setter = None
        table.stake_chooser = random.choice(others).user if others else None
        for s in t.seats:
            s.accepted = s.is_bot
    elif table.stake_chooser_id == user_id:
        # The chooser left before setting it: the next seated person (earliest to sit) is asked.
        others.sort(key=lambda s: (s.sat_at or t.now, s.index))
        table.stake_chooser = others[0].user if others else None


def after_seat_change(t: Change) -> None:
    """A seat was freed between hands: the match (fixed players) is over."""
    table = t.table
    if table.match_id and not t.hand_running:
        Match.objects.filter(pk=table.match_id, ended__isnull=True).update(ended=t.now)
        if table.status == Table.Status.PLAYING:
            table.status = Table.Status.WAITING
