"""Spectator delay: spectators of quick-match tables see the game some time behind.

Who: a viewer not seated at the table, at a table the queue started (ranked or not); the delay
is the admin's `SiteSettings.spectator_delay_seconds` (default 180 s; 0 turns it off). Seated
players, and every viewer of other tables (private ones included), see it live. So does a
player of the table's newest match who is no longer seated (stood up by the Continue deadline,
or left): the delay keeps a spectator from learning a running hand ahead of the table, and the
hands of that match were their own — they saw them live from their seat (`watches_live`). Once
a match goes on without them they are a spectator like any other.

What: the frame a spectator gets is built from the table's log as it stood `delay` seconds ago
(`delayed_context`): the newest hand begun by then, with only the actions logged by then
(`HandAction.created`), or its settlement if it had ended by then. It is the engine's public view
(`view_for(state, None)`) like any spectator's, so it holds no concealed tile; balances are
left out (a settlement would show in them early), and so are ranks. Nothing in the frame is
live: its version counts the changes a spectator saw up to the cutoff (never the table's own,
which moves at each live action), its seats are the shown hand's players as they sat (never
today's empty seat, a live disconnect or 托管), its base stake is that hand's, and it offers no
action. As time passes, the socket renders again when the next logged action comes due
(`next_in`) and sends a frame only when what the spectator sees changed, so frames never go out
at the moment of a live action. Chat reaches a delayed spectator `delay` seconds late too
(games.social.chat), and a finished hand reaches no other path (replays, records, histories) before
its end is shown here (games.history.queries.behind_the_delay).
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from common import caches
from common.db_threads import db
from games.engine.actions import Action, apply, new_hand
from games.history.queries import spectator_delay_of
from games.matchmaking.models import QuickMatch
from games.models import Hand, HandAction, Match, Seat, Table
from games.rendering.presenters import consistent_load, context_for
from games.table.hand_log import hand_state
from games.table.loaded import Loaded

User = get_user_model()


def delay_for(table_id: int) -> int:
    """Seconds spectators of this table are kept behind (0: live)."""
    return spectator_delay_of(table_id)


# A hand is at most a few hundred logged actions: a delayed frame's version is the ordinal of the
# hand shown times this, plus the steps of that hand shown so far (plus one more once it is over).
VERSIONS_PER_HAND = 10_000


@dataclass
class Delayed:
    context: dict[str, Any]
    next_in: float | None  # seconds until the delayed view changes by itself (None: not by itself)


@dataclass
class Past:
    """The table as it stood at the cutoff: the hand shown (None: none begun yet), its state while
    it was playing, when the log next moves on, and the frame's version at the cutoff."""

    hand: Hand | None
    state: Any
    next_at: datetime | None
    version: int


def delayed_context(
    table_id: int, user: AbstractBaseUser | None, delay: int, now: datetime | None = None
) -> Delayed:
    """A spectator's render context as the table stood `delay` seconds before `now`.

    Nothing in it is live: its version counts what was shown by then (not the table's own, which
    moves at every live action), the seats are the shown hand's players (not today's empty seat
    or who is connected), the base is that hand's, and no rank, balance or notice is included."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=delay)
    live = consistent_load(table_id)
    table = copy.copy(live.table)
    table.pause_until = table.act_since = None  # no pause or countdown in the past
    table.notices = {}
    past = _hand_at(table, cutoff)
    if past.hand is None and table.status != Table.Status.CLOSED:
        table.status = Table.Status.WAITING
    table.base, table.stake_state = _base_at(table, past.hand), Table.Stake.FIXED
    table.stake_chooser_id = table.stake_setter_id = None
    seats = _seats_at(live, past.hand)
    ctx = Loaded(table, seats, past.hand, past.state, now)
    # Rendered for nobody: a seat of the past is never the viewer's (not "you", no own tiles
    # face up, no seat to see it from), even when they sat in it then.
    context = context_for(ctx, None)
    context["viewer"]["user"] = user.get_username() if user is not None and user.is_authenticated else None
    context["legal"] = []  # a spectator of the past takes no seat in the present
    info = context["table"]
    info["version"] = past.version
    info["delay_s"] = delay
    info["seats"] = [{**s, "balance": None, "rank": None} for s in info["seats"]]
    next_in = (
        None
        if past.next_at is None
        else max(0.05, (past.next_at + timedelta(seconds=delay) - now).total_seconds())
    )
    return Delayed(context, next_in)


def _base_at(table: Table, hand: Hand | None) -> int | None:
    """The base stake shown: the shown hand's own, else the one the queue set for the table."""
    if hand is not None and (hand.setup or {}).get("base") is not None:
        return hand.setup["base"]
    return QuickMatch.objects.filter(table_id=table.pk).values_list("base", flat=True).first() or table.base


def _seats_at(live: Loaded, hand: Hand | None) -> list[Seat]:
    """The seats as the shown hand (else the table's first match) had them, all present."""
    players = _players_at(live.table, hand)
    ids = [p for p in players if p is not None]
    users = {u.pk: u for u in User.objects.filter(pk__in=ids).select_related("profile")}
    seats = []
    for seat in live.seats:
        past = copy.copy(seat)
        past.pending = past.pending_until = None
        past.auto = past.left = past.server_cut = False
        past.connections, past.disconnected_at = 1, None
        past.continue_choice = None
        past.rank = None
        if seat.index < len(players):
            uid = players[seat.index]
            past.user_id, past.user = (uid, users.get(uid)) if uid is not None else (None, None)
            past.is_bot = uid is None
            if past.user_id is not None and past.user is None:  # (an account deleted since)
                past.user_id, past.is_bot = None, True
        seats.append(past)
    return seats


