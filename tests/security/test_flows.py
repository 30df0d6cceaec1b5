"""Point flows between linked accounts (same signup address, or joined minutes apart) are flagged
in the admin: penalty shares and hands repeatedly lost to the same player; and, whatever the
addresses, new accounts feeding one receiver and lopsided repeated ranked pairs."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone, translation

from accounts import flows, ledger
from accounts.models import LedgerEntry, Profile
from games.models import Hand, Match, ScoreEntry, Table
from games.moderation.models import Penalty
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


def test_new_accounts_feeding_one_receiver_are_flagged_whatever_their_addresses(
    db: None, settings: object
) -> None:
    settings.NEW_ACCOUNT_FEEDERS, settings.NEW_ACCOUNT_POINTS = 2, 200
    farm = account("farm", "203.0.113.4", 30)  # an old account, joined long before
    first = account("first", "198.51.100.1", 1)
    second = account("second", "192.0.2.77", 1)
    penalty_share(first, farm, 300)
    assert flows.flagged_flows() == []  # one new account paying someone may be a newcomer's bad day
    lost_hand(second, farm, 250)
    flagged = flows.flagged_flows()
    assert {(f.payer, f.receiver, f.kind) for f in flagged} == {
        (first, farm, "penalty_share"),
        (second, farm, "hand_losses"),
    }
    with translation.override("en"):
        assert "2 new accounts" in flows.flagged_flows()[0].link


def test_old_accounts_and_small_flows_into_one_receiver_are_not_flagged(db: None, settings: object) -> None:
    settings.NEW_ACCOUNT_FEEDERS, settings.NEW_ACCOUNT_POINTS, settings.NEW_ACCOUNT_DAYS = 2, 200, 7
    farm = account("farm", "203.0.113.4", 30)
    veteran = account("veteran", "198.51.100.1", 60)
    small = account("small", "192.0.2.77", 1)
    penalty_share(veteran, farm, 500)  # not new
    lost_hand(small, farm, 30)  # new, but a small loss
    assert flows.flagged_flows() == []


def test_the_sybil_pump_moves_at_most_what_each_hand_could_cost_and_is_flagged(
    db: None, settings: object
) -> None:
    """Throwaway accounts from three addresses each escape a two-player base-20 table with an
    escape penalty of 100 × base (2,000) against one receiver: each used to hand over its whole
    1,000 unflagged. A share is capped at what the hand could cost (13 fan × 3 × 20 = 780)."""
    from dataclasses import replace

    from games.engine.state import HandResult
    from games.history.ratings import ADMIN_CLOSED
    from games.table import commands, opening
    from games.table.changes import change
    from games.table.settlement import finish_hand

    settings.NEW_ACCOUNT_FEEDERS = 2
    receiver = account("receiver", "203.0.113.4", 30)
    Profile.objects.filter(user=receiver).update(balance=5000)
    throwaways = [account(f"throwaway{i}", f"198.51.100.{i}", 0) for i in range(3)]
    for throwaway in throwaways:
        Profile.objects.filter(user=throwaway).update(balance=1000)
        table = opening.create_table(receiver, "two_player", options={"escape_penalty": 100})
        commands.sit(table.pk, receiver, 0)
        commands.set_stake(table.pk, receiver, 20)
        commands.sit(table.pk, throwaway, 1)
        commands.accept_stake(table.pk, throwaway)
        commands.start_hand(table.pk, receiver)
        commands.leave(table.pk, throwaway)
        with change(table.pk) as ctx:  # the hand ends level: only the escape moves points
            result = HandResult(by=ADMIN_CLOSED, payments=(0, 0), next_dealer=ctx.state.dealer)
            ctx.state = replace(ctx.state, phase="over", window=None, result=result, penalties=())
            finish_hand(ctx)
        commands.leave(table.pk, receiver)
        assert Profile.objects.get(user=throwaway).balance == 1000 - 780
    assert Profile.objects.get(user=receiver).balance == 5000 + 3 * 780
    flagged = flows.flagged_flows()
    assert {f.payer for f in flagged} == set(throwaways)
    assert all(f.receiver == receiver and f.kind == "penalty_share" for f in flagged)


def ranked_hand_lost(loser: User, winner: User, points: int = 30) -> None:
    """A ranked hand `loser` lost to `winner`: its result in the ledger, and both ranks moved."""
    from games.history.models import RankChange

    lost_hand(loser, winner, points)
    hand = Hand.objects.latest("pk")
    for user, place, delta in ((winner, 1, 30), (loser, 2, -30)):
        RankChange.objects.create(
            hand=hand,
            user=user,
            variant="shanghai",
            place=place,
            tier_before=0,
            points_before=0,
            tier_after=0,
            points_after=max(delta, 0),
            delta=delta,
        )


def test_lopsided_repeated_ranked_pairs_are_flagged_whatever_their_addresses(
    db: None, settings: object
) -> None:
    """Win-trading between two accounts nothing else links: the same two meet in ranked hands
    again and again and nearly all the points between them go one way."""
    settings.RANKED_PAIR_HANDS, settings.RANKED_PAIR_SHARE, settings.RANKED_PAIR_HOURS = 4, 90, 24
    main = account("main", "203.0.113.4", 60)
    feeder = account("feeder", "198.51.100.1", 20)
    for _ in range(3):
        ranked_hand_lost(feeder, main)
    assert flows.flagged_flows() == []  # three hands may be chance
    ranked_hand_lost(feeder, main)
    [flow] = flows.flagged_flows()
    assert (flow.payer, flow.receiver, flow.kind, flow.count, flow.points) == (
        feeder,
        main,
        "ranked_pair",
        4,
        120,
    )
    with translation.override("en"):
        assert "100%" in flows.flagged_flows()[0].link
    admin = User.objects.create_superuser("root", password=PASSWORD)
    page = logged_in_client(admin).get("/admin/accounts/flaggedpointflow/").content.decode()
    assert 'class="flow ranked_pair"' in page and "feeder" in page


def test_even_or_old_ranked_pairs_are_not_flagged(db: None, settings: object) -> None:
    from games.history.models import RankChange

    settings.RANKED_PAIR_HANDS, settings.RANKED_PAIR_SHARE, settings.RANKED_PAIR_HOURS = 4, 90, 24
    a = account("a", "203.0.113.4", 60)
    b = account("b", "198.51.100.1", 20)
    for _ in range(3):
        ranked_hand_lost(a, b)
    ranked_hand_lost(b, a)  # 90 of 120 points one way: 75%, a fair rivalry
    assert flows.flagged_flows() == []
    c = account("c", "192.0.2.7", 20)
    for _ in range(4):
        ranked_hand_lost(c, a)
    old_hands = RankChange.objects.filter(user=c).values_list("hand_id", flat=True)
    RankChange.objects.filter(hand_id__in=list(old_hands)).update(
        created=timezone.now() - timedelta(hours=25)
    )
    assert flows.flagged_flows() == []  # out of the window
    for _ in range(4):
        lost_hand(c, a)  # unranked hands: the linked-loss rules read those
    assert flows.flagged_flows() == []
