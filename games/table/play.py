"""Playing a hand: starting it, the players' actions (a claim held for its undo window, undo,
托管), continuing after a settlement, and leaving — between hands or, mid-hand, an escape."""

from __future__ import annotations

import logging
import secrets
import time
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engine.actions import Action, auto_action, legal_actions, new_hand, seats_to_act
from games.engine.bots import decide
from games.engine.errors import EngineError, NotYourTurn
from games.engine.match import MatchPlace
from games.engine.state import HandState
from games.engine.wall import new_salt
from games.models import EAST, Hand, HandAction, Match, Seat, Table
from games.moderation.models import Penalty
from games.moderation.penalties import bans_if_escaping, record_escape
from games.table import hand_log, settlement, timing
from games.table.errors import ServiceError
from games.table.loaded import Loaded
from games.table.seating import (
    INSUFFICIENT_POINTS,
    after_seat_change,
    free_seat,
    humans,
    require_manager,
    require_seat,
)
from games.table.stake import short_of_points
from games.table.store import Change
from games.tournaments import hooks as tournament_hooks

log = logging.getLogger(__name__)
# A bot decision slower than this is logged as a warning (expert's budget keeps its p99 below;
# docs/bots.md, "Speed"); every decision is logged at DEBUG with its time.
SLOW_BOT_MS = 300.0
SHORT_OF_POINTS = "every seated player needs at least %d points (50 × the base stake)"
CLAIM_TYPES = frozenset({"chi", "pong", "kong", "win"})
START_ERRORS = {
    "table_closed": "the table is closed",
    "hand_running": "a hand is being played",
    "seats_empty": "every seat must be filled (people or bots)",
    "stake_not_accepted": "everyone must accept the base stake first",
}


# --- the players' actions ----------------------------------------------------------------------


def act(t: Change, user: AbstractBaseUser, action_json: Any) -> None:
    """A seated person's hand action. A claim is held for the undo window first."""
    try:
        action = Action.from_json(action_json)
    except EngineError as e:
        raise ServiceError(e.code, e.message) from None
    seat = require_seat(t, user)
    if not t.hand_running:
        raise ServiceError("no_hand", "no hand is being played")
    if seat.left:
        raise ServiceError("left", "you left this hand")
    if seat.pending is not None:
        raise ServiceError("claim_pending", "your claim is pending; undo it first")
    state = t.state
    assert state is not None
    if timing.veiled(t, seat.index):
        # The pause after a discard, and for every seat outside a claim window the window
        # too: the engine's own answer to a seat with nothing to do, so that an early action
        # reads the same whether a window is open, the pause runs, or play has moved on.
        raise ServiceError("not_your_turn", NotYourTurn().message)
    if state.phase == "claim" and action.type in CLAIM_TYPES and t.table.undo_ms:
        if action not in legal_actions(state, seat.index):
            append(t, seat.index, action, HandAction.Actor.HUMAN)  # raises the engine's error
        seat.pending = action.to_json()
        seat.pending_until = t.now + timedelta(milliseconds=t.table.undo_ms)
    else:
        append(t, seat.index, action, HandAction.Actor.HUMAN)


def undo(t: Change, user: AbstractBaseUser) -> None:
    seat = require_seat(t, user)
    if seat.pending is None:
        raise ServiceError("nothing_to_undo", "there is no claim to undo (it may have gone through)")
    seat.pending = seat.pending_until = None


def set_auto(t: Change, user: AbstractBaseUser, on: Any) -> None:
    """托管: the player asks the server to play for them (or stops it)."""
    seat = require_seat(t, user)
    if not isinstance(on, bool):
        raise ServiceError("bad_action", "'on' must be true or false")
    if seat.left:
        raise ServiceError("left", "you left this hand")
    seat.auto = on


def append(t: Change, seat: int, action: Action, actor: str) -> None:
    """Log one hand action (`store.Change.append`) and what follows from it: the hand's end,
    the pause after a discard, a new decision."""
    before = t.append(seat, action, actor)
    after = t.state
    assert after is not None
    seat_row = t.seats[seat]
    seat_row.pending = None
    seat_row.pending_until = None
    if after.phase == "over":
        settlement.finish_hand(t)
        return
    table = t.table
    if action.type == "discard" or (action.type == "kong" and action.kind == "added"):
        # After EVERY discard and every added kong play pauses for the same minimum, claimable
        # (robbable) or not: timing reveals nothing. Only the action that may open a window pauses:
        # an answer within one (a pass, a claim) neither restarts the pause nor begins a new
        # decision (a restart would tell the others that somebody may claim).
        table.pause_until = t.now + timedelta(milliseconds=table.min_pause_ms)
        table.act_since = table.pause_until
        t.new_decision(pause=True)
        if after.phase == "claim":
            answer_for_the_server(t)
    elif _decision(before) != _decision(after):
        # a window resolved (or a turn began): its timer starts when the pause is over
        table.act_since = max(t.now, table.pause_until) if table.pause_until else t.now
        t.new_decision()


