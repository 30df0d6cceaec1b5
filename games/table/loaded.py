"""A table as read: its rows, its hand's state and what follows from them (no database work).

The store (games.table.store) builds it; a `Change` is one being changed under its lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser

from games.engine.state import HandState
from games.models import Hand, Seat, Table


@dataclass
class Loaded:
    """A table with its seats (index order) and, during a match, its current hand."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    state: HandState | None
    now: datetime
    spectators: int | None = None  # a fresher count than table.spectators (kept outside the version)
    states: dict[tuple[int, int], HandState] | None = None  # a snapshot's states of the hand, if any

    def seat_of(self, user: AbstractBaseUser | None) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        pk = user.pk  # (a loop, not a generator: this runs for every viewer of every frame)
        for seat in self.seats:
            if seat.user_id == pk:
                return seat
        return None

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
