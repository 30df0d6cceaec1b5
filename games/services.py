"""Every change to a live table: one synchronous function per change (DESIGN principle 3).

Each one locks the Table row (`select_for_update` inside `transaction.atomic`), loads the
seats and the hand (replayed from its log), checks, applies through the engine, appends a
HandAction, bumps `Table.version`, sets the clock's next deadline and, only after commit,
tells the table's group `table-<id>` (and the lobby) the new version. A failed check raises
ServiceError before anything is written. The seat always comes from the user passed in.
"""

from __future__ import annotations

import copy
import logging
import math
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from accounts.services import balance_of, balance_or_none, change_balance
from games import broadcaster, caches, settings_store, snapshots
from games.engine.actions import Action, apply, auto_action, legal_actions, new_hand, replay, seats_to_act
from games.engine.bots import DEFAULT_LEVEL, check_level, decide
from games.engine.errors import EngineError
from games.engine.rulesets import MAX_BASE, VARIANT_IDS, get_ruleset
from games.engine.rulesets.base import only_between
from games.engine.state import HandState
from games.engine.view import view_for
from games.engine.wall import new_salt
from games.models import EAST, Hand, HandAction, Match, OpenSocket, Penalty, ScoreEntry, Seat, Table
from games.penalties import active_ban, ban_message, charge_escape, record_false_wins
from games.ranks import record_hand_ranks, seat_rank
from games.ratings import record_hand_ratings
from games.rows import RowSql

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
INSUFFICIENT_POINTS = "您的积分不足，不能进行下一局"
SHORT_OF_POINTS = "every seated player needs at least %d points (50 × the base stake)"
BOT_DELAY = (0.6, 1.5)  # seconds: bots and 托管 act after a short human-like pause
DISCONNECTED_DELAY = 2.0  # seconds into a decision before a disconnected player is auto-played
RECONNECT_WINDOW = 5.0  # seconds a socket that just dropped (a reload) has to come back first
SETTLEMENT_SECONDS = 6.0  # an all-bot table shows the settlement this long before the next hand
NOT_CONTINUED = "您没有选择继续，已离开座位 (you did not choose Continue and were stood up)"
BOT_BALANCE = 10**9  # bots have no account; a large notional balance for the balance floor
CLAIM_TYPES = frozenset({"chi", "pong", "kong", "win"})


@dataclass
class ServiceError(Exception):
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


# --- locking, loading, broadcasting --------------------------------------------------------


@dataclass
class Loaded:
    """A locked table with its seats (index order) and, during a match, its current hand."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    state: HandState | None
    now: datetime
    changed: bool = False
    lobby: bool = False
    new_decision: bool = False  # the hand now waits for something else (see Table.decision_version)
    pause_started: bool = False  # a discard (or an added kong) began a pause: see `_commit`
    veiled: bool = False  # a change within a claim window, for the seats in it only (`_seen_by_all`)
    shown: bool = False  # a change everybody sees, whatever fields it touched
    fresh_balances: bool = False  # balances changed (settlement, penalty): the snapshot reads them again
    spectators: int | None = None  # a fresher count than table.spectators (kept outside the version)
    states: dict[tuple[int, int], HandState] | None = None  # a snapshot's states of the hand, if any
    read: bool = False  # read from the database (no snapshot at its version in this process)

    def seat_of(self, user: AbstractBaseUser | None) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)

    @property
    def hand_running(self) -> bool:
        return self.state is not None and self.state.phase != "over"

    @property
    def hand_over(self) -> bool:
        return self.hand is not None and self.hand.status == Hand.Status.OVER

    @property
    def in_settlement(self) -> bool:
        """The hand is over and its players decide Continue or Leave. Once a seat is freed the
        match is over and the table waits like a new one (status WAITING): whoever sits then
        owes no Continue, so no Continue deadline can stand them up."""
        return self.hand_over and self.table.status == Table.Status.PLAYING


TABLE_ROWS = RowSql(Table)
SEAT_ROWS = RowSql(Seat)
HAND_ROWS = RowSql(Hand)
ACTION_ROWS = RowSql(HandAction)
SOCKET_ROWS = RowSql(OpenSocket)  # every socket's connect, sit-down over it and close
_TABLE_FIELDS = tuple(f.attname for f in Table._meta.concrete_fields if not f.primary_key)
_SEAT_FIELDS = tuple(f.attname for f in Seat._meta.concrete_fields if not f.primary_key)


def _values(row: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    """A row's field values as loaded; dicts and lists copied (services change them in place)."""
    return tuple(_frozen(getattr(row, name)) for name in names)


def _frozen(value: Any) -> Any:
    return copy.deepcopy(value) if isinstance(value, dict | list) else value


def _seat_values(seat: Seat) -> tuple[Any, ...]:
    return _values(seat, _SEAT_FIELDS)


