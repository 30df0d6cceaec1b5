"""Model rules: seats, stakes and penalties by variant, the append-only log replays."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from common import caches
from games.engine.actions import Action, replay
from games.models import HandAction, Seat, Table
from games.table import commands, hand_log
from tests.games.conftest import bot_table, play_to_end

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("variant", "players", "penalty"), [("shanghai", 4, 100), ("two_player", 2, 26)])
def test_players_and_escape_penalty(alice: User, variant: str, players: int, penalty: int) -> None:
    table = Table(variant=variant, base=2)
    assert table.players == players
    assert table.escape_penalty == penalty
    assert table.minimum_balance == 100


def test_seat_flags() -> None:
    seat = Seat(index=0)
    assert seat.empty and not seat.connected and seat.played_by_server
    seat.is_bot = True
    assert not seat.empty and seat.connected


def test_log_sequence_is_unique(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    first = HandAction.objects.filter(hand=table.hand).first()
    assert first is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        HandAction.objects.create(
            hand=table.hand, seq=first.seq, seat=0, action={"type": "pass"}, actor="human"
        )


def test_the_log_is_the_truth_after_a_restart(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    hand = table.hand
    rows = HandAction.objects.filter(hand=hand).order_by("seq")
    state, _ = replay(
        table.variant, hand.seed, [(r.seat, Action.from_json(r.action)) for r in rows], **hand.setup
    )
    caches.clear_all()  # a fresh process
    assert hand_log.hand_state(hand, table.variant) == state
    assert state.phase == "over"
