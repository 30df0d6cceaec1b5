"""What a table waits for: stale versions within a decision, and the Continue deadline."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.db.models import F

from games.clock.ticks import drive_table_until_idle
from games.engine.actions import legal_actions
from games.models import Table
from games.table import commands, presence, store, timers
from games.table.errors import ServiceError
from tests.games.conftest import after_pause, bot_table, snapshot, state_of
from tests.games.test_services import alices_turn

pytestmark = pytest.mark.django_db


def _alice_to_move(alice: User) -> tuple[Table, dict]:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
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
    commands.perform(table.pk, alice, seen, discard, after_pause(table))
    assert state_of(table.pk).players[0].discard_count == 1


def test_a_version_from_an_earlier_decision_is_stale(alice: User) -> None:
    table, discard = _alice_to_move(alice)
    seen = table.version
    # a new decision began after the state alice acted on
    Table.objects.filter(pk=table.pk).update(version=F("version") + 2, decision_version=F("version") + 1)
    before = snapshot(table.pk)
    with pytest.raises(ServiceError) as refused:
        commands.perform(table.pk, alice, seen, discard, after_pause(table))
    assert refused.value.code == "stale_version"
    assert snapshot(table.pk) == before


def test_table_actions_need_the_exact_version(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    with pytest.raises(ServiceError) as refused:
        commands.perform(table.pk, alice, table.version, {"type": "start"})
    assert refused.value.code == "stale_version"


def test_an_undecided_player_is_stood_up_a_minute_after_the_settlement(alice: User) -> None:
    from games.models import Hand, Seat
    from games.moderation.models import Penalty
    from tests.games.conftest import play_to_end

    table = bot_table(alice, "shanghai")
    commands.set_auto(table.pk, alice, True)
    commands.start_hand(table.pk, alice)
    now = play_to_end(table.pk)
    hand = Hand.objects.filter(table=table).latest("pk")
    assert Seat.objects.get(table=table, index=0).user_id == alice.pk
    # the bots chose to continue; alice chose nothing; a minute passes on the table clock
    drive_table_until_idle(table.pk, now, until=lambda t: Seat.objects.get(table=t, index=0).user_id is None)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id is None
    assert Hand.objects.filter(table=table).latest("pk").pk == hand.pk  # no new hand without her
    assert not Penalty.objects.filter(user=alice).exists()  # the hand was over: no escape


def _stood_up_after_the_settlement(alice: User) -> tuple[Table, datetime]:
    """A shanghai table (alice + 3 bots) whose hand ended and whose Continue deadline passed."""
    from games.models import Seat
    from tests.games.conftest import play_to_end

    table = bot_table(alice, "shanghai")
    commands.set_auto(table.pk, alice, True)
    commands.start_hand(table.pk, alice)
    now = play_to_end(table.pk)
    now = drive_table_until_idle(
        table.pk, now, until=lambda t: Seat.objects.get(table=t, index=0).user_id is None
    )
    return Table.objects.get(pk=table.pk), now


def test_after_the_continue_deadline_anyone_can_sit_and_stay(alice: User, bob: User) -> None:
    """A stale Continue deadline once stood up everyone who sat down afterwards."""
    from datetime import timedelta

    from games.models import Hand, Seat
    from games.rendering.presenters import table_context

    table, now = _stood_up_after_the_settlement(alice)
    finished = table.hand
    assert table.status == Table.Status.WAITING
    commands.sit(table.pk, alice, 0)  # the same player comes back
    commands.remove_bot(table.pk, alice, 1)
    commands.sit(table.pk, bob, 1)  # a player who never played here
    later = now + timedelta(minutes=10)
    drive_table_until_idle(table.pk, later)  # the clock runs on: nothing is due for them
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, later)
    seated = [s.user_id for s in Seat.objects.filter(table=table).order_by("index")]
    assert seated[:2] == [alice.pk, bob.pk]
    table.refresh_from_db()
    assert table.deadline is None  # no stale deadline left to fire
    # a plain waiting table: no Continue owed, the stake and Start as at a new table
    context = table_context(table, bob)
    assert context["table"]["continue_ms"] is None
    assert {"type": "continue"} not in context["legal"]
    commands.set_stake(table.pk, alice, 2)
    commands.accept_stake(table.pk, bob)
    assert {"type": "start"} in table_context(table, alice)["legal"]
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert table.hand_id != finished.pk and table.hand.status == Hand.Status.PLAYING


def test_the_continue_deadline_is_configurable(alice: User, settings: object) -> None:
    from datetime import timedelta

    from games.models import Hand, Seat
    from tests.games.conftest import play_to_end

    settings.CONTINUE_SECONDS = 5  # type: ignore[attr-defined]
    table = bot_table(alice, "shanghai")
    commands.set_auto(table.pk, alice, True)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    ended = Hand.objects.get(pk=table.hand_id).ended
    assert table.deadline == ended + timedelta(seconds=5)
    timers.timeout(table.pk, table.revision, ended + timedelta(seconds=4.9))
    assert Seat.objects.get(table=table, index=0).user_id == alice.pk
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, ended + timedelta(seconds=5))
    assert Seat.objects.get(table=table, index=0).user_id is None


def test_the_settlement_counts_down_the_continue_choice(alice: User) -> None:
    from datetime import timedelta

    from games.models import Hand
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import context_for
    from tests.games.conftest import play_to_end

    table = bot_table(alice, "shanghai")
    commands.set_auto(table.pk, alice, True)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    ended = Hand.objects.get(pk=table.hand_id).ended
    ctx = store.load(table, ended + timedelta(seconds=18))
    context = context_for(ctx, alice)
    assert context["table"]["continue_ms"] == 42_000
    html = render_table_html(context, "en")
    assert 'class="countdown continue-countdown mine" data-ms="42000"' in html
    assert "Continue within <strong>42</strong> s" in html
    assert context_for(ctx, None)["table"]["continue_ms"] is None  # spectators owe nothing
    commands.continue_play(table.pk, alice)  # (a new hand starts: everyone continued)
    assert context_for(store.load(Table.objects.get(pk=table.pk)), alice)["table"]["continue_ms"] is None


def test_a_claim_with_the_windows_first_version_counts_after_another_seat_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bob passes in the window, then dave pongs with the version he saw when
    the window opened; the pong is taken (held for its undo window), not refused as stale."""
    from tests.games.claim_window import CLAIMED, PASS, PONG, four_people, rigged_table

    alice, bob, _carol, dave = people = four_people("w8-")
    table = rigged_table(people, monkeypatch)
    commands.perform(table.pk, alice, table.version, CLAIMED)
    opened = Table.objects.get(pk=table.pk)
    first = opened.version  # the version every claimant is shown
    commands.perform(table.pk, bob, first, PASS)
    answered = Table.objects.get(pk=table.pk)
    # an answer neither restarts the pause after the discard nor begins a new decision
    assert (answered.pause_until, answered.act_since) == (opened.pause_until, opened.act_since)
    commands.perform(table.pk, dave, first, PONG)
    seat = store.load(Table.objects.get(pk=table.pk)).seats[3]
    assert seat.pending == PONG