def _changed(names: tuple[str, ...], before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
    return [n for n, a, b in zip(names, after, before, strict=True) if a != b]


def load(
    table: Table, now: datetime | None = None, seats: list[Seat] | None = None, hand: Hand | None = None
) -> Loaded:
    """Seats, hand and replayed state of a table (locked by the caller when it changes them).

    `seats` and `hand`: already known (a snapshot at the table's version), not read again."""
    if seats is None:  # two precompiled reads, not the ORM's three-table join
        seats = SEAT_ROWS.select([("table_id", "=", table.pk)], order=("index", "ASC"))
        snapshots.attach_users(seats)
    for seat in seats:
        seat._loaded_values = _seat_values(seat)  # type: ignore[attr-defined]  # _commit saves only changes
    if hand is None and table.hand_id:
        hand = Hand.objects.get(pk=table.hand_id)
    playing = hand is not None and hand.status == Hand.Status.PLAYING
    state = hand_state(hand, table.variant) if playing else None
    return Loaded(table, seats, hand, state, now or timezone.now())


# (version, same_decision) a client acted on, set by `perform` for the change it runs: checked by
# `locked` under its one lock of the table row (`_checked`).
_EXPECTED: ContextVar[tuple[int, bool] | None] = ContextVar("expected_version", default=None)


@contextmanager
def locked(table_id: int, now: datetime | None = None) -> Iterator[Loaded]:
    """Lock and load a table; save, bump the version and broadcast if `changed` was set."""
    with transaction.atomic():
        try:
            # Only the owner is joined: under READ COMMITTED a joined row that is not locked may
            # be older than the locked row (PostgreSQL re-reads only locked rows after waiting),
            # which is harmless for a name but not for the hand.
            table = TABLE_ROWS.lock(int(table_id))  # the same statement the ORM would send, precompiled
        except (TypeError, ValueError):
            table = None
        if table is None:
            raise ServiceError("no_table", "there is no such table")
        table._loaded_values = _values(table, _TABLE_FIELDS)  # type: ignore[attr-defined]  # _commit writes changes only
        expected = _EXPECTED.get()
        if expected is not None:
            _EXPECTED.set(None)  # the first lock of the change only
        ctx = _load_locked(table, now)
        if expected is not None:
            _check_version(ctx, *expected)  # (the version shown depends on the hand: `shown_version`)
        yield ctx
        if ctx.changed:
            _commit(ctx)
        elif ctx.read:
            _keep_read(ctx)


def _load_locked(table: Table, now: datetime | None) -> Loaded:
    """`load` for a locked table row. When this process's snapshot is at the row's version, its
    seats and hand are what the database holds (every change bumps the version), so a private
    copy of them is used instead of reading them again."""
    snapshot = snapshots.at(table.pk, table.revision, table.created)
    if snapshot is None:
        snapshots.attach_owner(table)  # the snapshot of the change names the owner
        ctx = load(table, now)
        ctx.read = True
        return ctx
    if table.owner_id is not None and table.owner_id == snapshot.table.owner_id:
        table.owner = snapshots.owner_copy(snapshot)
    _table, seats, hand = snapshots.unpack_rows(snapshot.blob)
    for key, state in snapshot.states.items():
        _remember(key, state)
    return load(table, now, seats, hand)


def _commit(ctx: Loaded) -> None:
    table = ctx.table
    table.revision += 1
    if _seen_by_all(ctx):
        # A discard counts two versions: the one shown during its pause (and its claim window, if
        # one opened), and the next, shown when play moves on — whether a window was answered in
        # between or not, everybody outside it sees the same numbers (`shown_version`).
        table.version += 2 if ctx.pause_started else 1
        if ctx.new_decision:
            table.decision_version = table.version - (1 if ctx.pause_started else 0)
    _set_deadline(ctx)
    _save_changes(table, _TABLE_FIELDS, TABLE_ROWS)
    for seat in ctx.seats:
        _save_changes(seat, _SEAT_FIELDS, SEAT_ROWS)
    version, table_id, lobby = table.revision, table.pk, ctx.lobby
    states = _states_of(ctx)
    blob = snapshots.pack(table, ctx.seats, ctx.hand, states, ctx.fresh_balances)

    def announce() -> None:
        snapshots.keep(blob, states)
        broadcast(table_id, version, lobby, blob)

    transaction.on_commit(announce)


# Fields a change within a claim window may touch without anybody else seeing it.
_UNSEEN_TABLE_FIELDS = frozenset(
    {"version", "revision", "deadline", "deadline_version", "act_since", "decision_version", "pause_until"}
)
_UNSEEN_SEAT_FIELDS = frozenset({"pending", "pending_until", "connections"})


def _seen_by_all(ctx: Loaded) -> bool:
    """Whether a change is one everybody sees (a new version) or only the seats in a claim window
    (answers, claims held, undos and the window's end: a new revision only). Anything else a
    change touched makes it public."""
    if ctx.shown or not ctx.veiled:
        return True
    rows: list[tuple[Any, tuple[str, ...], frozenset[str]]] = [
        (ctx.table, _TABLE_FIELDS, _UNSEEN_TABLE_FIELDS),
        *((seat, _SEAT_FIELDS, _UNSEEN_SEAT_FIELDS) for seat in ctx.seats),
    ]
    for row, names, unseen in rows:
        before = getattr(row, "_loaded_values", None)
        if before is None or not set(_changed(names, before, _values(row, names))) <= unseen:
            return True
    return False


def _keep_read(ctx: Loaded) -> None:
    """A table read under its lock and left unchanged (a socket connecting, say) is what the
    database holds at its version: keep it as this process's snapshot, so that the next socket
    or change of that version reads nothing again (four sockets arriving at a new table)."""
    states = _states_of(ctx)
    blob = snapshots.pack(ctx.table, ctx.seats, ctx.hand, states, False)
    transaction.on_commit(lambda: snapshots.keep(blob, states))


def _save_changes(row: Any, names: tuple[str, ...], sql: RowSql[Any]) -> None:
    """Write the fields changed since the row was loaded (all of them when it was not)."""
    before = getattr(row, "_loaded_values", None)
    after = _values(row, names)
    if before is None:
        row.save()
    elif after != before:
        sql.update(row, _changed(names, before, after))
    row._loaded_values = after


def loaded_from(snapshot: snapshots.Snapshot) -> Loaded | None:
    """A read-only Loaded for rendering a snapshot without the database; None when a state
    it needs is missing (then render from a load)."""
    table, hand = snapshot.table, snapshot.hand
    state = None
    if hand is not None:
        key = (hand.pk, hand.actions_count)
        state = snapshot.states.get(key)
        if state is None:
            return None
        paused_turn = table.pause_until is not None and state.phase == "turn" and hand.actions_count > 0
        if paused_turn and (hand.pk, hand.actions_count - 1) not in snapshot.states:
            return None
        if hand.status != Hand.Status.PLAYING:
            state = None
    return Loaded(table, snapshot.seats, hand, state, timezone.now(), states=snapshot.states)


def _states_of(ctx: Loaded) -> dict[tuple[int, int], HandState]:
    """The hand's states a renderer needs: now and one action before (the pause after a discard
    shows the board as it was before the draw)."""
    hand = ctx.hand
    if hand is None:
        return {}
    keys = [(hand.pk, hand.actions_count), (hand.pk, hand.actions_count - 1)]
    return {key: _STATE_CACHE[key] for key in keys if key in _STATE_CACHE}


def broadcast(table_id: int, version: int, lobby: bool = True, snapshot: bytes | None = None) -> None:
    """Tell the table's sockets (and the lobby) the new version, without waiting (broadcaster)."""
    message: dict[str, Any] = {"type": "table.changed", "table": table_id, "version": version}
    if snapshot is not None:
        message["snapshot"] = snapshot
    broadcaster.send(group_name(table_id), message)
    if lobby:
        broadcaster.send(LOBBY_GROUP, {"type": "lobby.changed", "table": table_id})


# --- the hand log --------------------------------------------------------------------------

# (hand id, actions applied) -> state. The log is append-only, so the key fixes the state;
# any process rebuilds a missing entry by replaying.
_STATE_CACHE: dict[tuple[int, int], HandState] = {}
_CACHE_LIMIT = 2000


def hand_state(hand: Hand, variant: str) -> HandState:
    key = (hand.pk, hand.actions_count)
    state = _STATE_CACHE.get(key)
    if state is None:
        state = _extend(hand, variant) or _replay(hand, variant)
        _remember(key, state)
    return state


def _replay(hand: Hand, variant: str) -> HandState:
    rows = (
        HandAction.objects.filter(hand_id=hand.pk, seq__lte=hand.actions_count)
        .order_by("seq")
        .values_list("seat", "action")
    )
    actions = [(seat, Action.from_json(action)) for seat, action in rows]
    state, _events = replay(variant, hand.seed, actions, **hand.setup)
    return state


EXTEND_LIMIT = 64  # actions: how far back a cached state is looked for before a full replay


def _extend(hand: Hand, variant: str) -> HandState | None:
    """The state from the newest cached one of this hand, applying the actions logged since
    (other processes appended them: the clock process sees a table every few actions): no full
    replay. None when no state within EXTEND_LIMIT actions is cached."""
    count = hand.actions_count
    start = next(
        (k for k in range(count - 1, max(-1, count - 1 - EXTEND_LIMIT), -1) if (hand.pk, k) in _STATE_CACHE),
        None,
    )
    if start is None:
        return None
    state = _STATE_CACHE[(hand.pk, start)]
    rows = list(
        HandAction.objects.filter(hand_id=hand.pk, seq__gt=start, seq__lte=count)
        .order_by("seq")
        .values_list("seat", "action")
    )
    if len(rows) != count - start:
        return None
    try:
        for seat, action in rows:
            state, _events = apply(state, seat, Action.from_json(action))
    except EngineError:  # cannot happen for a logged action; the full replay will tell
        return None
    return state


def _remember(key: tuple[int, int], state: HandState) -> None:
    caches.put(_STATE_CACHE, key, state, _CACHE_LIMIT)


def _append(ctx: Loaded, seat: int, action: Action, actor: str) -> None:
    """Apply one hand action through the engine and append it to the log."""
    assert ctx.hand is not None and ctx.state is not None
    before = ctx.state
    try:
        after, _events = apply(before, seat, action)
    except EngineError as e:
        raise ServiceError(e.code, e.message) from None
    if before.phase == "claim":
        ctx.veiled = True  # an answer in the window: for the seats in it (the hand's end is public)
    else:
        ctx.shown = True
    hand = ctx.hand
    hand.actions_count += 1
    logged = HandAction(hand=hand, seq=hand.actions_count, seat=seat, action=action.to_json(), actor=actor)
    ACTION_ROWS.insert(logged)
    HAND_ROWS.update(hand, ["actions_count"])
    _remember((hand.pk, hand.actions_count), after)
    ctx.state = after
    ctx.changed = True
    seat_row = ctx.seats[seat]
    seat_row.pending = None
    seat_row.pending_until = None
    if after.phase == "over":
        _finish_hand(ctx)
        return
    table = ctx.table
    if action.type == "discard" or (action.type == "kong" and action.kind == "added"):
        # After EVERY discard and every added kong play pauses for the same minimum, claimable
        # (robbable) or not: timing reveals nothing. Only the action that may open a window pauses:
        # an answer within one (a pass, a claim) neither restarts the pause nor begins a new
        # decision (issue 23).
        table.pause_until = ctx.now + timedelta(milliseconds=table.min_pause_ms)
        table.act_since = table.pause_until
        ctx.new_decision = ctx.pause_started = True
    elif _decision(before) != _decision(after):
        # a window resolved (or a turn began): its timer starts when the pause is over
        table.act_since = max(ctx.now, table.pause_until) if table.pause_until else ctx.now
        ctx.new_decision = True


def _decision(state: HandState) -> tuple[Any, ...]:
    """What the hand waits for; a new decision restarts the timers."""
    w = state.window
    return (state.phase, state.turn, w.seat if w else None, w.tile if w else None, w.kind if w else None)


# --- deadlines (read by games.clock) -------------------------------------------------------


def _rng(hand: Hand, step: int, seat: int, salt: str) -> random.Random:
    return random.Random(f"{hand.seed}:{step}:{seat}:{salt}")


def seat_due(ctx: Loaded, seat: Seat) -> datetime | None:
    """When the server acts for an awaited seat (bot, 托管, disconnected or timed out)."""
    table, state, hand = ctx.table, ctx.state, ctx.hand
    if state is None or hand is None or table.act_since is None or seat.pending is not None:
        return None
    if seat.is_bot or seat.left or seat.auto:
        delay = _rng(hand, state.step, seat.index, "delay").uniform(*BOT_DELAY)
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


def shown_version(ctx: Loaded) -> int:
    """The version frames carry now: during the pause after a discard (and any window it opened)
    the one before `Table.version`, which counts the discard twice (`_commit`)."""
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


def _set_deadline(ctx: Loaded) -> None:
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
    if ctx.hand_over and ctx.hand is not None and ctx.hand.ended and _everyone_continues(ctx):
        due.append(ctx.hand.ended + timedelta(seconds=SETTLEMENT_SECONDS))
    else:
        until = continue_deadline(ctx)
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
    that a window is open, issue 23)."""
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


# --- tables and seats --------------------------------------------------------------------


def validate_stake(variant: str, base: Any) -> int:
    if isinstance(base, bool) or not isinstance(base, int):
        try:
            base = int(str(base).strip())
        except ValueError:
            raise ServiceError("bad_stake", "the base stake must be a whole number") from None
    if not 1 <= base <= MAX_BASE:
        raise ServiceError("bad_stake", f"the base stake must be between 1 and {MAX_BASE}")
    if variant == "yihua" and base % 2:
        raise ServiceError("bad_stake", "一花起胡 needs an even base stake")
    return base


def validate_options(variant: str, options: Any) -> dict[str, Any]:
    """The house rules if the variant's `Ruleset` admits each one (its declared ranges)."""
    if options in (None, ""):
        return {}
    try:
        return get_ruleset(variant).check_options(options)
    except EngineError as e:  # OptionError: the message names the option
        raise ServiceError("bad_option", e.message) from None


