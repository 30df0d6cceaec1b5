"""Ranked tiers cannot be pumped by one person's two accounts: the rating gap a ranked queue
accepts stops widening, accounts from one signup address play no ranked hand together, and rank
gained from the same opponents again and again diminishes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.utils import timezone

from accounts.models import Profile
from games.history import ranks
from games.history.models import RankChange
from games.matchmaking import queue
from games.matchmaking.rules import Candidate, compatible
from games.models import Hand, Table
from tests.conftest import make_user
from tests.games.conftest import play_to_end


@override_settings(RANKED_MAX_GAP=10)
def test_the_rating_gap_stops_widening() -> None:
    now = timezone.now()
    long_ago = now - timedelta(minutes=30)
    novice = Candidate(id=1, rating=0.0, joined=long_ago, bots_at=None)
    boosted = Candidate(id=2, rating=25.0, joined=long_ago, bots_at=None)
    close = Candidate(id=3, rating=8.0, joined=long_ago, bots_at=None)
    assert not compatible(novice, boosted, now)  # 30 minutes of waiting: still 10 at most
    assert compatible(novice, close, now)


def ranked_hand(users: list[User]) -> Hand:
    for user in users:
        queue.join(user, "two_player", "bronze", ranked=True)
    table = Table.objects.get(quick_match__isnull=False, seats__user=users[0])
    play_to_end(table.pk)
    return Hand.objects.get(table=table)


@pytest.mark.django_db
def test_accounts_from_one_signup_address_play_no_ranked_hand_together() -> None:
    main, feeder = make_user("main"), make_user("feeder")
    Profile.objects.filter(user__in=[main, feeder]).update(signup_ip="203.0.113.50")
    hand = ranked_hand([main, feeder])
    assert not RankChange.objects.filter(hand=hand).exists()
    assert hand.settlement.get("ranks") is None


@pytest.mark.django_db
def test_rank_from_the_same_opponent_diminishes() -> None:
    main, feeder = make_user("main"), make_user("feeder")
    now = timezone.now()
    assert ranks.repeat_factor(main.pk, [feeder.pk], "two_player", now) == 1.0
    ranked_hand([main, feeder])
    now = timezone.now()
    assert ranks.repeat_factor(main.pk, [feeder.pk], "two_player", now) == 0.5
    assert ranks.repeat_factor(main.pk, [make_user("other").pk], "two_player", now) == 1.0
    later = now + timedelta(hours=25)  # a day later it counts in full again
    assert ranks.repeat_factor(main.pk, [feeder.pk], "two_player", later) == 1.0
