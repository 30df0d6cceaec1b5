"""Ranks (games.history.ranks): place points, promotion and demotion, only ranked hands move them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.history import ranks
from games.history.models import Rank, RankChange
from games.history.ranks import Standing, apply_points, place_points
from games.matchmaking import queue
from games.matchmaking.models import QuickMatch
from games.models import Hand, Table
from games.rendering.presenters import table_context
from games.table import commands
from tests.conftest import make_user
from tests.games.conftest import play_to_end, two_seated


def test_places_give_points_and_ties_share_them() -> None:
    assert place_points([40, -10, -20, -10]) == [(1, 30), (2, 0.0), (4, -30), (2, 0.0)]
    assert place_points([0, 0, 0, 0]) == [(1, 0.0)] * 4
    assert place_points([5, -5]) == [(1, 30), (2, -30)]


def test_promotion_demotion_and_the_safe_tiers() -> None:
    assert apply_points(Standing(0, 80), 30) == Standing(1, 50)  # promoted at 100
    assert apply_points(Standing(1, 10), -30) == Standing(1, 0)  # 初段 never drops
    assert apply_points(Standing(3, 10), -30) == Standing(2, 50)  # −30 − 15 < 0: demoted
    assert apply_points(Standing(3, 60), -10) == Standing(3, 35)  # losses weigh 5 more per tier
    assert apply_points(Standing(9, 95), 30) == Standing(9, 100)  # 九段 is the top


@pytest.fixture
def pair(db: None) -> list[User]:
    return [make_user("ranked-a"), make_user("ranked-b")]


def _ranked_two_player(users: list[User], ranked: bool = True) -> Table:
    for user in users:
        queue.join(user, "two_player", "bronze", ranked=ranked)
    return Table.objects.get()


def test_a_ranked_quick_match_hand_moves_ranks_and_shows_at_the_settlement(pair: list[User]) -> None:
    table = _ranked_two_player(pair)
    play_to_end(table.pk)
    hand = Hand.objects.get(table=table)
    changes = hand.settlement["ranks"]
    assert [c["seat"] for c in changes] == [0, 1] and {c["name"] for c in changes} == {"ranked-a", "ranked-b"}
    assert RankChange.objects.filter(hand=hand).count() == 2
    deltas = sorted(hand.scores.values_list("delta", flat=True))
    if deltas[0] != deltas[1]:  # somebody won: the winner has 30 rank points
        assert sorted(Rank.objects.values_list("points", flat=True)) == [0, 30]
    context = table_context(table.pk, pair[0])
    assert context["table"]["last_result"]["ranks"] == changes
    assert all(s["rank"]["tier"] == 0 for s in context["table"]["seats"])


def test_unranked_queues_and_ordinary_tables_do_not_move_ranks(pair: list[User], carol: User) -> None:
    table = _ranked_two_player(pair, ranked=False)
    play_to_end(table.pk)
    other = two_seated(carol, make_user("dave"))
    commands.start_hand(other.pk, carol)
    play_to_end(other.pk)
    assert not Rank.objects.exists() and not RankChange.objects.exists()
    assert all("ranks" not in (h.settlement or {}) for h in Hand.objects.all())


def test_hands_after_the_quick_match_are_not_ranked(pair: list[User]) -> None:
    table = _ranked_two_player(pair)
    QuickMatch.objects.update(hands=0)
    play_to_end(table.pk)
    assert not RankChange.objects.exists()


def test_a_promotion_and_a_demotion_are_shown_on_the_settlement(pair: list[User]) -> None:
    from games.rendering.fragments import render_table_html

    Rank.objects.create(user=pair[0], variant="two_player", tier=2, points=99)
    Rank.objects.create(user=pair[1], variant="two_player", tier=2, points=20)
    table = _ranked_two_player(pair)
    QuickMatch.objects.update(ranked=False)  # played unranked, then ranked with known results
    play_to_end(table.pk)
    hand = Hand.objects.get(table=table)
    hand.scores.filter(seat=0).update(delta=12)
    hand.scores.filter(seat=1).update(delta=-12)
    QuickMatch.objects.update(ranked=True)
    changes = ranks.record_hand_ranks(hand, "two_player")
    assert [c["moved"] for c in changes] == ["promoted", "demoted"]  # 99 + 30; 20 − 30 − 10
    assert ranks.record_hand_ranks(hand, "two_player") is None  # once per hand
    assert RankChange.objects.count() == 2
    Hand.objects.filter(pk=hand.pk).update(settlement={**hand.settlement, "ranks": changes})
    Table.objects.filter(pk=table.pk).update(version=table.version + 100)  # no stale snapshot
    html = render_table_html(table_context(table.pk, pair[0]), "en")
    assert 'class="rank-changes"' in html and "promoted" in html and "3rd dan" in html
    assert "demoted" in html and "1st dan" in html


def test_the_board_shows_the_tier_beside_the_name(pair: list[User]) -> None:
    from games.rendering.fragments import render_table_html

    Rank.objects.create(user=pair[0], variant="two_player", tier=4, points=20)
    table = two_seated(pair[0], pair[1])
    html = render_table_html(table_context(table.pk, pair[1]), "zh-hans")
    assert "四段" in html and "新人" in html
    english = render_table_html(table_context(table.pk, pair[1]), "en")
    assert "4th dan" in english and "Novice" in english


def test_the_user_api_gains_ranks(pair: list[User]) -> None:
    Rank.objects.create(user=pair[0], variant="shanghai", tier=1, points=70, hands=12)
    data = Client().get("/api/users/ranked-a").json()
    assert data["username"] == "ranked-a"
    assert data["ranks"]["shanghai"] == {
        "tier": "dan1",
        "tier_zh": "初段",
        "tier_en": "1st dan",
        "level": 1,
        "points": 70,
        "ranked_hands": 12,
        "rating": None,
    }
    assert data["ranks"]["tianjin"]["tier"] == "novice"
    assert Client().get("/api/users/nobody").status_code == 404


def test_leaderboard_and_user_page_show_ranks(pair: list[User]) -> None:
    Rank.objects.create(user=pair[0], variant="two_player", tier=5, points=1)
    client = Client()
    client.cookies["django_language"] = "en"
    assert "5th dan" in client.get("/users/ranked-a/history/").content.decode()
    table = _ranked_two_player([pair[1], make_user("third")])
    play_to_end(table.pk)
    # the public leaderboard shows a quick-match hand once its spectators have seen it end
    Hand.objects.filter(table=table).update(ended=timezone.now() - timedelta(hours=1))
    board = client.get("/leaderboard/?variant=two_player").content.decode()
    assert "Rank" in board and "Novice" in board
    api = client.get("/api/leaderboard?variant=two_player").json()
    assert all("rank" in s for s in api["ranked"] + api["provisional"])
    assert ranks.ranks_of(pair[0])["two_player"]["tier_en"] == "5th dan"
