"""Points never come from nowhere: the 50 × base floor at every entry, and a
table with bots moves points only between its humans (payments with a bot are practice)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import LedgerEntry
from accounts.services import create_api_token
from games.models import Hand, ScoreEntry, Table
from games.table import commands, opening
from games.table.errors import ServiceError
from games.table.seating import INSUFFICIENT_POINTS
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import balance, bot_table, hand_over, play_to_end, set_balance, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def broke(db: None) -> User:
    """An account with 0 points (the red team's)."""
    user = make_user("broke")
    set_balance(user, 0)
    return user


def _refused(call: object, *args: object) -> None:
    with pytest.raises(ServiceError) as refused:
        call(*args)  # type: ignore[operator]
    assert refused.value.code == "insufficient_points"


# --- the floor at every entry -----------------------------------------------------------------


def test_a_zero_point_account_cannot_create_a_table_by_the_api(broke: User) -> None:
    body = {"variant": "shanghai", "base": 1000, "bots": 3}
    response = Client().post(
        "/api/tables/",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {create_api_token(broke)}"},
    )
    assert response.status_code == 400 and response.json()["error"] == "insufficient_points"
    assert not Table.objects.exists()


def test_a_zero_point_account_cannot_create_a_table_by_the_form(broke: User) -> None:
    payload = {"variant": "shanghai", "base": 1000, "turn_seconds": 15, "claim_seconds": 8}
    payload |= {"pause_ms": 1000, "bots": 3, "public": "on"}
    response = logged_in_client(broke).post(reverse("games:create"), payload)
    assert response.status_code == 200 and not Table.objects.exists()
    assert INSUFFICIENT_POINTS in response.content.decode()


def test_a_zero_point_account_cannot_sit_before_the_stake_is_set(alice: User, broke: User) -> None:
    table = opening.create_table(alice, "shanghai")
    _refused(commands.sit, table.pk, broke, 0)
    assert not Table.objects.get(pk=table.pk).seats.filter(user=broke).exists()


def test_a_zero_point_account_cannot_sit_at_a_staked_table(alice: User, broke: User) -> None:
    table = bot_table(alice, base=2, bots=2)
    _refused(commands.sit, table.pk, broke, 3)


def test_the_stake_cannot_be_set_above_what_the_setter_holds(alice: User) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    set_balance(alice, 50 * 20 - 1)
    before = snapshot(table.pk)
    _refused(commands.set_stake, table.pk, alice, 20)
    assert snapshot(table.pk) == before and Table.objects.get(pk=table.pk).base is None
    commands.set_stake(table.pk, alice, 19)  # 950 points cover 50 × 19 exactly
    assert Table.objects.get(pk=table.pk).base == 19


def test_a_zero_point_account_cannot_accept_a_stake(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    commands.sit(table.pk, bob, 1)
    set_balance(bob, 0)  # e.g. lost at another table meanwhile
    _refused(commands.accept_stake, table.pk, bob)
    assert not Table.objects.get(pk=table.pk).seats.get(index=1).accepted


def test_a_hand_does_not_start_with_a_zero_point_player(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    commands.sit(table.pk, bob, 1)
    commands.accept_stake(table.pk, bob)
    set_balance(bob, 0)
    _refused(commands.start_hand, table.pk, alice)
    assert Table.objects.get(pk=table.pk).hand is None


def test_the_next_hand_does_not_start_with_a_zero_point_player(alice: User) -> None:
    table = bot_table(alice, "two_player")
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    set_balance(alice, 0)  # below the floor only after the settlement's own check
    commands.continue_play(table.pk, alice)
    table = Table.objects.get(pk=table.pk)
    assert Hand.objects.filter(table=table).count() == 1  # no next hand
    assert table.notices[str(alice.pk)] == INSUFFICIENT_POINTS
    assert not table.seats.filter(user=alice).exists()


# --- bots: practice, not points ----------------------------------------------------------------


def _hands_until_practice(table_id: int, people: list[User], hands: int = 8) -> Hand:
    """Play hands until one has a payment with a bot; returns it."""
    for _ in range(hands):
        play_to_end(table_id)
        hand = Table.objects.get(pk=table_id).hand
        assert hand is not None and hand_over(Table.objects.get(pk=table_id))
        if any(hand.settlement["practice"]):
            return hand
        for person in people:
            commands.continue_play(table_id, person)
    raise AssertionError("no hand with a payment to or from a bot")


def test_a_human_against_bots_keeps_every_point(alice: User) -> None:
    """Before: a 0-point player took +90,000 from bots holding a notional 10⁹."""
    table = bot_table(alice, "two_player", base=10)
    commands.start_hand(table.pk, alice)
    start = balance(alice)
    hand = _hands_until_practice(table.pk, [alice])
    assert balance(alice) == start
    assert hand.settlement["payments"] == [0, 0]
    assert sum(abs(p) for p in hand.settlement["practice"]) > 0
    assert not LedgerEntry.objects.filter(user=alice, kind="hand").exclude(delta=0).exists()
    assert set(ScoreEntry.objects.filter(hand=hand).values_list("delta", flat=True)) == {0}


def test_a_table_with_bots_moves_points_only_between_its_humans(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 5)
    commands.sit(table.pk, bob, 1)
    commands.accept_stake(table.pk, bob)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, alice)
    total = balance(alice) + balance(bob)
    hand = _hands_until_practice(table.pk, [alice, bob])
    assert balance(alice) + balance(bob) == total  # nothing came from (or went to) the bots
    payments = hand.settlement["payments"]
    assert payments[2] == payments[3] == 0 and payments[0] + payments[1] == 0


def test_the_settlement_marks_practice_payments(alice: User) -> None:
    table = bot_table(alice, "two_player", base=10)
    commands.start_hand(table.pk, alice)
    _hands_until_practice(table.pk, [alice])
    html = logged_in_client(alice).get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'class="practice"' in html


def test_the_history_page_marks_practice_payments(alice: User) -> None:
    table = bot_table(alice, "two_player", base=10)
    commands.start_hand(table.pk, alice)
    _hands_until_practice(table.pk, [alice])
    html = logged_in_client(alice).get(f"/users/{alice.username}/history/").content.decode()
    assert 'class="practice"' in html