def _players_at(table: Table, hand: Hand | None) -> list[int | None]:
    if hand is not None:
        return list(Match.objects.filter(pk=hand.match_id).values_list("players", flat=True).first() or [])
    first = Match.objects.filter(table_id=table.pk).order_by("started", "pk")
    return list(first.values_list("players", flat=True).first() or [])


def _hand_at(table: Table, cutoff: datetime) -> Past:
    hand = Hand.objects.filter(table_id=table.pk, started__lte=cutoff).order_by("-started", "-pk").first()
    if hand is None:
        first = (
            Hand.objects.filter(table_id=table.pk)
            .order_by("started")
            .values_list("started", flat=True)
            .first()
        )
        return Past(None, None, first, 0)
    ordinal = Hand.objects.filter(table_id=table.pk, started__lte=cutoff).count()
    base = ordinal * VERSIONS_PER_HAND
    if hand.ended is not None and hand.ended <= cutoff:
        later = (
            Hand.objects.filter(table_id=table.pk, started__gt=hand.started)
            .order_by("started")
            .values_list("started", flat=True)
            .first()
        )
        return Past(hand, None, later, base + VERSIONS_PER_HAND - 1)
    shown = HandAction.objects.filter(hand=hand, created__lte=cutoff).count()
    upcoming = HandAction.objects.filter(hand=hand, seq=shown + 1).values_list("created", flat=True).first()
    past = copy.copy(hand)
    past.status, past.actions_count = Hand.Status.PLAYING, shown
    past.result = past.settlement = past.ended = None
    state = hand_state(past, table.variant)
    if state.phase == "over":  # (ended a moment after its last action)
        return Past(hand, None, None, base + VERSIONS_PER_HAND - 1)
    table.status = Table.Status.PLAYING
    return Past(past, state, upcoming or hand.ended, base + _public_steps(hand, table.variant, shown))


def _public_steps(hand: Hand, variant: str, shown: int) -> int:
    """How many of the first `shown` actions changed what a spectator sees: an answer inside a
    claim window that leaves it open changes nothing they see (the window is veiled), so it
    bumps no version — a spectator learns nothing from the log's timing that a live one does
    not (docs/protocol.md "Claim windows")."""
    key = (hand.pk, hand.seed, shown)
    known = _STEPS.get(key)
    if known is not None:
        return known
    rows = HandAction.objects.filter(hand=hand, seq__lte=shown).order_by("seq")
    state = new_hand(variant, hand.seed, **hand.setup)
    steps = 0
    for seat, action in rows.values_list("seat", "action"):
        before = state.phase
        state, _events = apply(state, seat, Action.from_json(action))
        if not (before == "claim" and state.phase == "claim"):
            steps += 1
    return caches.put(_STEPS, key, steps, 2000)


# (hand id, seed, actions shown) -> the public steps among them (the log is append-only)
_STEPS: dict[tuple[int, int, int], int] = caches.registered({})


def watches_live(table_id: int, user: AbstractBaseUser | None) -> bool:
    """Whether this viewer, not seated, still watches the table live: they are a player of its
    newest match (every hand of a match has the same players, games.table.play), so what the
    table shows is hands they played, or the wait after them."""
    if user is None or not user.is_authenticated:
        return False
    newest = Match.objects.filter(table_id=table_id).order_by("-started", "-pk")
    return user.pk in (newest.values_list("players", flat=True).first() or [])


def for_viewer(table_id: int, user: AbstractBaseUser | None, context: dict[str, Any]) -> dict[str, Any]:
    """The table page's context: delayed for a spectator of a delayed table, else unchanged."""
    if context["viewer"]["seat"] is not None:
        return context
    delay = delay_for(table_id)
    if not delay or watches_live(table_id, user):
        return context
    return delayed_context(table_id, user, delay).context


class DelayedSpectatorSocket:
    """Mixed into the table socket: a spectator's frames are replaced by delayed ones."""

    table_id: int
    closed: bool
    spectator_delay = 0  # set by the arrival (games.sockets.arrival)
    _delay_timer: asyncio.TimerHandle | None = None
    _actor: Callable[[], Any]  # the consumer's own
    send_state: Callable[..., Awaitable[bool]]

    shown_behind = False  # the last frame was a delayed one (this viewer is a spectator)

    def chat_hold(self, frame: dict[str, Any]) -> float:
        """Seconds to hold a chat line for this viewer: a delayed spectator gets it when the
        board they see reaches the moment it was said (games.social.chat)."""
        if not self.spectator_delay or not self.shown_behind:
            return 0.0
        said = datetime.fromisoformat(frame["at"])
        return (said + timedelta(seconds=self.spectator_delay) - timezone.now()).total_seconds()

    async def delayed(self, context: dict[str, Any]) -> dict[str, Any]:
        self.shown_behind = bool(self.spectator_delay) and context["viewer"]["seat"] is None
        if self.shown_behind and await db(watches_live)(self.table_id, self._actor()):
            self.shown_behind = False  # a player of the newest match, stood up: live
        if not self.shown_behind:
            self._refresh_in(None)
            return context
        result = await db(delayed_context)(self.table_id, self._actor(), self.spectator_delay)
        self._refresh_in(result.next_in)
        return result.context

    def _refresh_in(self, seconds: float | None) -> None:
        if self._delay_timer is not None:
            self._delay_timer.cancel()
        self._delay_timer = None
        if seconds is not None:
            loop = asyncio.get_running_loop()
            self._delay_timer = loop.call_later(seconds, lambda: loop.create_task(self._catch_up()))

    async def _catch_up(self) -> None:
        if not self.closed:
            # not forced: a frame goes out only when what the spectator sees changed (its
            # version counts only such changes), never at a live action's moment
            await self.send_state()
