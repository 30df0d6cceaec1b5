"""Seating people and bots at a tournament table inside a table change (`games.table.store.Change`).

A tournament seats its players itself, without `sit`: the stake is virtual (no points floor),
nobody chooses or accepts it, and a player banned since signing up still has their seat played
by 托管 (the escape rules they earned apply as anywhere, the event goes on)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from accounts.services import balance_or_none
from games.history.ranks import seat_rank
from games.models import Seat
from games.table import snapshots
from games.table.store import Change

TOURNAMENT_BOT_LEVEL = "normal"


def seat_person(t: Change, seat: Seat, user_id: int, auto: bool = False) -> None:
    user = get_user_model().objects.get(pk=user_id)
    seat.user = snapshots.light_user(user.pk, user.get_username(), balance_or_none(user))
    seat.is_bot = False
    seat.sat_at = t.now
    seat.rank = seat_rank(user.pk, t.table.variant)
    seat.accepted = True
    seat.continue_choice = True
    seat.connections = 0
    seat.disconnected_at = None
    seat.auto = auto
    seat.left = False
    t.table.notices.pop(str(user.pk), None)


def to_bot(t: Change, seat: Seat) -> None:
    """A bot plays this seat from now on (it scores for nobody)."""
    seat.user = None
    seat.is_bot = True
    seat.bot_level = TOURNAMENT_BOT_LEVEL
    seat.accepted = True
    seat.continue_choice = True
    seat.connections = 0
    seat.disconnected_at = None
    seat.auto = seat.left = False
    seat.pending = seat.pending_until = None
    seat.sat_at = t.now
    seat.rank = None