def create_table(
    owner: AbstractBaseUser,
    variant: str,
    *,
    public: bool = True,
    options: dict[str, Any] | None = None,
    turn_seconds: int | None = None,
    claim_seconds: int | None = None,
    min_pause_ms: int = 1000,
    undo_ms: int = 1500,
    grace_seconds: int | None = None,
) -> Table:
    site = settings_store.current()  # timer defaults the admin may change without a deploy
    turn_seconds = site.turn_seconds if turn_seconds is None else turn_seconds
    claim_seconds = site.claim_seconds if claim_seconds is None else claim_seconds
    grace_seconds = site.grace_seconds if grace_seconds is None else grace_seconds
    if variant not in VARIANT_IDS:
        raise ServiceError("unknown_variant", f"variant must be one of {', '.join(VARIANT_IDS)}")
    untimed = turn_seconds == 0 and claim_seconds == 0
    if untimed and public:
        raise ServiceError("bad_timer", "only a private table may play without a timer")
    if not untimed and not (3 <= turn_seconds <= 120 and 2 <= claim_seconds <= 60):
        raise ServiceError("bad_timer", "turn timer 3–120 s, claim timer 2–60 s (or both 0: no timer)")
    if not (0 <= min_pause_ms <= 5000 and 0 <= undo_ms <= 5000 and 10 <= grace_seconds <= 3600):
        raise ServiceError("bad_timer", "pause and undo 0–5000 ms, grace 10–3600 s")
    with transaction.atomic():
        table = Table.objects.create(
            variant=variant,
            owner=owner,
            public=public,
            options=validate_options(variant, options),
            turn_seconds=turn_seconds,
            claim_seconds=claim_seconds,
            min_pause_ms=min_pause_ms,
            undo_ms=undo_ms,
            grace_seconds=grace_seconds,
        )
        Seat.objects.bulk_create(Seat(table=table, index=i) for i in range(table.players))
        table_id = table.pk
        transaction.on_commit(lambda: broadcast(table_id, 0, True))
    return table


