"""The ledger: every balance change is an entry, and a balance is always the sum of its entries."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from accounts.ledger import ledger_sum
from accounts.models import LedgerEntry
from games.models import Table
from games.moderation import penalties
from games.moderation.models import Penalty, SiteSettings
from games.table import commands
from tests.conftest import make_user
from tests.games.conftest import balance, play_to_end, two_seated

pytestmark = pytest.mark.django_db


def test_the_starting_grant_is_a_ledger_entry(alice: User) -> None:
    entry = LedgerEntry.objects.get(user=alice)
    assert entry.kind == "starting_grant" and entry.delta == balance(alice) == entry.balance_after


def test_the_admins_starting_balance_is_used_for_new_users(db: None) -> None:
    SiteSettings.objects.create(starting_balance=777)
    assert balance(make_user("dora")) == 777
    with override_settings(STARTING_BALANCE=5):  # the row wins over the deploy's setting
        assert balance(make_user("erin")) == 777


def test_balances_equal_their_ledger_after_a_played_match_with_penalties(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    now = play_to_end(table.pk)
    commands.continue_play(table.pk, alice)
    commands.continue_play(table.pk, bob)
    commands.leave(table.pk, alice)  # an escape in the second hand
    play_to_end(table.pk, now)
    manual = penalties.manual_penalty(bob, 7, alice, note="test")
    penalties.reverse_penalty(manual, alice)
    penalties.grant_points(alice, 50, bob, note="sorry")
    assert Penalty.objects.filter(user=alice, reason="escape").count() == 1
    hands = Table.objects.get(pk=table.pk).hands.count()
    assert LedgerEntry.objects.filter(user=bob, kind="hand_result").count() == hands == 2
    kinds = set(LedgerEntry.objects.values_list("kind", flat=True))
    assert {
        "starting_grant",
        "hand_result",
        "penalty",
        "penalty_share",
        "penalty_reversal",
        "admin_grant",
    } <= kinds
    for user in (alice, bob):
        assert balance(user) == ledger_sum(user)
        last = LedgerEntry.objects.filter(user=user).order_by("-created", "-pk").first()
        assert last.balance_after == balance(user)
