"""When things happen at a table: the pause after a discard, the claim window's secrecy, the
seats' timers, the Continue countdown and the clock's next deadline. Reads only (no writes):
the commands, the presenters and the clock share these answers."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from django.conf import settings

from games.engine.actions import legal_actions, seats_to_act
from games.engine.state import HandState
from games.models import Hand, Seat, Table
from games.table.loaded import Loaded

BOT_DELAY = (0.6, 1.5)  # seconds: bots and 托管 act after a short human-like pause
DISCONNECTED_DELAY = 2.0  # seconds into a decision before a disconnected player is auto-played
RECONNECT_WINDOW = 5.0  # seconds a socket that just dropped (a reload) has to come back first
SETTLEMENT_SECONDS = 6.0  # an all-bot table shows the settlement this long before the next hand


def rng(hand: Hand, step: int, seat: int, salt: str) -> random.Random:
    """The hand's own chance for one seat at one step (bots' choices and delays): replayable."""
    return random.Random(f"{hand.seed}:{step}:{seat}:{salt}")


def seat_due(ctx: Loaded, seat: Seat) -> datetime | None:
    """When the server acts for an awaited seat (bot, 托管, disconnected or timed out)."""
    table, state, hand = ctx.table, ctx.state, ctx.hand
    if state is None or hand is None or table.act_since is None or seat.pending is not None:
        return None
    if seat.is_bot or seat.left or seat.auto or locked_by_ready(state, seat.index):
        delay = rng(hand, state.step, seat.index, "delay").uniform(*BOT_DELAY)
        return table.act_since + timedelta(seconds=delay)
    seconds = table.claim_seconds if state.phase == "claim" else table.turn_seconds
    timer = table.act_since + timedelta(seconds=seconds) if seconds else None  # 0: a table with no timer
    if seat.connected:
        return timer
    # 托管 two seconds into each decision, so a table does not wait for a player who is gone; but
    # a player whose page is reloading (its socket just closed) gets a few seconds from the
    # disconnect to come back, or a reload in the middle of a turn would lose the turn.
    due = table.act_since + timedelta(seconds=DISCONNECTED_DELAY)
    if seat.disconnected_at is not None:
        due = max(due, seat.disconnected_at + timedelta(seconds=RECONNECT_WINDOW))
    return due if timer is None else min(due, timer)


def locked_by_ready(state: HandState, seat: int) -> bool:
    """A declared-ready (报听) hand whose only move is to discard the tile it drew: the server
    draws and discards for it, as the two-player rules page says, at any table (a table with no
    timer too); it is asked only when it may win (a win is then among its moves)."""
    if state.phase != "turn" or state.turn != seat or not state.players[seat].ready:
        return False
    moves = legal_actions(state, seat)
    return len(moves) == 1 and moves[0].type == "discard"


def awaited(ctx: Loaded) -> list[Seat]:
    """The seats the hand waits for (their timers start when the pause ends: `act_since`)."""
    if ctx.state is None:
        return []
    return [ctx.seats[i] for i in seats_to_act(ctx.state)]


def paused(table: Table, now: datetime) -> bool:
    """Within the minimum pause after a discard. The pause ends by itself: nothing is written
    when it ends (one write and one version fewer per discard); checks and renderers compare
    `pause_until` with the time, and sockets render again when it passes (games.consumers)."""
    return table.pause_until is not None and table.pause_until > now


def in_window(ctx: Loaded, seat: int | None) -> bool:
    """Whether `seat` is in the claim window open now: it may still answer, or its claim is held."""
    state = ctx.state
    if seat is None or state is None or state.phase != "claim" or state.window is None:
        return False
    return seat in state.window.waiting_for() or ctx.seats[seat].pending is not None


def veiled(ctx: Loaded, seat: int | None) -> bool:
    """Whether this viewer sees the pause after a discard instead of the hand (docs/protocol.md,
    "Claim windows"): everybody while the pause runs, except the seats in a claim window; and
    everybody outside a window for as long as it stays open. So nobody outside can tell whether
    a window opened, who is in it, or how they answer — only that play took longer."""
    state = ctx.state
    if state is None or state.phase == "over":
        return False
    if state.phase != "claim" and not paused(ctx.table, ctx.now):
        return False
    return not in_window(ctx, seat)


def moved_on(ctx: Loaded) -> bool:
    """Play moved on from the pause after a discard (and the window it opened, if any) and
    nothing anybody sees changed since: the table shows the second version the discard counted
    (`store.Change.commit` sets the decision at the first)."""
    state, table = ctx.state, ctx.table
    if state is None or state.phase in ("claim", "over") or table.pause_until is None:
        return False
    return not paused(table, ctx.now) and table.version == table.decision_version + 1


def shown_version(ctx: Loaded) -> int:
    """The version frames carry now: during the pause after a discard (and any window it opened)
    the one before `Table.version`, which counts the discard twice (`store.Change.commit`)."""
    state, table = ctx.state, ctx.table
    if state is not None and state.phase != "over" and (state.phase == "claim" or paused(table, ctx.now)):
        return table.version - 1
    return table.version


def pause_left_ms(table: Table, now: datetime) -> int:
    """Milliseconds of the pause still to run (0: none)."""
    if not paused(table, now):
        return 0
    assert table.pause_until is not None
    return max(1, math.ceil((table.pause_until - now).total_seconds() * 1000))


def everyone_continues(ctx: Loaded) -> bool:
    return all(not s.empty and s.continue_choice and s.accepted for s in ctx.seats)


def settlement_over(ctx: Loaded) -> datetime | None:
    """When an all-bot (everyone continued) table's settlement has been on show long enough."""
    hand = ctx.hand
    if not (ctx.hand_over and hand is not None and hand.ended and everyone_continues(ctx)):
        return None
    return hand.ended + timedelta(seconds=SETTLEMENT_SECONDS)


