"""Match history (page + API), the points chart, and the leaderboards (page + API)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.history.leaderboard import leaderboard
from games.history.queries import chart
from games.models import ScoreEntry
from games.moderation.models import SiteSettings
from tests.conftest import logged_in_client
from tests.games.history_helpers import finished_hand, running_hand, won_hand

pytestmark = pytest.mark.django_db


def test_history_page_for_the_player_a_spectator_and_a_stranger(
    alice: User, bob: User, anon_client: Client
) -> None:
    hand = finished_hand(alice, "two_player")
    url = reverse("history:user", args=["alice"])
    own = logged_in_client(alice).get(url).content.decode()
    assert f"/hands/{hand.pk}/replay/" in own and "二人麻将" in own
    assert "<svg" in own and "<polyline" in own  # her points over time
    for client in (logged_in_client(bob), anon_client):
        html = client.get(url).content.decode()
        assert f"/hands/{hand.pk}/replay/" in html  # a public table's hands are public
        assert "<polyline" not in html  # the balance chart is hers alone
    assert anon_client.get(reverse("history:user", args=["nobody"])).status_code == 404


def test_history_hides_private_tables_from_others_and_hands_in_progress(alice: User, bob: User) -> None:
    private = finished_hand(alice, "two_player", public=False)
    running = running_hand(alice)
    url = reverse("history:user", args=["alice"])
    assert f"/hands/{private.pk}/replay/" in logged_in_client(alice).get(url).content.decode()
    assert f"/hands/{private.pk}/replay/" not in logged_in_client(bob).get(url).content.decode()
    assert f"/hands/{running.pk}/" not in logged_in_client(alice).get(url).content.decode()


def test_matches_api_lists_hands_with_results_and_payments(alice: User, anon_client: Client) -> None:
    hand = finished_hand(alice, "two_player")
    data = anon_client.get("/api/users/alice/matches").json()
    assert data["username"] == "alice"
    [match] = data["matches"]
    assert match["variant"] == "two_player" and match["players"] == ["alice", "bot"]
    [row] = match["hands"]
    deltas = list(ScoreEntry.objects.filter(hand=hand).order_by("seat").values_list("delta", flat=True))
    assert row["id"] == hand.pk and row["result"] == hand.result and row["payments"] == deltas
    assert match["net"] == deltas[0]
    assert anon_client.get("/api/users/nobody/matches").status_code == 404


def test_chart_scales_into_the_box() -> None:
    from datetime import datetime, timedelta

    t = datetime(2025, 1, 1)
    c = chart(
        [(t, 1000), (t + timedelta(hours=1), 1200), (t + timedelta(hours=2), 900)],
        width=100,
        height=50,
        pad=0,
    )
    assert c is not None and (c.low, c.high, c.count) == (900, 1200, 3)
    assert c.points == "0.0,33.3 50.0,0.0 100.0,50.0"
    assert chart([]) is None


def test_leaderboard_threshold_and_no_bots(alice: User, bob: User, anon_client: Client) -> None:
    finished_hand(alice, "two_player")
    board = leaderboard("two_player")
    assert board.min_hands == 10 and not board.ranked
    assert [s.username for s in board.provisional] == ["alice"]
    SiteSettings.objects.create(rating_min_hands=1)
    board = leaderboard("two_player")
    [me] = board.ranked
    assert me.username == "alice" and me.hands == 1 and me.rating is not None
    data = anon_client.get("/api/leaderboard", {"variant": "two_player"}).json()
    assert data["min_hands"] == 1 and [r["username"] for r in data["ranked"]] == ["alice"]
    assert set(data["ranked"][0]) >= {
        "balance",
        "hands",
        "win_rate",
        "average_points",
        "biggest_hand",
        "rating",
    }
    overall = anon_client.get("/api/leaderboard").json()
    assert overall["variant"] is None and overall["ranked"][0]["rating"] is None
    html = anon_client.get(reverse("history:leaderboard"), {"variant": "two_player"}).content.decode()
    assert "alice" in html and "bot" not in html.split("<table", 1)[1]
    assert anon_client.get("/leaderboard/").status_code == 200


def test_leaderboard_speaks_chinese(anon_client: Client) -> None:
    html = anon_client.get(
        "/leaderboard/", {"variant": "two_player"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "排行榜" in html and "打满 10 局后上榜" in html


def test_history_names_patterns_as_the_variant_does_and_links_them_to_the_rules(
    alice: User, anon_client: Client
) -> None:
    hand = won_hand(alice, "two_player")
    html = anon_client.get(reverse("history:user", args=["alice"])).content.decode()
    scores = (hand.result or {}).get("scores", [])
    winning = [s for s in scores if s.get("breakdown")]
    assert winning, "a won hand has a pattern breakdown"
    for pid, _value in winning[0]["breakdown"]:
        assert f'href="/rules/two_player/#pattern-{pid}"' in html


def test_a_cantonese_match_is_one_unit_whose_hands_name_their_wind_round(
    alice: User, anon_client: Client
) -> None:
    from games.engine.tiles import name
    from games.models import Hand
    from games.table import commands
    from tests.games.conftest import bot_table, play_to_end

    table = bot_table(alice, "cantonese", base=1)
    commands.set_auto(table.pk, alice, True)
    commands.start_hand(table.pk, alice)
    now = None
    for _ in range(3):
        now = play_to_end(table.pk, now)
        commands.continue_play(table.pk, alice)
    now = play_to_end(table.pk, now)
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert len(hands) == 4 and len({h.match_id for h in hands}) == 1
    [match] = anon_client.get("/api/users/alice/matches").json()["matches"]
    assert [(row["round_wind"], row["round_hand"]) for row in match["hands"]] == [
        (name(h.round_wind), h.round_hand) for h in hands
    ]
    html = anon_client.get(reverse("history:user", args=["alice"])).content.decode()
    assert html.count('<article class="match">') == 1  # the match is shown as one unit
    for h in hands:
        assert f"东风圈 第{h.round_hand}局" in html  # the first hands of a match are all in East
