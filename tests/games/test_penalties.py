"""Every penalty path exactly once (escape, disconnect, false win, manual, reversal) and the ban policy."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import LedgerEntry
from games.clock.ticks import drive_table_until_idle
from games.engine.actions import Action, legal_actions
from games.models import Table
from games.moderation import penalties
from games.moderation.models import Ban, Penalty, PenaltyReversal
from games.sockets.models import ServerStart
from games.table import commands, opening, presence
from games.table.errors import ServiceError
from tests.games.conftest import after_pause, balance, bot_table, hand_over, play_to_end, state_of

pytestmark = pytest.mark.django_db


def two_humans(alice: User, bob: User, variant: str = "shanghai") -> Table:
    table = opening.create_table(alice, variant)
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    commands.sit(table.pk, bob, 1)
    commands.accept_stake(table.pk, bob)
    for index in range(2, table.players):
        commands.add_bot(table.pk, alice, index)
    commands.start_hand(table.pk, bob)
    return Table.objects.get(pk=table.pk)


def test_escape_is_one_penalty_row_with_ledger_rows_and_a_ban(alice: User, bob: User) -> None:
    table = two_humans(alice, bob)
    commands.leave(table.pk, alice)
    penalty = Penalty.objects.get(user=alice)
    ban = Ban.objects.get(user=alice)  # the ban at once; the points with the hand's settlement
    assert ban.ends - ban.starts == timedelta(minutes=10) and ban.penalty == penalty
    play_to_end(table.pk)
    penalty.refresh_from_db()
    assert (penalty.reason, penalty.amount, penalty.hand_id) == ("escape", 100, table.hand_id)
    assert LedgerEntry.objects.get(user=alice, kind="penalty").penalty == penalty
    assert LedgerEntry.objects.get(user=bob, kind="penalty_share").delta == 100
    assert Penalty.objects.filter(user=alice).count() == 1


@pytest.mark.parametrize(("variant", "multiplier"), [("shanghai", 20), ("two_player", 5), ("yihua", 100)])
def test_the_escape_penalty_house_rule_sets_the_penalty(
    alice: User, bob: User, variant: str, multiplier: int
) -> None:
    """The table's `escape_penalty` option used to be stored and ignored."""
    table = opening.create_table(alice, variant, options={"escape_penalty": multiplier})
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    commands.sit(table.pk, bob, 1)
    commands.accept_stake(table.pk, bob)
    for index in range(2, table.players):
        commands.add_bot(table.pk, alice, index)
    commands.start_hand(table.pk, bob)
    commands.leave(table.pk, alice)
    play_to_end(table.pk)
    # one other person: the share is capped at what the hand could have cost her (50 × base)
    assert Penalty.objects.get(user=alice).amount == min(multiplier * 2, 100)
    assert LedgerEntry.objects.get(user=alice, kind="penalty").delta == -min(multiplier * 2, 100)


def test_without_the_house_rule_the_site_multiplier_applies(alice: User) -> None:
    table = opening.create_table(alice, "two_player")
    Table.objects.filter(pk=table.pk).update(base=3)
    assert Table.objects.get(pk=table.pk).escape_penalty == 13 * 3


def test_disconnect_after_a_server_restart_is_nobodys_fault(alice: User, bob: User) -> None:
    table = two_humans(alice, bob, "two_player")
    presence.connect(table.pk, bob)
    presence.disconnect(table.pk, bob)
    penalties.record_server_start()  # the server restarted while he was away
    b0 = balance(bob)
    later = timezone.now() + timedelta(seconds=121)
    drive_table_until_idle(table.pk, later, until=lambda t: hand_over(t) or Seat_left(t))
    assert not Penalty.objects.filter(user=bob).exists()
    assert not Ban.objects.filter(user=bob).exists()
    assert balance(bob) >= b0 - 10_000  # only the hand's result, no penalty row
    assert ServerStart.objects.count() == 1


def Seat_left(table: Table) -> bool:  # noqa: N802 - reads like the condition it is
    return table.seats.filter(left=True).exists()


def test_false_win_is_recorded_once_with_its_hand(alice: User) -> None:
    table = bot_table(alice, "yihua", base=2)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)

    def alices_turn(t: Table) -> bool:
        state = state_of(t.pk)
        return state is not None and state.phase == "turn" and state.turn == 0

    drive_table_until_idle(table.pk, until=lambda t: alices_turn(t) or hand_over(t))
    state = state_of(table.pk)
    if state is None or Action("win") in legal_actions(state, 0):
        pytest.skip("the hand ended first, or she really can win")
    commands.act(table.pk, alice, {"type": "win"}, after_pause(Table.objects.get(pk=table.pk)))
    assert state_of(table.pk).penalties[0][0] == "false_win"
    commands.set_auto(table.pk, alice, True)
    play_to_end(table.pk)
    rows = Penalty.objects.filter(user=alice, reason="false_win")
    assert rows.count() == 1
    hand = Table.objects.get(pk=table.pk).hand
    assert rows[0].hand == hand and rows[0].amount == 4  # 2 × base
    assert {"seat": 0, "amount": 4, "reason": "false_win"} in hand.settlement["penalties"]


