"""A hand action's writes (games/table/store.py): the log row, the hand's count, the checkpoint
when due and the table's new version go out as one statement at the commit; a read of the log
within the change still sees the row appended before it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine.actions import Action, legal_actions
from games.models import Hand, HandAction, HandCheckpoint, Table
from games.table import checkpoints, commands, store
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_id(alice: User) -> int:
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    return table.pk


def _one_action(table_id: int) -> None:
    """A seat that may act plays its last legal action (a discard or a pass, not a win), as a
    command would."""
    with store.change(table_id) as t:
        seat, action = _a_move(t)
        t.append(seat, action, HandAction.Actor.BOT)


def _a_move(t: store.Change) -> tuple[int, Action]:
    assert t.state is not None
    for seat in range(4):
        moves = [a for a in legal_actions(t.state, seat) if a.type in ("discard", "pass")]
        if moves:
            return seat, moves[-1]
    raise AssertionError("nobody may move")


def test_a_hand_action_writes_in_one_statement(table_id: int) -> None:
    before = Table.objects.get(pk=table_id)
    with CaptureQueriesContext(connection) as queries:
        _one_action(table_id)
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert statements[0].startswith("SELECT") and "FOR UPDATE" in statements[0]  # the locked read
    # (the reads of the seats and the hand: none in a process that kept the table's snapshot)
    writes = [sql for sql in statements if not sql.startswith("SELECT")]
    assert len(writes) == 1, writes  # everything written at once
    assert "games_handaction" in writes[0] and writes[0].split(") UPDATE ")[-1].startswith('"games_table"')
    table = Table.objects.get(pk=table_id)
    assert table.revision == before.revision + 1
    hand = Hand.objects.get(pk=table.hand_id)
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    assert rows == list(range(1, hand.actions_count + 1)) and hand.actions_count >= 1


def test_the_checkpoint_goes_out_with_the_action_that_reaches_it(table_id: int) -> None:
    hand_id = Table.objects.get(pk=table_id).hand_id
    while Hand.objects.get(pk=hand_id).actions_count < checkpoints.CHECKPOINT_EVERY:
        _one_action(table_id)
    saved = checkpoints.latest(hand_id, checkpoints.CHECKPOINT_EVERY)
    assert saved is not None and saved[0] == checkpoints.CHECKPOINT_EVERY
    assert HandCheckpoint.objects.filter(hand_id=hand_id).count() == 1


def test_a_read_within_the_change_sees_the_row_held_back(table_id: int) -> None:
    with store.change(table_id) as t:
        assert t.hand is not None
        t.append(*_a_move(t), HandAction.Actor.BOT)
        logged = HandAction.objects.filter(hand_id=t.hand.pk).count()
        assert logged == t.hand.actions_count
        assert Hand.objects.get(pk=t.hand.pk).actions_count == t.hand.actions_count
