"""Hand checkpoints (games/table/checkpoints.py): saved and read back exactly, one per hand, ignored
when written by another engine version or unreadable."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from common import caches
from games.clock.ticks import drive_table_until_idle
from games.engine.actions import new_hand
from games.models import Hand, HandCheckpoint, Table
from games.table import checkpoints, commands, hand_log
from tests.games.conftest import bot_table, play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def hand_id(alice: User) -> int:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert table.hand is not None
    return table.hand.pk


def test_due_every_few_actions_never_at_the_deal() -> None:
    every = checkpoints.CHECKPOINT_EVERY
    assert [n for n in range(3 * every + 1) if checkpoints.due(n)] == [every, 2 * every, 3 * every]


def test_a_checkpoint_reads_back_equal_and_the_newest_replaces_the_older(hand_id: int) -> None:
    first, second = new_hand("shanghai", 1, dealer=0), new_hand("shanghai", 2, dealer=1)
    checkpoints.save(hand_id, 16, first)
    assert checkpoints.latest(hand_id, 20) == (16, first)
    checkpoints.save(hand_id, 32, second)
    assert HandCheckpoint.objects.filter(hand_id=hand_id).count() == 1
    assert checkpoints.latest(hand_id, 40) == (32, second)
    assert checkpoints.latest(hand_id, 31) is None  # newer than the state asked for: replay instead
    checkpoints.forget(hand_id)
    assert checkpoints.latest(hand_id, 40) is None


def test_another_engine_version_or_a_damaged_row_is_ignored(hand_id: int) -> None:
    checkpoints.save(hand_id, 16, new_hand("shanghai", 1, dealer=0))
    HandCheckpoint.objects.filter(hand_id=hand_id).update(engine_format="0" * 16)
    assert checkpoints.latest(hand_id, 16) is None
    rows = HandCheckpoint.objects.filter(hand_id=hand_id)
    rows.update(engine_format=checkpoints.ENGINE_FORMAT, state=b"junk")
    assert checkpoints.latest(hand_id, 16) is None


def test_a_process_that_never_saw_the_hand_starts_from_its_checkpoint(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a restart the hand is rebuilt from the checkpoint and the few actions
    since; replaying from the deal is not even tried."""
    every = checkpoints.CHECKPOINT_EVERY
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)

    def far_enough(t: Table) -> bool:
        hand = Hand.objects.filter(table_id=t.pk).order_by("-pk").first()
        return hand is not None and (hand.actions_count >= 2 * every + 3 or hand.status == Hand.Status.OVER)

    for _ in range(10):  # a hand the bots win early: play the next one
        drive_table_until_idle(table.pk, None, until=far_enough)
        table.refresh_from_db()
        hand = table.hand
        assert hand is not None
        if hand.status == Hand.Status.PLAYING:
            break
        commands.continue_play(table.pk, alice)  # everyone continued: the next hand starts
    assert hand.status == Hand.Status.PLAYING and hand.actions_count >= 2 * every + 3
    saved = checkpoints.latest(hand.pk, hand.actions_count)
    assert saved is not None and saved[0] == hand.actions_count // every * every
    expected = hand_log.replay_hand(hand, table.variant)

    caches.clear_all()  # a fresh process

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("replayed from the deal")

    monkeypatch.setattr(hand_log, "replay_hand", no_replay)
    assert hand_log.hand_state(hand, table.variant) == expected


def test_an_ended_hand_keeps_no_checkpoint(alice: User) -> None:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    assert table.hand is not None and table.hand.actions_count > checkpoints.CHECKPOINT_EVERY
    assert not HandCheckpoint.objects.filter(hand_id=table.hand.pk).exists()
