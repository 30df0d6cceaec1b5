"""The admin's changes to live tables: close a table, kick a player, make a table private.

Each one goes through `games.table.changes.change` like any other change (lock, change, bump the
version, broadcast after commit). Neither closing nor kicking is the player's fault: nobody pays an escape
penalty or gets a ban for them (games.moderation.penalties only charges escapes the players chose).
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from games.engine.state import HandResult
from games.history.ratings import ADMIN_CLOSED
from games.models import Table
from games.table.changes import change
from games.table.errors import ServiceError
from games.table.seating import after_seat_change, free_seat
from games.table.settlement import finish_hand
from games.table.store import Change


def _settle_as_drawn(ctx: Change) -> None:
    """End the running hand as a draw with no payments (false wins and kongs dropped too)."""
    state = ctx.state
    assert state is not None
    result = HandResult(by=ADMIN_CLOSED, payments=(0,) * state.num_players, next_dealer=state.dealer)
    ctx.state = replace(state, phase="over", window=None, result=result, penalties=())
    finish_hand(ctx)  # the one place a hand is settled, scored and logged


def close_table(table_id: int) -> Table:
    """Settle a hand in progress as drawn, free every seat, end the match, close the table."""
    with change(table_id) as ctx:
        table = ctx.table
        if table.status == Table.Status.CLOSED:
            raise ServiceError("table_closed", "the table is already closed")
        if ctx.hand_running:
            _settle_as_drawn(ctx)
        for seat in ctx.seats:
            if seat.user_id:
                # the message id: the board says it in each player's language (rendering.labels)
                table.notices[str(seat.user_id)] = gettext_noop("An admin closed this table.")
            if not seat.empty:
                free_seat(ctx, seat)
        after_seat_change(ctx)
        table.status = Table.Status.CLOSED
        table.deadline = None
    return ctx.table


def kick(table_id: int, user: AbstractBaseUser) -> Table:
    """Free `user`'s seat. Mid-hand a bot plays it to the end of the hand (the player still takes
    that hand's result, as when leaving) and the seat is freed then, with no escape penalty."""
    with change(table_id) as ctx:
        seat = ctx.seat_of(user)
        if seat is None:
            raise ServiceError("not_seated", "that user is not seated at this table")
        ctx.table.notices[str(user.pk)] = gettext_noop("An admin removed you from this table.")
        if ctx.hand_running:
            seat.left = True
            seat.pending = seat.pending_until = None
        else:
            free_seat(ctx, seat)
            after_seat_change(ctx)
    return ctx.table


def make_private(table_id: int) -> Table:
    """Unlist the table: only its people and invite-link holders can open it."""
    with change(table_id) as ctx:
        ctx.table.public = False
    return ctx.table
