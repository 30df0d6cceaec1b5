"""What a table waits for: stale versions within a decision, and the Continue deadline."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import F

from games import services
from games.clock import drive_table_until_idle
from games.engine.actions import legal_actions
from games.models import Table
from games.services import ServiceError
from tests.games.conftest import after_pause, bot_table, snapshot, state_of
from tests.games.test_services import alices_turn

pytestmark = pytest.mark.django_db


def _alice_to_move(alice: User) -> tuple[Table, dict]:
    table = bot_table(alice, "shanghai")
    services.start_hand(table.pk, alice)
    services.connect(table.pk, alice)
    drive_table_until_idle(table.pk, until=alices_turn)
    table.refresh_from_db()
    state = state_of(table.pk)
    assert state is not None
    return table, next(a for a in legal_actions(state, 0) if a.type == "discard").to_json()


def test_a_version_from_the_same_decision_is_accepted(alice: User) -> None:
    table, discard = _alice_to_move(alice)
    seen = table.version
    assert table.decision_version <= seen
    # something else changed the table meanwhile (another seat's pass in the same window, a
    # spectator joining…) without starting a new decision: alice's click still counts
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    services.perform(table.pk, alice, seen, discard, after_pause(table))
    assert state_of(table.pk).players[0].discard_count == 1


def test_a_version_from_an_earlier_decision_is_stale(alice: User) -> None:
    table, discard = _alice_to_move(alice)
    seen = table.version
    # a new decision began after the state alice acted on
    Table.objects.filter(pk=table.pk).update(version=F("version") + 2, decision_version=F("version") + 1)
    before = snapshot(table.pk)
    with pytest.raises(ServiceError) as refused:
        services.perform(table.pk, alice, seen, discard, after_pause(table))
    assert refused.value.code == "stale_version"
    assert snapshot(table.pk) == before


def test_table_actions_need_the_exact_version(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    with pytest.raises(ServiceError) as refused:
        services.perform(table.pk, alice, table.version, {"type": "start"})
    assert refused.value.code == "stale_version"


def test_an_undecided_player_is_stood_up_a_minute_after_the_settlement(alice: User) -> None:
    from games.models import Hand, Penalty, Seat
    from tests.games.conftest import play_to_end

    table = bot_table(alice, "shanghai")
    services.set_auto(table.pk, alice, True)
    services.start_hand(table.pk, alice)
    now = play_to_end(table.pk)
    hand = Hand.objects.filter(table=table).latest("pk")
    assert Seat.objects.get(table=table, index=0).user_id == alice.pk
    # the bots chose to continue; alice chose nothing; a minute passes on the table clock
    drive_table_until_idle(table.pk, now, until=lambda t: Seat.objects.get(table=t, index=0).user_id is None)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id is None
    assert Hand.objects.filter(table=table).latest("pk").pk == hand.pk  # no new hand without her
    assert not Penalty.objects.filter(user=alice).exists()  # the hand was over: no escape


def test_a_claim_with_the_windows_first_version_counts_after_another_seat_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 23 item 8: bob passes in the window, then dave pongs with the version he saw when
    the window opened; the pong is taken (held for its undo window), not refused as stale."""
    from tests.games.claim_window import CLAIMED, PASS, PONG, four_people, rigged_table

    alice, bob, _carol, dave = people = four_people("w8-")
    table = rigged_table(people, monkeypatch)
    services.perform(table.pk, alice, table.version, CLAIMED)
    opened = Table.objects.get(pk=table.pk)
    first = opened.version  # the version every claimant is shown
    services.perform(table.pk, bob, first, PASS)
    answered = Table.objects.get(pk=table.pk)
    # an answer neither restarts the pause after the discard nor begins a new decision
    assert (answered.pause_until, answered.act_since) == (opened.pause_until, opened.act_since)
    services.perform(table.pk, dave, first, PONG)
    seat = services.load(Table.objects.get(pk=table.pk)).seats[3]
    assert seat.pending == PONG