def set_deadline(ctx: Loaded) -> None:
    """The clock's next call for this table: the earliest thing due (`timers.timeout`)."""
    table = ctx.table
    due: list[datetime] = []
    for seat in ctx.seats:
        if seat.pending_until is not None:
            due.append(seat.pending_until)
        if seat.user_id and not seat.connected and not seat.left and seat.disconnected_at is not None:
            due.append(seat.disconnected_at + timedelta(seconds=table.grace_seconds))
    for seat in awaited(ctx):
        when = seat_due(ctx, seat)
        if when is not None:
            due.append(when)
    until = settlement_over(ctx) or continue_deadline(ctx)
    if until is not None:
        due.append(until)
    table.deadline = min(due) if due else None
    table.deadline_version = table.revision


def continue_seconds() -> float:
    """How long a player has to press Continue after a settlement (settings.CONTINUE_SECONDS)."""
    return float(getattr(settings, "CONTINUE_SECONDS", 60))


def continue_deadline(ctx: Loaded) -> datetime | None:
    """When the players of the hand who chose neither Continue nor Leave are stood up; None
    when nobody owes the choice (outside a settlement, or everyone decided)."""
    hand = ctx.hand
    if not ctx.in_settlement or hand is None or hand.ended is None:
        return None
    if not any(s.user_id and s.continue_choice is None for s in ctx.seats):
        return None
    return hand.ended + timedelta(seconds=continue_seconds())


def continue_left_ms(ctx: Loaded, seat: Seat | None) -> int | None:
    """Milliseconds `seat` has left to press Continue (None: it owes no such choice)."""
    until = continue_deadline(ctx)
    if until is None or seat is None or not seat.user_id or seat.continue_choice is not None:
        return None
    return max(0, math.ceil((until - ctx.now).total_seconds() * 1000))


def remaining_ms(ctx: Loaded, seat: int | None) -> int | None:
    """Milliseconds left on `seat`'s own countdown (the human timer of this decision), None when
    the hand does not wait for it: nobody sees another seat's timer (a claim timer would say
    that a window is open)."""
    table, state = ctx.table, ctx.state
    if state is None or table.act_since is None or state.phase == "over" or seat is None:
        return None
    if seat not in seats_to_act(state) or ctx.seats[seat].pending is not None or veiled(ctx, seat):
        return None
    seconds = table.claim_seconds if state.phase == "claim" else table.turn_seconds
    if not seconds:
        return None  # no timer (a private practice table)
    left = (table.act_since + timedelta(seconds=seconds) - ctx.now).total_seconds()
    return max(0, int(left * 1000))