def _require_seat(ctx: Loaded, user: AbstractBaseUser | None) -> Seat:
    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to play")
    seat = ctx.seat_of(user)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated at this table")
    return seat


def _require_between_hands(ctx: Loaded) -> None:
    if ctx.table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed", "the table is closed")
    if ctx.hand_running:
        raise ServiceError("hand_running", "not while a hand is being played")


def _require_manager(ctx: Loaded, user: AbstractBaseUser | None) -> None:
    """Bots are added or removed by a seated person, or the owner."""
    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to play")
    if ctx.seat_of(user) is None and ctx.table.owner_id != user.pk:
        raise ServiceError("not_seated", "only seated people or the owner may do that")


def _seat_at(ctx: Loaded, index: Any) -> Seat:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(ctx.seats):
        raise ServiceError("bad_seat", f"seat must be 0–{len(ctx.seats) - 1}")
    return ctx.seats[index]


def _humans(ctx: Loaded) -> list[Seat]:
    return [s for s in ctx.seats if s.user_id is not None]


def _stake_fix_if_ready(ctx: Loaded) -> None:
    table = ctx.table
    if table.stake_state == Table.Stake.PROPOSED and all(not s.empty and s.accepted for s in ctx.seats):
        table.stake_state = Table.Stake.FIXED


def sit(table_id: int, user: AbstractBaseUser, index: int, socket_id: int | None = None) -> Table:
    """`socket_id`: asked over this socket of the table (its OpenSocket), counted as a
    spectator's, which from now on counts for the seat (no second change: see `move_presence`)."""
    with locked(table_id) as ctx:
        if user is None or not user.is_authenticated:
            raise ServiceError("login_required", "log in to sit down")
        ban = active_ban(user, ctx.now)  # the abandonment policy (games.penalties)
        if ban is not None:
            raise ServiceError("banned", ban_message(ban))
        _require_between_hands(ctx)
        if ctx.seat_of(user) is not None:
            raise ServiceError("already_seated", "you already have a seat here")
        seat = _seat_at(ctx, index)
        if not seat.empty:
            raise ServiceError("seat_taken", "that seat is taken")
        table = ctx.table
        balance = balance_or_none(user)
        if (balance or 0) < table.minimum_balance:  # 50 × base, or 50 while no stake is set
            raise ServiceError("insufficient_points", INSUFFICIENT_POINTS)
        # A light copy with the balance just read: the snapshot of this change needs no query for
        # it, and the caller's user object (a socket's, long-lived) gets no profile cached.
        seat.user = snapshots.light_user(user.pk, user.get_username(), balance)
        seat.sat_at = ctx.now
        seat.rank = seat_rank(user.pk, table.variant)  # shown beside the name (issue 18)
        seat.accepted = False
        seat.continue_choice = None
        seat.connections = 0
        seat.disconnected_at = None
        if table.stake_chooser_id is None:  # the first person to sit sets the stake (§1.2)
            table.stake_chooser = user
        table.notices.pop(str(user.pk), None)
        ctx.changed = ctx.lobby = True
        if socket_id is not None:
            _move_socket(ctx, socket_id, seat)
    return ctx.table


def _free_seat(ctx: Loaded, seat: Seat) -> None:
    """Empty a seat; the base stake follows RULES §1.2 when its chooser or setter goes."""
    table = ctx.table
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
    ctx.lobby = ctx.changed = True
    if user_id is None:
        return
    others = [s for s in _humans(ctx) if s.user_id != user_id]
    if table.stake_setter_id == user_id:
        # The setter left: reset, and a randomly chosen seated person sets it again.
        table.base = None
        table.stake_state = Table.Stake.UNSET
        table.stake_setter = None
        table.stake_chooser = random.choice(others).user if others else None
        for s in ctx.seats:
            s.accepted = s.is_bot
    elif table.stake_chooser_id == user_id:
        # The chooser left before setting it: the next seated person (earliest to sit) is asked.
        others.sort(key=lambda s: (s.sat_at or ctx.now, s.index))
        table.stake_chooser = others[0].user if others else None


def stand(table_id: int, user: AbstractBaseUser) -> Table:
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        _require_between_hands(ctx)
        _quick_match_exit(ctx, seat)
        _free_seat(ctx, seat)
        _after_seat_change(ctx)
    return ctx.table


def add_bot(table_id: int, user: AbstractBaseUser, index: int, level: Any = DEFAULT_LEVEL) -> Table:
    """A bot of `level` (easy | normal | strong) takes the empty seat `index`."""
    try:
        level = check_level(level)
    except EngineError as e:
        raise ServiceError(e.code, e.message) from None
    with locked(table_id) as ctx:
        _require_manager(ctx, user)
        _require_between_hands(ctx)
        seat = _seat_at(ctx, index)
        if not seat.empty:
            raise ServiceError("seat_taken", "that seat is taken")
        seat.is_bot = True
        seat.bot_level = level
        seat.accepted = ctx.table.stake_state != Table.Stake.UNSET  # bots accept any stake
        seat.continue_choice = True
        seat.sat_at = ctx.now
        _stake_fix_if_ready(ctx)
        ctx.changed = ctx.lobby = True
    return ctx.table


def remove_bot(table_id: int, user: AbstractBaseUser, index: int) -> Table:
    with locked(table_id) as ctx:
        _require_manager(ctx, user)
        _require_between_hands(ctx)
        seat = _seat_at(ctx, index)
        if not seat.is_bot:
            raise ServiceError("not_a_bot", "there is no bot in that seat")
        _free_seat(ctx, seat)
        _after_seat_change(ctx)
    return ctx.table


def may_set_stake(ctx: Loaded, user: AbstractBaseUser | None) -> bool:
    """The chooser sets the stake; at a table with nobody seated (bots only) the owner does."""
    if user is None or not user.is_authenticated or ctx.table.stake_state == Table.Stake.FIXED:
        return False
    if ctx.table.stake_chooser_id is not None:
        return ctx.table.stake_chooser_id == user.pk and ctx.seat_of(user) is not None
    return not _humans(ctx) and ctx.table.owner_id == user.pk


