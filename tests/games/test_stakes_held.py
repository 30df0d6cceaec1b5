"""Points at stake are held while a hand runs (docs/operations.md "Stakes and escapes").

The drain: a player seated at two tables moves their points out through the second (an escape
share to an account of their own, or a hand lost to it) while a hand runs at the first, which
then could cost them nothing. Each running hand holds 50 × its base of every person in it; nothing
at another table may take a balance below what the player's other running hands hold."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User

from games.engine.state import HandResult
from games.history.ratings import ADMIN_CLOSED
from games.models import ScoreEntry, Table
from games.table import commands, opening
from games.table.changes import change
from games.table.errors import ServiceError
from games.table.settlement import finish_hand
from tests.games.conftest import balance, set_balance, two_seated

pytestmark = pytest.mark.django_db


def end_hand_with(table_id: int, payments: tuple[int, ...]) -> Table:
    """End the running hand with these payments (as the engine would have said them)."""
    with change(table_id) as ctx:
        state = ctx.state
        assert state is not None
        result = HandResult(by=ADMIN_CLOSED, payments=payments, next_dealer=state.dealer)
        ctx.state = replace(state, phase="over", window=None, result=result, penalties=())
        finish_hand(ctx)
    return Table.objects.get(pk=table_id)


def applied(table: Table, user: User) -> int:
    return ScoreEntry.objects.get(hand=table.hand, user=user).delta


def two_player_table(a: User, b: User, base: int, options: dict | None = None) -> Table:
    table = opening.create_table(a, "two_player", options=options or {})
    commands.sit(table.pk, a, 0)
    commands.set_stake(table.pk, a, base)
    commands.sit(table.pk, b, 1)
    commands.accept_stake(table.pk, b)
    commands.start_hand(table.pk, a)
    return Table.objects.get(pk=table.pk)


def test_a_second_hand_cannot_start_on_points_the_first_holds(alice: User, bob: User, carol: User) -> None:
    set_balance(alice, 1000)
    two_player_table(alice, carol, 20)  # 50 × 20: all of her 1,000 is held while it runs
    other = opening.create_table(bob, "two_player")
    commands.sit(other.pk, bob, 0)
    commands.set_stake(other.pk, bob, 20)
    with pytest.raises(ServiceError) as e:
        commands.sit(other.pk, alice, 1)
    assert e.value.code == "insufficient_points"


def test_a_hand_starting_elsewhere_stands_up_whoever_the_running_hand_holds(
    alice: User, bob: User, carol: User
) -> None:
    """She sat down at the second table between its hands, before the first began."""
    set_balance(alice, 1000)
    second = two_seated(bob, alice, "two_player", 20)
    two_player_table(alice, carol, 20)
    with pytest.raises(ServiceError) as e:
        commands.start_hand(second.pk, bob)
    assert e.value.code == "insufficient_points"


def test_an_escape_share_elsewhere_cannot_drain_a_running_hand(alice: User, bob: User, carol: User) -> None:
    """The drain through an escape: her own second account `bob` sits with her at T2."""
    set_balance(alice, 1000)
    t1 = two_player_table(alice, carol, 10)  # holds 500
    t2 = two_player_table(alice, bob, 10, {"escape_penalty": 100})  # a 1,000-point escape penalty
    commands.leave(t2.pk, alice)
    end_hand_with(t2.pk, (0, 0))
    assert balance(alice) >= 500  # what T1 holds stayed
    c0 = balance(carol)
    t1 = end_hand_with(t1.pk, (-260, 260))  # she loses at T1: paid in full
    assert applied(t1, alice) == -260 and balance(carol) == c0 + 260


def test_a_hand_lost_elsewhere_cannot_drain_a_running_hand(alice: User, bob: User, carol: User) -> None:
    set_balance(alice, 1000)
    t1 = two_player_table(alice, carol, 10)
    t2 = two_player_table(alice, bob, 10)
    t2 = end_hand_with(t2.pk, (-900, 900))  # she throws a big hand to her own second account
    assert applied(t2, alice) == -500 and applied(t2, bob) == 500  # only what T1 does not hold
    c0 = balance(carol)
    t1 = end_hand_with(t1.pk, (-260, 260))
    assert applied(t1, alice) == -260 and balance(carol) == c0 + 260


def test_the_other_way_a_win_at_the_held_table_is_paid_and_a_loss_elsewhere_backed(
    alice: User, bob: User, carol: User
) -> None:
    """Her opponent drains instead: carol's points at T1 are held against bob at T2 too."""
    set_balance(carol, 1000)
    t1 = two_player_table(alice, carol, 10)
    t2 = two_player_table(carol, bob, 10)
    end_hand_with(t2.pk, (-1000, 1000))
    a0 = balance(alice)
    t1 = end_hand_with(t1.pk, (300, -300))  # alice wins at T1: carol's loss is backed
    assert applied(t1, carol) == -300 and balance(alice) == a0 + 300


def test_with_nothing_running_elsewhere_the_whole_balance_pays(alice: User, carol: User) -> None:
    set_balance(alice, 1000)
    t1 = two_player_table(alice, carol, 10)
    t1 = end_hand_with(t1.pk, (-900, 900))
    assert applied(t1, alice) == -900


def test_an_escape_penalty_nothing_can_pay_moves_nothing_and_is_not_listed(
    alice: User, bob: User, carol: User
) -> None:
    set_balance(alice, 1000)
    two_player_table(alice, carol, 10)  # holds 500
    t2 = two_player_table(alice, bob, 10)
    commands.leave(t2.pk, alice)
    b0 = balance(bob)
    t2 = end_hand_with(t2.pk, (-500, 500))  # the hand takes all T1 does not hold
    assert balance(alice) == 500 and balance(bob) == b0 + 500  # no share: nothing was left to pay
    assert t2.hand.settlement["penalties"] == []