def answers_at_once(seat: Seat) -> bool:
    """A seat the server answers for the moment a claim window opens: a bot, 托管, an escaped
    player. Their answer lands inside the pause every discard has, so the window is closed (its
    outcome veiled) when the pause ends, exactly when a discard nobody could claim shows its
    next draw: an outsider's frames, times and errors are the same either way. (A bot answering
    after a human-like delay past the pause let anybody time the window: who could claim.)"""
    return seat.is_bot or seat.left or seat.auto


def _log_decision(table_id: int, seat: int, level: str, ms: float) -> None:
    if ms > SLOW_BOT_MS:
        log.warning("bot decision: table %s seat %s level %s took %.1f ms", table_id, seat, level, ms)
    else:
        log.debug("bot decision: table %s seat %s level %s took %.1f ms", table_id, seat, level, ms)


def server_action(t: Loaded, seat: Seat) -> tuple[Action | None, str]:
    """What the server plays for a seat it plays (a bot at its level, else the automatic move)."""
    state, hand = t.state, t.hand
    assert state is not None and hand is not None
    if seat.is_bot:
        chance = timing.rng(hand, state.step, seat.index, "bot")
        started = time.perf_counter()
        action = decide(seat.bot_level, state, seat.index, chance)
        _log_decision(t.table.pk, seat.index, seat.bot_level, (time.perf_counter() - started) * 1000)
        return action, HandAction.Actor.BOT
    # a declared-ready hand discarding its draw is the rules' own play, not a timeout
    by_server = seat.played_by_server or timing.locked_by_ready(state, seat.index)
    actor = HandAction.Actor.AUTO if by_server else HandAction.Actor.TIMEOUT
    return auto_action(state, seat.index), actor


def answer_for_the_server(t: Change) -> None:
    """Answer a claim window at once for every seat in it the server plays (`answers_at_once`)."""
    for _ in range(len(t.seats)):  # each answer leaves one seat fewer to wait for
        state = t.state
        if state is None or state.phase != "claim":
            return
        seat = next((t.seats[i] for i in seats_to_act(state) if answers_at_once(t.seats[i])), None)
        if seat is None:
            return
        action, actor = server_action(t, seat)
        if action is None:
            return
        append(t, seat.index, action, actor)


def _decision(state: HandState) -> tuple[Any, ...]:
    """What the hand waits for; a new decision restarts the timers."""
    w = state.window
    return (state.phase, state.turn, w.seat if w else None, w.tile if w else None, w.kind if w else None)


# --- starting and continuing -------------------------------------------------------------------


def ready_to_start(t: Loaded) -> str | None:
    """None when a hand may start, else the error code why not (START_ERRORS)."""
    if t.table.status == Table.Status.CLOSED:
        return "table_closed"
    if t.hand_running:
        return "hand_running"
    if any(s.empty for s in t.seats):
        return "seats_empty"
    if t.table.stake_state != Table.Stake.FIXED or not all(s.accepted for s in t.seats):
        return "stake_not_accepted"
    return None


def start_hand(t: Change, user: AbstractBaseUser | None) -> None:
    """`user` None: the server starts it (a quick match)."""
    if user is not None:
        require_manager(t, user)
    if t.in_settlement:
        raise ServiceError("hand_over", "choose continue or leave")
    problem = ready_to_start(t)
    if problem:
        raise ServiceError(problem, START_ERRORS[problem])
    if short_of_points(t):
        raise ServiceError("insufficient_points", SHORT_OF_POINTS % t.table.minimum_balance)
    begin_hand(t, points_checked=True)


def continue_play(t: Change, user: AbstractBaseUser) -> None:
    seat = require_seat(t, user)
    if not t.in_settlement:
        raise ServiceError("no_hand_over", "there is no finished hand to continue from")
    if seat.continue_choice:
        raise ServiceError("already_continued", "you already chose to continue")
    seat.continue_choice = True
    if timing.everyone_continues(t) and ready_to_start(t) is None:
        begin_hand(t)


def _stand_up_short(t: Change) -> bool:
    """Before a hand the server starts by itself (everyone continued): stand up whoever fell
    below the floor since the last settlement, with the §1.6 message. True if anyone was."""
    short = short_of_points(t)
    for seat in short:
        t.table.notices[str(seat.user_id)] = INSUFFICIENT_POINTS
        free_seat(t, seat)
    if short:
        after_seat_change(t)
    return bool(short)