def set_stake(table_id: int, user: AbstractBaseUser, base: Any) -> Table:
    with locked(table_id) as ctx:
        table = ctx.table
        if table.stake_state == Table.Stake.FIXED:
            raise ServiceError("stake_fixed", "the base stake is fixed")
        if not may_set_stake(ctx, user):
            _require_seat(ctx, user)
            raise ServiceError("not_stake_chooser", "another player sets the base stake")
        seat = ctx.seat_of(user)
        base = validate_stake(table.variant, base)
        if seat is not None:  # the setter plays at this stake (an owner of a bots-only table does not)
            _require_points(user, base)
        table.base = base
        table.stake_state = Table.Stake.PROPOSED
        table.stake_setter = user
        for s in ctx.seats:
            s.accepted = s.is_bot or s is seat
        _stake_fix_if_ready(ctx)
        ctx.changed = ctx.lobby = True
    return table


def accept_stake(table_id: int, user: AbstractBaseUser) -> Table:
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        if ctx.table.stake_state == Table.Stake.UNSET:
            raise ServiceError("stake_unset", "the base stake has not been set yet")
        if seat.accepted:
            raise ServiceError("already_accepted", "you already accepted the base stake")
        _require_points(user, ctx.table.base or 1)
        seat.accepted = True
        _stake_fix_if_ready(ctx)
        ctx.changed = ctx.lobby = True
    return ctx.table


def set_auto(table_id: int, user: AbstractBaseUser, on: Any) -> Table:
    """托管: the player asks the server to play for them (or stops it)."""
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        if not isinstance(on, bool):
            raise ServiceError("bad_action", "'on' must be true or false")
        if seat.left:
            raise ServiceError("left", "you left this hand")
        seat.auto = on
        ctx.changed = True
    return ctx.table


# --- starting, continuing, leaving ----------------------------------------------------------


def _ready_to_start(ctx: Loaded) -> str | None:
    """None when a hand may start, else the error code why not."""
    if ctx.table.status == Table.Status.CLOSED:
        return "table_closed"
    if ctx.hand_running:
        return "hand_running"
    if any(s.empty for s in ctx.seats):
        return "seats_empty"
    if ctx.table.stake_state != Table.Stake.FIXED or not all(s.accepted for s in ctx.seats):
        return "stake_not_accepted"
    return None


START_ERRORS = {
    "table_closed": "the table is closed",
    "hand_running": "a hand is being played",
    "seats_empty": "every seat must be filled (people or bots)",
    "stake_not_accepted": "everyone must accept the base stake first",
}


def start_hand(table_id: int, user: AbstractBaseUser | None) -> Table:
    with locked(table_id) as ctx:
        if user is not None:
            _require_manager(ctx, user)
        if ctx.in_settlement:
            raise ServiceError("hand_over", "choose continue or leave")
        problem = _ready_to_start(ctx)
        if problem:
            raise ServiceError(problem, START_ERRORS[problem])
        if _short_of_points(ctx):
            raise ServiceError("insufficient_points", SHORT_OF_POINTS % ctx.table.minimum_balance)
        _begin_hand(ctx)
    return ctx.table


def _require_points(user: AbstractBaseUser, base: int) -> None:
    """The 50 × base floor (RULES §1.6), checked wherever a player could cross it (issue 23)."""
    if (balance_or_none(user) or 0) < Table.minimum_for(base):
        raise ServiceError("insufficient_points", INSUFFICIENT_POINTS)


def _short_of_points(ctx: Loaded) -> list[Seat]:
    """Seated people whose balance (read now) is below the table's floor."""
    return [s for s in _humans(ctx) if (balance_or_none(s.user) or 0) < ctx.table.minimum_balance]


def _stand_up_short(ctx: Loaded) -> bool:
    """Before a hand the server starts by itself (everyone continued): stand up whoever fell
    below the floor since the last settlement, with the §1.6 message. True if anyone was."""
    short = _short_of_points(ctx)
    for seat in short:
        ctx.table.notices[str(seat.user_id)] = INSUFFICIENT_POINTS
        _free_seat(ctx, seat)
    if short:
        _after_seat_change(ctx)
    return bool(short)


def _begin_hand(ctx: Loaded) -> None:
    if _stand_up_short(ctx):  # a next hand after Continue: nobody plays below the floor
        return
    table = ctx.table
    players = [s.user_id for s in ctx.seats]
    match = Match.objects.filter(pk=table.match_id).first() if table.match_id else None
    if match is None or match.ended is not None or match.players != players:
        if match is not None and match.ended is None:
            match.ended = ctx.now
            match.save(update_fields=["ended"])
        match = Match.objects.create(table=table, players=players)
        table.match = match
        # RULES §1.3: the first dealer is chosen at random; the round starts with East.
        table.dealer = secrets.randbelow(table.players)
        table.round_wind = EAST
        table.counters = {}
    number = match.hands.count() + 1
    setup = {
        "dealer": table.dealer,
        "round_wind": table.round_wind,
        "base": table.base or 1,
        "options": table.options or {},
        "counters": table.counters or {},
        "salt": new_salt(),  # every chance of the hand; committed to before the deal (docs/fairness.md)
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
        setup=setup,
    )
    _remember((hand.pk, 0), state)
    table.hand = hand
    table.status = Table.Status.PLAYING
    table.act_since = ctx.now
    table.pause_until = None
    ctx.hand, ctx.state = hand, state
    ctx.new_decision = True
    for s in ctx.seats:
        s.continue_choice = True if s.is_bot else None
        s.pending = s.pending_until = None
    ctx.changed = ctx.lobby = True
    if state.phase == "over":  # a hand can end at the deal (eight flowers)
        _finish_hand(ctx)


def _everyone_continues(ctx: Loaded) -> bool:
    return all(not s.empty and s.continue_choice and s.accepted for s in ctx.seats)


def continue_play(table_id: int, user: AbstractBaseUser) -> Table:
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        if not ctx.in_settlement:
            raise ServiceError("no_hand_over", "there is no finished hand to continue from")
        if seat.continue_choice:
            raise ServiceError("already_continued", "you already chose to continue")
        seat.continue_choice = True
        ctx.changed = True
        if _everyone_continues(ctx) and _ready_to_start(ctx) is None:
            _begin_hand(ctx)
    return ctx.table


def leave(table_id: int, user: AbstractBaseUser) -> Table:
    """Leave the seat: between hands it is freed; mid-hand it is an escape (RULES §1.8)."""
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        if seat.left:
            raise ServiceError("already_left", "you already left; a bot finishes this hand")
        if ctx.hand_running:
            _escape(ctx, seat, Penalty.Reason.ESCAPE)
        else:
            _quick_match_exit(ctx, seat)
            _free_seat(ctx, seat)
            _after_seat_change(ctx)
    return ctx.table


