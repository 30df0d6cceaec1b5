"""Live-play fixtures: people (alice, bob from tests/conftest.py, carol here), tables, a fake clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Profile
from games.clock.ticks import drive_table_until_idle
from games.engine.state import HandState
from games.models import Hand, HandAction, Table
from games.table import commands, opening, store
from tests.conftest import make_user


@pytest.fixture
def carol(db: None) -> User:
    return make_user("carol")


def bot_table(owner: User, variant: str = "shanghai", base: int = 2, bots: int | None = None) -> Table:
    """A table with `owner` in seat 0, the stake set, and bots in the other seats (or `bots` of them)."""
    table = opening.create_table(owner, variant)
    commands.sit(table.pk, owner, 0)
    commands.set_stake(table.pk, owner, base)
    count = table.players - 1 if bots is None else bots
    for index in range(1, 1 + count):
        commands.add_bot(table.pk, owner, index)
    return Table.objects.get(pk=table.pk)


def two_seated(owner: User, other: User, variant: str = "two_player", base: int = 1) -> Table:
    """`owner` in seat 0 sets the stake, `other` sits in seat 1 and accepts it."""
    table = opening.create_table(owner, variant)
    commands.sit(table.pk, owner, 0)
    commands.set_stake(table.pk, owner, base)
    commands.sit(table.pk, other, 1)
    commands.accept_stake(table.pk, other)
    return Table.objects.get(pk=table.pk)


def state_of(table_id: int) -> HandState | None:
    table = Table.objects.get(pk=table_id)
    return store.load(table).state


def hand_over(table: Table) -> bool:
    return table.hand is not None and table.hand.status == Hand.Status.OVER


def play_to_end(table_id: int, now: datetime | None = None) -> datetime:
    """Let bots, timers and 托管 finish the current hand on a fake clock."""
    return drive_table_until_idle(table_id, now, until=hand_over)


def snapshot(table_id: int) -> tuple[int, int]:
    """(table version, number of logged actions): both stay put when a request is refused."""
    return Table.objects.get(pk=table_id).version, HandAction.objects.filter(hand__table_id=table_id).count()


def set_balance(user: User, balance: int) -> None:
    Profile.objects.filter(user=user).update(balance=balance)


def balance(user: User) -> int:
    return Profile.objects.get(user=user).balance


Until = Callable[[Table], bool]


def after_pause(table: Table) -> datetime:
    """A moment on the fake clock when the pause after the last discard is over (it ends by
    itself: nothing is written then)."""
    return max(timezone.now(), table.pause_until or timezone.now())
