"""Replays: only finished hands, for the people allowed to see them; every step opens every hand."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.services import create_api_token
from games.engine.actions import Action, replay
from games.models import HandAction
from games.replays import build
from tests.conftest import logged_in_client
from tests.games.history_helpers import finished_hand, running_hand

pytestmark = pytest.mark.django_db


def test_the_replay_api_has_seed_actions_and_a_full_view_per_step(alice: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    response = anon_client.get(f"/api/hands/{hand.pk}/replay")
    assert response.status_code == 200
    data = response.json()
    assert data["seed"] == str(hand.seed)
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [a["seq"] for a in data["actions"]] == [r.seq for r in rows]
    assert len(data["steps"]) == len(rows) + 1
    # Every hand is open at every step, the deal included.
    for step in (data["steps"][0], data["steps"][len(rows) // 2]):
        assert all("hand" in seat for seat in step["view"]["seats"])
    assert data["steps"][-1]["view"]["phase"] == "over"
    assert data["result"] == hand.result
    # The seed and the log replay to the same final state.
    state, _ = replay(
        "two_player", hand.seed, [(r.seat, Action.from_json(r.action)) for r in rows], **hand.setup
    )
    assert state.phase == "over"


def test_a_hand_in_progress_is_never_replayable(
    alice: User, alice_client: Client, anon_client: Client
) -> None:
    hand = running_hand(alice)
    for client in (alice_client, anon_client):
        response = client.get(f"/api/hands/{hand.pk}/replay")
        assert response.status_code == 403
        assert response.json()["error"] == "hand_in_progress"
        assert "steps" not in response.json()
        assert client.get(reverse("history:replay", args=[hand.pk])).status_code == 404
    with pytest.raises(AssertionError):
        build(hand)


def test_an_unknown_hand_is_a_json_404(anon_client: Client) -> None:
    response = anon_client.get("/api/hands/999999/replay")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_replay_page_for_player_spectator_and_stranger(alice: User, bob: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    url = reverse("history:replay", args=[hand.pk])
    assert url == f"/hands/{hand.pk}/replay/"
    for client in (logged_in_client(alice), logged_in_client(bob), anon_client):
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="replay-data"' in html and "replay.js" in html and 'data-step="next"' in html


def test_a_private_tables_replay_is_for_its_players(alice: User, bob: User, anon_client: Client) -> None:
    hand = finished_hand(alice, public=False)
    url = reverse("history:replay", args=[hand.pk])
    assert logged_in_client(alice).get(url).status_code == 200
    assert logged_in_client(bob).get(url).status_code == 404
    assert anon_client.get(url).status_code == 404
    assert anon_client.get(f"/api/hands/{hand.pk}/replay").status_code == 404
    # Her API token identifies her to the API as well.
    token = create_api_token(alice)
    response = Client().get(f"/api/hands/{hand.pk}/replay", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200


def test_the_replay_names_each_pattern_as_its_variant_does(alice: User, anon_client: Client) -> None:
    from games.engine import patterns

    hand = finished_hand(alice)
    data = anon_client.get(f"/api/hands/{hand.pk}/replay").json()
    named = {pid for score in (hand.result or {}).get("scores", []) for pid in score.get("patterns", [])}
    assert named, "the helper hand is a won hand"
    assert set(data["pattern_names"]) == named
    for pid, name in data["pattern_names"].items():
        entry = patterns.pattern("two_player", pid)
        assert entry is not None and (name["zh"], name["en"]) == (entry.name_zh, entry.name_en)
        assert name["href"] == f"/rules/two_player/#pattern-{pid}"