def _quick_match_exit(ctx: Loaded, seat: Seat, disconnected_at: datetime | None = None) -> None:
    """Freeing a seat between hands of a queue-started match is an escape (issue 18)."""
    from games.matchmaking import charge_early_exit  # (it builds on this module)

    if seat.user_id is None or ctx.hand is None:
        return
    others = [s.user for s in _humans(ctx) if s is not seat and not s.left]
    if charge_early_exit(ctx.table, ctx.hand, seat.user, others, ctx.now, disconnected_at):
        ctx.fresh_balances = True


def _after_seat_change(ctx: Loaded) -> None:
    """A seat was freed between hands: the match (fixed players) is over."""
    table = ctx.table
    if table.match_id and not ctx.hand_running:
        Match.objects.filter(pk=table.match_id, ended__isnull=True).update(ended=ctx.now)
        if table.status == Table.Status.PLAYING:
            table.status = Table.Status.WAITING


def _escape(ctx: Loaded, seat: Seat, reason: str) -> None:
    """The escape penalty, once per hand: shared equally among the other seated people."""
    table, hand = ctx.table, ctx.hand
    assert hand is not None and seat.user is not None
    seat.left = True
    seat.pending = seat.pending_until = None
    ctx.changed = ctx.fresh_balances = True
    others = [s.user for s in _humans(ctx) if s is not seat and not s.left]
    if reason == Penalty.Reason.DISCONNECT and seat.server_cut:
        return  # its server process died under it (games.presence): nobody's fault
    # Once per hand, shared, in the ledger, with the ban policy; nobody's fault after a restart.
    charge_escape(table, hand, seat.user, reason, others, seat.disconnected_at, ctx.now)


# --- connections --------------------------------------------------------------------------


def _count_sockets(
    ctx: Loaded, seat: Seat, delta: int, at: datetime | None = None, cut: bool = False
) -> None:
    """Add `delta` to a seat's open sockets. The count is kept exactly in the database by atomic
    updates, not written back from a loaded copy; only its sign (connected or not) is shown or
    decided on, so only a change of sign is a change of the table (a new version). A second
    tab, or a socket coming back while the dead one of a killed process still counts, changes
    nothing anybody sees: no version, no broadcast, no re-render of the table's sockets.
    `at`: when the seat was disconnected, if this disconnects it (else now); `cut`: the socket
    was cut off by a dead server process (its seat is then not to blame for staying away)."""
    was_connected = seat.connected
    count = SEAT_ROWS.add(seat, "connections", delta)
    seat.connections = count
    loaded = getattr(seat, "_loaded_values", None)
    if loaded is not None:  # the database has it already: `_commit` must not write it back
        position = _SEAT_FIELDS.index("connections")
        seat._loaded_values = (*loaded[:position], count, *loaded[position + 1 :])  # type: ignore[attr-defined]
    connected = seat.connected
    if connected != was_connected or (connected and seat.disconnected_at is not None):
        seat.disconnected_at = None if connected else (at or ctx.now)  # back within the grace: no escape
        seat.server_cut = cut and not connected
        ctx.changed = ctx.shown = True


def _count_spectators(ctx: Loaded, delta: int) -> None:
    """The spectator count of the locked row, written at once (kept outside the version)."""
    ctx.table.spectators = max(0, ctx.table.spectators + delta)
    TABLE_ROWS.update(ctx.table, ["spectators"])


# Every counted socket has an OpenSocket row naming the server process that holds it, written in
# the same transaction as the count: when a process dies without closing its sockets, the clock
# takes them out of the counts (games.presence). A row already gone means the clock did so.


def _move_socket(ctx: Loaded, socket_id: int | None, seat: Seat | None) -> bool:
    """A socket counted for its user's old role counts for `seat` now (None: as a spectator's;
    the seat it left was freed, and its count with it). False if the clock dropped it: it
    counts nowhere, and moves nothing."""
    if socket_id is not None:
        row = OpenSocket(pk=socket_id, seated=seat is not None)
        if not SOCKET_ROWS.update(row, ["seated"]):
            return False
    if seat is None:
        _count_spectators(ctx, +1)
    else:
        _count_spectators(ctx, -1)
        _count_sockets(ctx, seat, +1)
    return True


def _close_socket(socket_id: int) -> bool:
    """Delete a socket's row; False if it was gone already."""
    return SOCKET_ROWS.delete(socket_id)


class Connection(NamedTuple):
    version: int  # the table's revision after the connect (what its snapshot is kept under)
    socket_id: int | None  # its OpenSocket row (None: connected without a process)


def connect(table_id: int, user: AbstractBaseUser | None, process_id: int | None = None) -> Connection:
    """A socket opened: a seated player is back (托管 ends); anyone else is a spectator.
    `process_id`: the ServerProcess holding the socket (games.presence), which then gets a row."""
    with locked(table_id) as ctx:
        seat = ctx.seat_of(user)
        if seat is None:
            _count_spectators(ctx, +1)
            ctx.lobby = True
        else:
            _count_sockets(ctx, seat, +1)
        socket_id = None
        if process_id is not None:
            row = OpenSocket(
                process_id=process_id,
                table_id=ctx.table.pk,
                user_id=user.pk if user is not None and user.is_authenticated else None,
                seated=seat is not None,
                opened=ctx.now,
            )
            socket_id = SOCKET_ROWS.insert(row).pk
    return Connection(ctx.table.revision, socket_id)


def disconnect(
    table_id: int,
    user: AbstractBaseUser | None,
    counted_seated: bool | None = None,
    socket_id: int | None = None,
) -> None:
    """A socket closed; `counted_seated`: whether it was counted for a seat (None: as its user's
    role is now); `socket_id`: its OpenSocket row (nothing to count if the clock dropped it)."""
    with locked(table_id) as ctx:
        if socket_id is not None and not _close_socket(socket_id):
            return
        _uncount(ctx, user, counted_seated)


def drop_socket(socket: OpenSocket, at: datetime) -> bool:
    """The clock: a socket whose process was found dead (games.presence) is closed as of `at`
    (the process's last sign of life: a disconnect a restart caused is nobody's fault)."""
    try:
        with locked(socket.table_id) as ctx:
            if not _close_socket(socket.pk):
                return False
            _uncount(ctx, socket.user, socket.seated, at, cut=True)
    except ServiceError:  # the table is gone (and the row with it)
        return False
    return True


def _uncount(
    ctx: Loaded,
    user: AbstractBaseUser | None,
    counted_seated: bool | None,
    at: datetime | None = None,
    cut: bool = False,
) -> None:
    seat = ctx.seat_of(user)
    as_seat = seat is not None if counted_seated is None else counted_seated
    if not as_seat:
        _count_spectators(ctx, -1)
    elif seat is not None:  # (else its seat was freed meanwhile, and its count with it)
        _count_sockets(ctx, seat, -1, at, cut)


