"""Tournament pages (both languages), the organiser's form, and the JSON API: sign up, check in,
standings — bad input is a clear error and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.services import create_api_token
from games.tournaments import services
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable
from tests.conftest import logged_in_client, make_user
from tests.games.tournaments.helpers import entrants, new_tournament, organiser, play_round
from tests.i18n_helpers import chinese_only_in

pytestmark = pytest.mark.django_db


def api(client: Client, path: str, token: str) -> tuple[int, dict]:
    response = client.post(path, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    return response.status_code, response.json()


def test_the_api_signs_up_and_checks_in_and_refuses_twice() -> None:
    now = timezone.now()
    tournament = new_tournament(organiser(), now, checkin_minutes=60, max_players=2)
    client = Client(enforce_csrf_checks=True)
    a, b, c = (create_api_token(make_user(n)) for n in ("a", "b", "c"))
    status, body = api(client, f"/api/tournaments/{tournament.pk}/signup", a)
    assert status == 201 and body["player"] == "a"
    status, body = api(client, f"/api/tournaments/{tournament.pk}/signup", a)
    assert (status, body["error"]) == (409, "already_signed_up")
    assert api(client, f"/api/tournaments/{tournament.pk}/signup", b)[0] == 201
    status, body = api(client, f"/api/tournaments/{tournament.pk}/signup", c)
    assert (status, body["error"]) == (409, "tournament_full")
    status, body = api(client, f"/api/tournaments/{tournament.pk}/checkin", a)
    assert status == 200 and body["checked_in"]
    status, body = api(client, f"/api/tournaments/{tournament.pk}/checkin", c)
    assert (status, body["error"]) == (409, "not_signed_up")
    assert api(client, "/api/tournaments/999999/signup", c)[0] == 404
    assert client.post(f"/api/tournaments/{tournament.pk}/signup").status_code == 401
    assert TournamentPlayer.objects.filter(tournament=tournament).count() == 2
    standings = Client().get(f"/api/tournaments/{tournament.pk}/standings").json()
    assert [row["player"] for row in standings["standings"]] == ["a", "b"]
    assert standings["rounds"][0]["salt"] is None and len(standings["rounds"][0]["commitment"]) == 64


def test_a_private_tournament_is_not_found_by_others() -> None:
    tournament = new_tournament(organiser(), public=False)
    assert Client().get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert Client().get(f"/api/tournaments/{tournament.pk}/standings").status_code == 404
    assert Client().get("/tournaments/").status_code == 200


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_pages_in_both_languages_and_the_form(language: str) -> None:
    staff = organiser()
    client = logged_in_client(staff)
    client.cookies["django_language"] = language
    start = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Spring cup",
        "variant": "shanghai",
        "base": 2,
        "rounds": 2,
        "hands_per_round": 2,
        "wind_rounds": 0,
        "seating": "swiss",
        "duplicate": "on",
        "starts_at": start,
        "max_players": 8,
        "checkin_minutes": 180,
        "grace_seconds": 60,
        "public": "on",
        "opt_shanghai_escape_penalty": 500,  # the table form's house-rule field, checked as a table's
    }
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert (
        "1–100" in response.content.decode()
    ) and 'name="opt_yihua_escape_penalty"' in response.content.decode()
    form["opt_shanghai_escape_penalty"] = 20
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get()
    assert tournament.duplicate and tournament.seating == "swiss"
    assert tournament.options == {"escape_penalty": 20}
    entrants(tournament, 4)
    services.sweep(tournament.starts_at)
    play_round(tournament, tournament.starts_at)
    for path in ("/tournaments/", f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/results/"):
        page = client.get(path)
        assert page.status_code == 200
        text = page.content.decode()
        if language == "en":
            main = text[text.index("<main") : text.index("</main>")]  # (the language switch says 简体中文)
            assert "Tournaments" in text and chinese_only_in(main) == []
        else:  # every word of the page in Chinese (the English nav word is gone too)
            assert "比赛" in text and "Tournaments" not in text and "Standings" not in text
    table = TournamentTable.objects.get(round__number=1)
    board = logged_in_client(User.objects.get(pk=table.players[0])).get(f"/tables/{table.table_id}/")
    assert board.status_code == 200  # the closed table still shows its player the last hand
    record = client.get(f"/tournaments/{tournament.pk}/record.json").json()
    assert record["kind"] == "match" and len(record["hands"]) == 2
    assert record["match"]["rounds"][0]["commitment"]
    player = logged_in_client(make_user("late"))
    response = player.post(f"/tournaments/{tournament.pk}/signup/", follow=True)
    assert TournamentPlayer.objects.filter(user__username="late").count() == 0
    assert response.status_code == 200
    outsider = logged_in_client(make_user("outsider"))
    assert outsider.get("/tournaments/new/").status_code == 404
