"""Item 5: point flows between linked accounts (same signup address, or joined minutes apart)
are flagged in the admin: penalty shares and hands repeatedly lost to the same player."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone, translation

from accounts import flows, ledger
from accounts.models import LedgerEntry, Profile
from games.models import Hand, Match, Penalty, ScoreEntry, Table
from tests.conftest import PASSWORD, logged_in_client, make_user


def account(name: str, address: str | None, joined_days_ago: int) -> User:
    user = make_user(name)
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=joined_days_ago))
    Profile.objects.filter(user=user).update(signup_ip=address)
    user.refresh_from_db()
    return user


def penalty_share(payer: User, receiver: User, points: int = 50) -> None:
    penalty = Penalty.objects.create(user=payer, reason=Penalty.Reason.ESCAPE, amount=points)
    ledger.post(receiver, points, LedgerEntry.Kind.PENALTY_SHARE, penalty=penalty)


def lost_hand(loser: User, winner: User, points: int = 30) -> None:
    table = Table.objects.create(variant="shanghai", owner=winner)
    match = Match.objects.create(table=table, players=[winner.pk, loser.pk])
    hand = Hand.objects.create(
        table=table, match=match, number=1, seed=1, dealer=0, round_wind=0, status=Hand.Status.OVER
    )
    ScoreEntry.objects.create(hand=hand, seat=0, user=winner, delta=points)
    ScoreEntry.objects.create(hand=hand, seat=1, user=loser, delta=-points)
    ledger.post(winner, points, LedgerEntry.Kind.HAND_RESULT, hand=hand)  # as the settlement posts them
    ledger.post(loser, -points, LedgerEntry.Kind.HAND_RESULT, hand=hand)


def test_penalty_shares_between_accounts_of_one_address_are_flagged(db: None) -> None:
    farm = account("farm", "203.0.113.4", 30)
    throwaway = account("throwaway", "203.0.113.4", 1)
    stranger = account("stranger", "198.51.100.8", 20)
    penalty_share(throwaway, farm)
    penalty_share(throwaway, farm)
    penalty_share(stranger, farm)  # not linked: not flagged
    [flow] = flows.flagged_flows()
    assert (flow.payer, flow.receiver, flow.kind, flow.count, flow.points) == (
        throwaway,
        farm,
        "penalty_share",
        2,
        100,
    )
    assert "203.0.113.4" in flow.link


def test_accounts_made_minutes_apart_are_linked_even_from_two_addresses(db: None, settings: object) -> None:
    settings.LINKED_SIGNUP_MINUTES = 10
    a = account("a", "203.0.113.4", 0)
    b = account("b", "198.51.100.9", 0)
    User.objects.filter(pk=b.pk).update(date_joined=a.date_joined + timedelta(minutes=3))
    penalty_share(b, a)
    with translation.override("en"):
        [flow] = flows.flagged_flows()
    assert "3 min" in flow.link


def test_repeated_losses_to_a_linked_player_are_flagged(db: None, settings: object) -> None:
    settings.REPEATED_LOSSES = 3
    farm = account("farm", "203.0.113.4", 30)
    feeder = account("feeder", "203.0.113.4", 2)
    honest = account("honest", "198.51.100.1", 40)
    for _ in range(2):
        lost_hand(feeder, farm)
    assert flows.flagged_flows() == []  # twice may be chance
    lost_hand(feeder, farm)
    for _ in range(5):
        lost_hand(honest, farm)  # many losses, but not linked
    [flow] = flows.flagged_flows()
    assert (flow.payer, flow.receiver, flow.kind, flow.count, flow.points) == (
        feeder,
        farm,
        "hand_losses",
        3,
        90,
    )


def test_old_flows_fall_out_of_the_window(db: None, settings: object) -> None:
    settings.FLAG_WINDOW_DAYS = 7
    farm = account("farm", "203.0.113.4", 30)
    feeder = account("feeder", "203.0.113.4", 20)
    penalty_share(feeder, farm)
    LedgerEntry.objects.filter(kind=LedgerEntry.Kind.PENALTY_SHARE).update(
        created=timezone.now() - timedelta(days=8)
    )
    assert flows.flagged_flows() == []


def test_the_admin_sees_them(db: None) -> None:
    farm = account("farm", "203.0.113.4", 30)
    throwaway = account("throwaway", "203.0.113.4", 1)
    penalty_share(throwaway, farm)
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client = logged_in_client(admin)
    assert "/admin/accounts/flaggedpointflow/" in client.get("/admin/").content.decode()
    page = client.get("/admin/accounts/flaggedpointflow/").content.decode()
    assert 'id="flagged-flows"' in page and "throwaway" in page and "203.0.113.4" in page
    ledger_link = client.get(f"/admin/accounts/ledgerentry/?user__id__exact={farm.pk}")
    assert ledger_link.status_code == 200
    assert "203.0.113.4" in client.get("/admin/accounts/profile/").content.decode()  # the address per account