def move_presence(
    table_id: int, user: AbstractBaseUser | None, counted_seated: bool, socket_id: int | None = None
) -> bool:
    """A socket stayed open while its user sat down or stood up: count it for the user's role
    now (sitting down over a socket used to leave the seat "disconnected", auto-played, until a
    reload). Returns whether the socket is now counted for a seat."""
    with locked(table_id) as ctx:
        seat = ctx.seat_of(user)
        if (seat is not None) == counted_seated:
            return counted_seated
        return seat is not None if _move_socket(ctx, socket_id, seat) else counted_seated


# --- hand actions -------------------------------------------------------------------------


def act(table_id: int, user: AbstractBaseUser, action_json: Any, now: datetime | None = None) -> Table:
    """A seated person's hand action. A claim is held for the undo window first.

    `now`: the time of the action (tests on a fake clock; else the real time)."""
    with locked(table_id, now) as ctx:  # a stale version is told before a malformed action
        try:
            action = Action.from_json(action_json)
        except EngineError as e:
            raise ServiceError(e.code, e.message) from None
        seat = _require_seat(ctx, user)
        if not ctx.hand_running:
            raise ServiceError("no_hand", "no hand is being played")
        if seat.left:
            raise ServiceError("left", "you left this hand")
        if seat.pending is not None:
            raise ServiceError("claim_pending", "your claim is pending; undo it first")
        state = ctx.state
        assert state is not None
        if veiled(ctx, seat.index):
            # The pause after a discard, and for every seat outside a claim window the window
            # too: the same answer whether or not anybody may claim (issue 23).
            raise ServiceError("paused", "wait for the pause after the discard")
        if state.phase == "claim" and action.type in CLAIM_TYPES and ctx.table.undo_ms:
            if action not in legal_actions(state, seat.index):
                _append(ctx, seat.index, action, HandAction.Actor.HUMAN)  # raises the engine's error
            seat.pending = action.to_json()
            seat.pending_until = ctx.now + timedelta(milliseconds=ctx.table.undo_ms)
            ctx.changed = ctx.veiled = True
        else:
            _append(ctx, seat.index, action, HandAction.Actor.HUMAN)
    return ctx.table


def undo(table_id: int, user: AbstractBaseUser) -> Table:
    with locked(table_id) as ctx:
        seat = _require_seat(ctx, user)
        if seat.pending is None:
            raise ServiceError("nothing_to_undo", "there is no claim to undo (it may have gone through)")
        seat.pending = seat.pending_until = None
        ctx.changed = ctx.veiled = True
    return ctx.table