def begin_hand(t: Change, points_checked: bool = False) -> None:
    """`points_checked`: nobody is short of points (`short_of_points`, with the accounts locked
    in this transaction: read again, it would say the same)."""
    if not points_checked and _stand_up_short(t):  # a next hand after Continue: nobody plays below the floor
        return
    table = t.table
    if tournament_hooks.held(table):  # paused by the organiser, or the round is over here
        return
    players = [s.user_id for s in t.seats]
    match = Match.objects.filter(pk=table.match_id).first() if table.match_id else None
    if match is None or match.ended is not None or match.players != players:
        if match is not None and match.ended is None:
            match.ended = t.now
            match.save(update_fields=["ended"])
        match = Match.objects.create(table=table, players=players)
        table.match = match
        # RULES §1.3: the first dealer is chosen at random; the round starts with East.
        table.dealer = secrets.randbelow(table.players)
        table.round_wind = EAST
        table.counters = {}
    plan = tournament_hooks.planned_deal(table)  # duplicate deals fix the dealer and the salt
    if plan is not None:
        table.dealer, table.round_wind = plan.dealer, plan.round_wind
    number = match.hands.count() + 1
    first_dealer = match.hands.order_by("number").values_list("dealer", flat=True).first()
    place = MatchPlace(
        table.round_wind, table.dealer, table.dealer if first_dealer is None else first_dealer, table.players
    )
    setup = {
        "dealer": table.dealer,
        "round_wind": table.round_wind,
        "base": table.base or 1,
        "options": table.options or {},
        "counters": table.counters or {},
        # every chance of the hand; committed to before the deal (docs/fairness.md)
        "salt": (plan and plan.salt) or new_salt(),
    }
    seed = secrets.randbits(62)
    try:
        state = new_hand(table.variant, seed, **setup)
    except EngineError as e:
        raise ServiceError(e.code, e.message) from None
    hand = Hand.objects.create(
        table=table,
        match=match,
        number=number,
        seed=seed,
        dealer=table.dealer,
        round_wind=table.round_wind,
        round_hand=place.hand_in_round,
        setup=setup,
    )
    hand_log.remember_state((hand.pk, 0), state)
    table.hand = hand
    table.status = Table.Status.PLAYING
    table.act_since = t.now
    table.pause_until = None
    t.hand, t.state = hand, state
    t.new_decision()
    # the ban an escape from this hand would bring, stated on the board (renders never query)
    bans = bans_if_escaping([s.user_id for s in t.seats if s.user_id], t.now)
    for s in t.seats:
        s.continue_choice = True if s.is_bot else None
        s.pending = s.pending_until = None
        s.ban_if_escaping = int(bans[s.user_id].total_seconds() // 60) if s.user_id else None
    if state.phase == "over":  # a hand can end at the deal (eight flowers)
        settlement.finish_hand(t)


# --- leaving -------------------------------------------------------------------------------------


def leave(t: Change, user: AbstractBaseUser) -> None:
    """Leave the seat: between hands it is freed (never an escape); mid-hand a bot finishes the
    hand, and it is an escape when another person is at the table (RULES §1.8)."""
    seat = require_seat(t, user)
    if seat.left:
        raise ServiceError("already_left", "you already left; a bot finishes this hand")
    if t.hand_running:
        escape(t, seat, Penalty.Reason.ESCAPE)
    else:
        free_seat(t, seat)
        after_seat_change(t)


def wronged_by_leaving(t: Loaded, seat: Seat) -> list[Seat]:
    """The people an escape from `seat` now would wrong: the others still playing the running
    hand. None (an empty list) between hands, or when every other seat is a bot or has left:
    then leaving costs nothing (docs/operations.md "Stakes and escapes")."""
    if not t.hand_running or seat.left:
        return []
    return [s for s in humans(t) if s is not seat and not s.left]


def escape(t: Change, seat: Seat, reason: str) -> None:
    """Leave the running hand: a bot plays the seat to its end (the player still takes its
    result). With another person at the table it is an escape: the penalty row and the ban now,
    the points paid into the hand's settlement (games.moderation.penalties.settle_escapes)."""
    table, hand = t.table, t.hand
    assert hand is not None and seat.user is not None
    wronged = wronged_by_leaving(t, seat)
    seat.left = True
    seat.pending = seat.pending_until = None
    if not wronged:
        return  # bots only, or everyone else already gone: nobody to answer to
    if reason == Penalty.Reason.DISCONNECT and seat.server_cut:
        return  # its server process died under it (games.sockets.presence): nobody's fault
    record_escape(table, hand, seat.user, reason, seat.disconnected_at, t.now)
