"""openskill ratings: ranks from a hand's points, known updates, bots never rated."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from openskill.models import PlackettLuce

from games.history.models import Rating
from games.history.ratings import Skill, ranks_by_points, rate, record_hand_ratings
from games.models import ScoreEntry
from tests.games.history_helpers import finished_hand


def test_ranks_by_points_share_ties() -> None:
    assert ranks_by_points([10, -5, -5, 0]) == [1, 3, 3, 2]
    assert ranks_by_points([0, 0]) == [1, 1]


def test_a_two_player_win_matches_openskill() -> None:
    after = rate([Skill(), Skill()], [8, -8])
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert after[0].mu == pytest.approx(a.mu) and after[1].mu == pytest.approx(b.mu)
    assert after[0].mu > 25 > after[1].mu and after[0].sigma < 25 / 3
    # Symmetric: what one gains the other loses.
    assert after[0].mu - 25 == pytest.approx(25 - after[1].mu)


def test_four_players_are_ordered_by_points_and_ties_are_equal() -> None:
    after = rate([Skill()] * 4, [24, -8, -8, -8])
    assert after[0].mu > after[1].mu == pytest.approx(after[2].mu) == pytest.approx(after[3].mu)
    drawn = rate([Skill()] * 4, [0, 0, 0, 0])
    assert all(s.mu == pytest.approx(25) for s in drawn)


@pytest.mark.django_db
def test_a_finished_hand_rates_the_human_and_never_the_bots(alice: User) -> None:
    hand = finished_hand(alice, "two_player")
    rating = Rating.objects.get(user=alice, variant="two_player")
    assert rating.hands == 1
    assert Rating.objects.count() == 1  # the bot has no row
    mine, bots = ScoreEntry.objects.get(hand=hand, user=alice), ScoreEntry.objects.get(hand=hand, user=None)
    assert mine.delta == bots.delta == 0  # against a bot the points are practice...
    played = [p + q for p, q in zip(hand.settlement["payments"], hand.settlement["practice"], strict=True)]
    if played[mine.seat] > played[bots.seat]:  # ...but the hand as played is rated
        assert rating.mu > 25
    elif played[mine.seat] < played[bots.seat]:
        assert rating.mu < 25
    else:
        assert rating.mu == pytest.approx(25)
    assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    # Recording again (e.g. a retry) moves it on once more; the service calls it once per hand.
    record_hand_ratings(hand)
    assert Rating.objects.get(pk=rating.pk).hands == 2
