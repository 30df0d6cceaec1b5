"""What the clock does at a table past its deadline (games.clock.ticks calls `timeout`): commit held
claims after their undo window, the grace period's escape, bots, 托管 and timed-out players, the
Continue countdown, and the next hand of an all-bot table."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from games.engine.actions import Action
from games.models import HandAction
from games.moderation.models import Penalty
from games.table import timing
from games.table.changes import change
from games.table.errors import ServiceError
from games.table.play import append, begin_hand, escape, ready_to_start, server_action
from games.table.seating import after_seat_change, free_seat
from games.table.store import Change

log = logging.getLogger(__name__)

NOT_CONTINUED = "您没有选择继续，已离开座位 (you did not choose Continue and were stood up)"


def timeout(table_id: int, expected_revision: int, now: datetime | None = None) -> bool:
    """Do whatever is due at a table (the clock calls this past `deadline`).

    A stale call (the revision moved on) is a no-op. Returns whether anything changed.
    """
    with change(table_id, now) as t:
        table = t.table
        if table.revision != expected_revision:
            return False
        _commit_pending_claims(t)
        _expire_disconnected(t)
        for _ in range(64):  # bounded: each pass applies at most one action per awaited seat
            if not _play_due_seats(t):
                break
        _stand_up_undecided(t)
        shown_until = timing.settlement_over(t)
        if shown_until is not None and shown_until <= t.now and ready_to_start(t) is None:
            begin_hand(t)
        changed = t.changed
        if not changed:
            timing.set_deadline(t)  # nothing was due after all: move the deadline on, quietly
            if table.deadline is not None and table.deadline <= t.now:
                table.deadline = t.now + timedelta(seconds=1)  # never spin on a stuck deadline
            t.write_quietly(["deadline", "deadline_version"])
    return changed


def _stand_up_undecided(t: Change) -> None:
    """Nobody may hold a table hostage: a player who chose neither Continue nor Leave within
    `continue_seconds()` of the settlement is stood up. The hand is over, so it is no escape:
    no penalty, no ban, whatever the table (a quick match included).
    Only during the settlement (`continue_deadline`): someone who sits down afterwards did not
    play that hand and is never stood up for it (else
    a finished table stood up everyone who sat down later, and nobody could join it)."""
    until = timing.continue_deadline(t)
    if until is None or until > t.now:
        return
    assert t.hand is not None
    undecided = [s for s in t.seats if s.user_id and s.continue_choice is None]
    for seat in undecided:
        t.table.notices[str(seat.user_id)] = NOT_CONTINUED
        free_seat(t, seat)
    if undecided:
        after_seat_change(t)


def _commit_pending_claims(t: Change) -> None:
    for seat in t.seats:
        if seat.pending is None or seat.pending_until is None or seat.pending_until > t.now:
            continue
        action = Action.from_json(seat.pending)
        seat.pending = seat.pending_until = None
        if t.hand_running:
            try:
                append(t, seat.index, action, HandAction.Actor.HUMAN)
            except ServiceError as e:  # cannot happen while the window waits for this seat
                log.warning("pending claim of seat %s dropped: %s", seat.index, e)


def _expire_disconnected(t: Change) -> None:
    grace = timedelta(seconds=t.table.grace_seconds)
    for seat in t.seats:
        if not seat.user_id or seat.connected or seat.left or seat.disconnected_at is None:
            continue
        if seat.disconnected_at + grace > t.now:
            continue
        if t.hand_running:
            escape(t, seat, Penalty.Reason.DISCONNECT)
        else:  # between hands: the seat is freed, no escape
            free_seat(t, seat)
            after_seat_change(t)


def _play_due_seats(t: Change) -> bool:
    """Act for every awaited seat whose time has come; True if something was applied."""
    for seat in timing.awaited(t):
        when = timing.seat_due(t, seat)
        if when is None or when > t.now:
            continue
        action, actor = server_action(t, seat)
        if action is None:
            continue
        append(t, seat.index, action, actor)
        return t.hand_running
    return False
