"""Spectator delay (issue 18): spectators of quick-match tables see the game some time behind.

Who: a viewer not seated at the table, at a table the queue started (ranked or not); the delay
is the admin's `SiteSettings.spectator_delay_seconds` (default 180 s; 0 turns it off). Seated
players, and every viewer of other tables (private ones included), see it live.

What: the frame a spectator gets is built from the table's log as it stood `delay` seconds ago
(`delayed_context`): the newest hand begun by then, with only the actions logged by then
(`HandAction.created`), or its settlement if it had ended by then. It is the engine's public view
(`view_for(state, None)`) like any spectator's, so it holds no concealed tile; balances are
left out (a settlement would show in them early). The frame carries the table's current version
(versions only grow on a socket) and `table.delay_s`. As time passes, the socket renders again
when the next logged action comes due (`next_in`), even if nothing new happens at the table.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from common import settings_store
from games.db_threads import db, db_arrivals
from games.models import Hand, HandAction, QuickMatch, Table
from games.presenters import consistent_load, context_for
from games.table.hand_log import hand_state
from games.table.loaded import Loaded


def delay_for(table_id: int) -> int:
    """Seconds spectators of this table are kept behind (0: live)."""
    if not QuickMatch.objects.filter(table_id=table_id).exists():
        return 0
    return settings_store.current().spectator_delay_seconds


@dataclass
class Delayed:
    context: dict[str, Any]
    next_in: float | None  # seconds until the delayed view changes by itself (None: not by itself)


def delayed_context(
    table_id: int, user: AbstractBaseUser | None, delay: int, now: datetime | None = None
) -> Delayed:
    """A spectator's render context as the table stood `delay` seconds before `now`."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=delay)
    live = consistent_load(table_id)
    table = copy.copy(live.table)
    table.pause_until = table.act_since = None  # no pause or countdown in the past
    hand, state, next_at = _hand_at(table, cutoff)
    if hand is None and table.status != Table.Status.CLOSED:
        table.status = Table.Status.WAITING
    seats = [copy.copy(s) for s in live.seats]
    for seat in seats:
        seat.pending = seat.pending_until = None
    ctx = Loaded(table, seats, hand, state, now)
    context = context_for(ctx, user)
    info = context["table"]
    info["delay_s"] = delay
    info["seats"] = [{**s, "balance": None} for s in info["seats"]]
    next_in = (
        None if next_at is None else max(0.05, (next_at + timedelta(seconds=delay) - now).total_seconds())
    )
    return Delayed(context, next_in)


def _hand_at(table: Table, cutoff: datetime) -> tuple[Hand | None, Any, datetime | None]:
    """(the hand as shown, its state while playing, when the next logged event happened)."""
    hand = Hand.objects.filter(table_id=table.pk, started__lte=cutoff).order_by("-started", "-pk").first()
    if hand is None:
        first = (
            Hand.objects.filter(table_id=table.pk)
            .order_by("started")
            .values_list("started", flat=True)
            .first()
        )
        return None, None, first
    if hand.ended is not None and hand.ended <= cutoff:
        later = (
            Hand.objects.filter(table_id=table.pk, started__gt=hand.started)
            .order_by("started")
            .values_list("started", flat=True)
            .first()
        )
        return hand, None, later
    shown = HandAction.objects.filter(hand=hand, created__lte=cutoff).count()
    upcoming = HandAction.objects.filter(hand=hand, seq=shown + 1).values_list("created", flat=True).first()
    past = copy.copy(hand)
    past.status, past.actions_count = Hand.Status.PLAYING, shown
    past.result = past.settlement = past.ended = None
    state = hand_state(past, table.variant)
    if state.phase == "over":  # (ended a moment after its last action)
        return hand, None, None
    table.status = Table.Status.PLAYING
    return past, state, upcoming or hand.ended


def for_viewer(table_id: int, user: AbstractBaseUser | None, context: dict[str, Any]) -> dict[str, Any]:
    """The table page's context: delayed for a spectator of a delayed table, else unchanged."""
    if context["viewer"]["seat"] is not None:
        return context
    delay = delay_for(table_id)
    return delayed_context(table_id, user, delay).context if delay else context


class DelayedSpectatorSocket:
    """Mixed into the table socket: a spectator's frames are replaced by delayed ones."""

    table_id: int
    closed: bool
    spectator_delay = 0
    _delay_timer: asyncio.TimerHandle | None = None
    _actor: Callable[[], Any]  # the consumer's own
    send_state: Callable[..., Awaitable[bool]]

    async def load_spectator_delay(self) -> None:
        self.spectator_delay = await db_arrivals(delay_for)(self.table_id)

    async def delayed(self, context: dict[str, Any]) -> dict[str, Any]:
        if not self.spectator_delay or context["viewer"]["seat"] is not None:
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
            await self.send_state(force=True)