def perform(
    table_id: int,
    user: AbstractBaseUser | None,
    version: Any,
    action: Any,
    now: datetime | None = None,
    socket_id: int | None = None,
) -> Table:
    """Route one `legal` entry sent back by a client to its service function (`now`: see `act`;
    `socket_id`: see `sit`)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action", "an action is an object with a 'type'")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError("bad_version", "'version' must be the version of the state you act on")
    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to play")
    kind = action["type"]
    table_actions = {
        "sit": lambda: sit(table_id, user, action.get("seat"), socket_id),
        "stand": lambda: stand(table_id, user),
        "add_bot": lambda: add_bot(table_id, user, action.get("seat"), action.get("level", DEFAULT_LEVEL)),
        "remove_bot": lambda: remove_bot(table_id, user, action.get("seat")),
        "set_stake": lambda: set_stake(table_id, user, action.get("base")),
        "accept_stake": lambda: accept_stake(table_id, user),
        "start": lambda: start_hand(table_id, user),
        "continue": lambda: continue_play(table_id, user),
        "leave": lambda: leave(table_id, user),
        "auto": lambda: set_auto(table_id, user, action.get("on")),
        "undo": lambda: undo(table_id, user),
    }
    if kind in table_actions:
        return _checked(table_id, version, table_actions[kind])
    return _checked(table_id, version, lambda: act(table_id, user, action, now), same_decision=True)


def _checked(table_id: int, version: int, change: Any, same_decision: bool = False) -> Table:
    """Run a change only if the table is still at `version` (checked again under the lock).

    With `same_decision` (hand actions) a version from since the current decision began is
    good enough: another seat's pass in the same claim window must not make a player's
    pong "stale" and force a second click. An action for an earlier decision is refused.
    """
    token = _EXPECTED.set((version, same_decision))  # checked by `locked`: one lock per action
    try:
        return change()
    finally:
        _EXPECTED.reset(token)


def _check_version(ctx: Loaded, version: int, same_decision: bool) -> None:
    """Fresh: the version shown now (or the one the pause runs up to, which no frame showed yet);
    for hand actions any version since the decision began."""
    table = ctx.table
    current, decided, shown = table.version, table.decision_version, shown_version(ctx)
    fresh = version in (shown, current) or (same_decision and 0 < decided <= version <= current)
    if not fresh:
        raise ServiceError("stale_version", f"the table is at version {shown}, not {version}")


# --- the clock ------------------------------------------------------------------------------


def timeout(table_id: int, expected_revision: int, now: datetime | None = None) -> bool:
    """Do whatever is due at a table (the clock calls this past `deadline`).

    A stale call (the revision moved on) is a no-op. Returns whether anything changed.
    """
    with locked(table_id, now) as ctx:
        table = ctx.table
        if table.revision != expected_revision:
            return False
        _commit_pending_claims(ctx)
        _expire_disconnected(ctx)
        for _ in range(64):  # bounded: each pass applies at most one action per awaited seat
            if not _play_due_seats(ctx):
                break
        _stand_up_undecided(ctx)
        if _settlement_shown(ctx) and _ready_to_start(ctx) is None:
            _begin_hand(ctx)
        if not ctx.changed:
            _set_deadline(ctx)  # nothing was due after all: move the deadline on, quietly
            if table.deadline is not None and table.deadline <= ctx.now:
                table.deadline = ctx.now + timedelta(seconds=1)  # never spin on a stuck deadline
            TABLE_ROWS.update(table, ["deadline", "deadline_version"])
        return ctx.changed


def _settlement_shown(ctx: Loaded) -> bool:
    """Everyone (an all-bot table) continues and the settlement has been on show long enough."""
    if not (ctx.hand_over and ctx.hand is not None and ctx.hand.ended and _everyone_continues(ctx)):
        return False
    return ctx.hand.ended + timedelta(seconds=SETTLEMENT_SECONDS) <= ctx.now


def _stand_up_undecided(ctx: Loaded) -> None:
    """Nobody may hold a table hostage: a player who chose neither Continue nor Leave within
    `continue_seconds()` of the settlement is stood up. The hand is over, so it is no escape.
    Only during the settlement (`continue_deadline`): someone who sits down afterwards did not
    play that hand and is never stood up for it (issue 24: tables became unjoinable)."""
    until = continue_deadline(ctx)
    if until is None or until > ctx.now:
        return
    undecided = [s for s in ctx.seats if s.user_id and s.continue_choice is None]
    for seat in undecided:
        ctx.table.notices[str(seat.user_id)] = NOT_CONTINUED
        _quick_match_exit(ctx, seat, None if seat.connected else seat.disconnected_at or ctx.hand.ended)
        _free_seat(ctx, seat)
    if undecided:
        _after_seat_change(ctx)
        ctx.changed = ctx.lobby = True


def _commit_pending_claims(ctx: Loaded) -> None:
    for seat in ctx.seats:
        if seat.pending is None or seat.pending_until is None or seat.pending_until > ctx.now:
            continue
        action = Action.from_json(seat.pending)
        seat.pending = seat.pending_until = None
        ctx.changed = ctx.veiled = True
        if ctx.hand_running:
            try:
                _append(ctx, seat.index, action, HandAction.Actor.HUMAN)
            except ServiceError as e:  # cannot happen while the window waits for this seat
                log.warning("pending claim of seat %s dropped: %s", seat.index, e)


def _expire_disconnected(ctx: Loaded) -> None:
    grace = timedelta(seconds=ctx.table.grace_seconds)
    for seat in ctx.seats:
        if not seat.user_id or seat.connected or seat.left or seat.disconnected_at is None:
            continue
        if seat.disconnected_at + grace > ctx.now:
            continue
        if ctx.hand_running:
            _escape(ctx, seat, Penalty.Reason.DISCONNECT)
        else:
            _quick_match_exit(ctx, seat, seat.disconnected_at)
            _free_seat(ctx, seat)
            _after_seat_change(ctx)


def _play_due_seats(ctx: Loaded) -> bool:
    """Act for every awaited seat whose time has come; True if something was applied."""
    for seat in awaited(ctx):
        when = seat_due(ctx, seat)
        if when is None or when > ctx.now:
            continue
        state, hand = ctx.state, ctx.hand
        assert state is not None and hand is not None
        if seat.is_bot:
            action = decide(seat.bot_level, state, seat.index, _rng(hand, state.step, seat.index, "bot"))
            actor = HandAction.Actor.BOT
        else:
            action = auto_action(state, seat.index)
            actor = HandAction.Actor.AUTO if seat.played_by_server else HandAction.Actor.TIMEOUT
        if action is None:
            continue
        _append(ctx, seat.index, action, actor)
        return ctx.hand_running
    return False


# --- the end of a hand ----------------------------------------------------------------------


def _finish_hand(ctx: Loaded) -> None:
    """Settle with the balance floor, write scores, carry dealer/wind/counters, apply §1.6."""
    table, hand, state = ctx.table, ctx.hand, ctx.state
    assert hand is not None and state is not None and state.result is not None
    ctx.fresh_balances = ctx.shown = True
    result = state.result
    rules = get_ruleset(table.variant)
    discarder = result.from_seat if result.by == "discard" else None
    humans = [s.user_id is not None for s in ctx.seats]
    balances = [balance_of(s.user) if s.user_id else BOT_BALANCE for s in ctx.seats]
    # What the hand pays as played, and the part between people that moves real points (issue 23:
    # a bot has no account; a payment to or from one is practice, shown but never applied).
    notional = rules.settle(result, balances, discarder)
    final = notional if all(humans) else rules.settle(only_between(result, humans), balances, discarder)
    practice = [n - f for n, f in zip(notional, final, strict=True)]
    after: list[int | None] = []
    for seat, delta in zip(ctx.seats, final, strict=True):
        if seat.user_id:
            applied = change_balance(seat.user, delta, "hand", hand)
            balance = balance_of(seat.user)
            ScoreEntry.objects.create(
                hand=hand, seat=seat.index, user=seat.user, delta=applied, balance_after=balance
            )
            after.append(balance)
        else:
            ScoreEntry.objects.create(hand=hand, seat=seat.index, delta=0)  # a bot holds no points
            after.append(None)
    record_false_wins(hand, state, [s.user if s.user_id else None for s in ctx.seats])
    public = view_for(state, None)
    hand.status = Hand.Status.OVER
    hand.ended = ctx.now
    hand.result = public.get("result")
    hand.settlement = {
        "payments": list(final),
        "practice": practice,  # per seat: payments with a bot, not applied
        "balances": after,
        "penalties": [
            {"seat": _seat_index(ctx, p.user_id), "amount": p.amount, "reason": p.reason}
            for p in Penalty.objects.filter(hand=hand)
        ],
        "hands": [s.get("hand", []) for s in public["seats"]],
    }
    rank_changes = record_hand_ranks(hand, table.variant)  # ranked quick matches only (issue 18)
    if rank_changes:
        hand.settlement["ranks"] = rank_changes
        for change in rank_changes:
            ctx.seats[change["seat"]].rank = change["after"]
    hand.save()
    record_hand_ratings(hand)
    ctx.state = None
    table.pause_until = None
    table.act_since = None
    _carry(table, hand, state)
    for seat in ctx.seats:
        seat.pending = seat.pending_until = None
        if seat.left:  # the escaped player's seat is freed once the hand is over
            _free_seat(ctx, seat)
        elif seat.user_id and balance_of(seat.user) < table.minimum_balance:
            table.notices[str(seat.user_id)] = INSUFFICIENT_POINTS
            _free_seat(ctx, seat)
        else:
            seat.continue_choice = True if seat.is_bot else None
    if any(s.empty for s in ctx.seats):
        _after_seat_change(ctx)
    ctx.changed = ctx.lobby = True


def _seat_index(ctx: Loaded, user_id: int) -> int | None:
    return next((s.index for s in ctx.seats if s.user_id == user_id), None)


def _carry(table: Table, hand: Hand, state: HandState) -> None:
    """Next dealer from the result; the round wind moves on when the deal has gone round."""
    assert state.result is not None
    rules = get_ruleset(table.variant)
    next_dealer = state.result.next_dealer
    first = Hand.objects.filter(match=hand.match).order_by("number").values_list("dealer", flat=True).first()
    if next_dealer != table.dealer and next_dealer == first:
        rounds_done = table.round_wind - EAST + 1
        limit = rules.match_rounds(table.options or {})
        if limit is not None and rounds_done >= limit:
            # the match's wind rounds are played (cantonese §4.1): the next hand opens a new match
            ended = hand.ended or timezone.now()
            Match.objects.filter(pk=hand.match_id, ended__isnull=True).update(ended=ended)
        table.round_wind = EAST + rounds_done % 4
    table.dealer = next_dealer
    table.counters = rules.carry_counters(state, state.result)