def test_manual_penalty_and_its_reversal_once(alice: User, bob: User) -> None:
    a0 = balance(alice)
    penalty = penalties.manual_penalty(alice, 30, bob, note="rude chat")
    assert (penalty.reason, penalty.amount, penalty.created_by) == ("manual", 30, bob)
    assert balance(alice) == a0 - 30
    reversal = penalties.reverse_penalty(penalty, bob, note="appeal")
    assert isinstance(reversal, PenaltyReversal)
    assert penalties.reverse_penalty(penalty, bob) is None  # only once
    assert balance(alice) == a0
    kinds = list(LedgerEntry.objects.filter(user=alice, penalty=penalty).values_list("kind", "delta"))
    assert sorted(kinds) == [("penalty", -30), ("penalty_reversal", 30)]
    assert Penalty.objects.filter(pk=penalty.pk).exists()  # never deleted


def test_a_manual_penalty_never_goes_below_zero(alice: User) -> None:
    penalty = penalties.manual_penalty(alice, 10**9, None)
    assert balance(alice) == 0 and penalty.amount > 0
    with pytest.raises(ValueError):
        penalties.manual_penalty(alice, 0, None)


@pytest.mark.parametrize(
    ("escapes", "minutes"), [(1, 10), (2, 20), (3, 40), (8, 1280), (9, 24 * 60), (20, 24 * 60)]
)
def test_ban_length_grows_and_is_capped(escapes: int, minutes: int) -> None:
    assert penalties.ban_length(escapes) == timedelta(minutes=minutes)


def test_bans_block_sitting_and_expire(alice: User, bob: User) -> None:
    now = timezone.now()
    penalties.ban_user(alice, 10, bob, "test", now=now)
    table = opening.create_table(bob, "shanghai")
    with pytest.raises(ServiceError) as e:
        commands.sit(table.pk, alice, 0)
    assert e.value.code == "banned"
    assert "test" in e.value.message
    assert penalties.active_ban(alice, now + timedelta(minutes=9)) is not None
    assert penalties.active_ban(alice, now + timedelta(minutes=11)) is None
    # Expired: bring the bans' clock forward by moving the ban into the past.
    Ban.objects.filter(user=alice).update(starts=now - timedelta(hours=1), ends=now - timedelta(minutes=1))
    commands.sit(table.pk, alice, 0)


def test_repeated_escapes_double_the_ban_and_reversal_lifts_it(alice: User, bob: User) -> None:
    now = timezone.now()
    first = penalties.escalate_ban(alice, penalties.manual_penalty(alice, 1, None), now)
    second = penalties.escalate_ban(alice, penalties.manual_penalty(alice, 1, None), now + timedelta(hours=1))
    assert first.ends - first.starts == timedelta(minutes=10)
    assert second.ends - second.starts == timedelta(minutes=20)
    # Outside the 24 h window the count starts again.
    third = penalties.escalate_ban(alice, penalties.manual_penalty(alice, 1, None), now + timedelta(hours=30))
    assert third.ends - third.starts == timedelta(minutes=10)  # both earlier ones are over 24 h ago
    penalties.reverse_penalty(second.penalty, bob)
    second.refresh_from_db()
    assert second.ends <= timezone.now()


def test_the_bans_of_several_players_are_each_ones_own(alice: User, bob: User) -> None:
    """A hand's start reads every seat's ban-if-escaping in one statement: each counts only
    that player's unreversed escapes in the window, as the one-player reading does."""
    carol = User.objects.create_user(username="carol")
    now = timezone.now()
    for when in (now - timedelta(hours=2), now - timedelta(hours=1)):
        penalties.escalate_ban(alice, penalties.manual_penalty(alice, 1, None), when)
    an_hour_ago = now - timedelta(hours=1)
    reversed_one = penalties.escalate_ban(bob, penalties.manual_penalty(bob, 1, None), an_hour_ago)
    penalties.escalate_ban(bob, penalties.manual_penalty(bob, 1, None), now - timedelta(hours=30))  # outside
    penalties.reverse_penalty(reversed_one.penalty, alice)
    ids = [alice.pk, bob.pk, carol.pk]
    together = penalties.bans_if_escaping(ids, now)
    assert together == {pk: penalties.ban_if_escaping(pk, now) for pk in ids}
    assert together[alice.pk] == timedelta(minutes=40) and together[bob.pk] == together[carol.pk]


def test_an_escape_ban_reads_in_the_readers_language_whoever_wrote_it(alice: User) -> None:
    """The clock writes escape bans with no reader; the English board must not show 逃跑."""
    from django.utils import translation

    with translation.override("zh-hans"):  # the writer's language must not stick to the row
        ban = penalties.escalate_ban(alice, penalties.manual_penalty(alice, 1, None), timezone.now())
    ban.refresh_from_db()
    with translation.override("en"):
        assert ban.reason_text == "1 escape(s) in 24 hours"
        assert "逃跑" not in penalties.ban_message(ban)
    with translation.override("zh-hans"):
        assert "逃跑" in ban.reason_text
