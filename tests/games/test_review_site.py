"""The review on the site: the API gives what the command line prints for the hand's record,
access as the replay's, one computation per (hand, seat, reviewer version) off the request path,
the page (preparing → ready) and the profile's statistics."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from accounts.services import create_api_token
from games.engine.review import REVIEWER_VERSION
from games.models import Hand
from games.review import services
from games.review.models import HandReview
from games.review.present import review_page
from games.review.stats import player_stats
from tests.conftest import logged_in_client, make_user
from tests.games.history_helpers import finished_hand, running_hand, won_hand

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> list[int]:
    """Reviews computed as soon as their row is committed, on this thread; the ids computed."""
    done: list[int] = []

    def submit(work: Any, review_id: int) -> None:
        done.append(review_id)
        work(review_id)

    monkeypatch.setattr(services, "submit", submit)
    return done


def get_review(client: Client, hand: Hand, seat: int, capture: Any) -> Any:
    """The review as a client gets it: 202 while it is prepared (the work starts once the pending
    row is committed), then the review."""
    url = f"/api/hands/{hand.pk}/review?seat={seat}"
    with capture(execute=True):
        response = client.get(url)
    return client.get(url) if response.status_code == 202 else response


def cli_review(record: dict, seat: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "games.engine", "review", "--seat", str(seat)],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("variant", ["two_player", "shanghai"])
def test_the_api_gives_what_the_command_line_prints_for_the_hands_record(
    alice: User,
    anon_client: Client,
    at_once: list[int],
    django_capture_on_commit_callbacks: Any,
    variant: str,
) -> None:
    hand = won_hand(alice, variant)
    response = get_review(anon_client, hand, 0, django_capture_on_commit_callbacks)
    assert response.status_code == 200, response.content
    review = response.json()
    assert review["reviewer_version"] == REVIEWER_VERSION and review["seat"] == 0
    assert review["decisions"], "the seat decided something"
    record = anon_client.get(f"/api/hands/{hand.pk}/record").json()
    assert review == cli_review(record, 0)


def test_a_review_is_computed_once_and_kept(
    alice: User, bob: User, at_once: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    hand = finished_hand(alice)
    for client in (logged_in_client(alice), logged_in_client(bob), Client()):
        assert get_review(client, hand, 1, django_capture_on_commit_callbacks).status_code == 200
    assert len(at_once) == 1
    row = HandReview.objects.get()
    assert (row.hand_id, row.seat, row.version, row.status) == (hand.pk, 1, REVIEWER_VERSION, "ready")
    assert row.user_id is None  # seat 1 of a bot table: a bot


def test_while_it_is_prepared_the_api_says_202_and_the_page_polls(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    monkeypatch.setattr(services, "submit", lambda work, review_id: started.append(review_id))
    hand = finished_hand(alice)
    client = logged_in_client(alice)
    response = client.get(f"/api/hands/{hand.pk}/review")
    assert response.status_code == 202 and response["Retry-After"]
    assert response.json()["status"] == "preparing" and response.json()["seat"] == 0  # her own seat
    page = client.get(f"/hands/{hand.pk}/review/").content.decode()
    assert 'id="review-preparing"' in page and f"/hands/{hand.pk}/review/status/" in page
    status = client.get(f"/hands/{hand.pk}/review/status/?seat=0")
    assert "HX-Refresh" not in status and "review-preparing" in status.content.decode()
    assert HandReview.objects.count() == 1  # the pending row: nobody else starts the work
    services.compute(HandReview.objects.get().pk)
    assert client.get(f"/hands/{hand.pk}/review/status/?seat=0")["HX-Refresh"] == "true"
    assert client.get(f"/api/hands/{hand.pk}/review?seat=0").status_code == 200


def test_a_stale_pending_review_is_taken_over_once(
    alice: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    started: list[int] = []
    monkeypatch.setattr(services, "submit", lambda work, review_id: started.append(review_id))
    hand = finished_hand(alice)
    with django_capture_on_commit_callbacks(execute=True):
        row = services.request_review(hand, 0)
        assert services.request_review(hand, 0).pk == row.pk  # pending and fresh: left alone
    assert started == [row.pk]
    HandReview.objects.filter(pk=row.pk).update(started=timezone.now() - services.STALE * 2)
    with django_capture_on_commit_callbacks(execute=True):
        again = [services.request_review(hand, 0) for _ in range(3)]
    assert {r.pk for r in again} == {row.pk}
    assert started == [row.pk, row.pk]  # its process died: taken over by exactly one request
    assert HandReview.objects.count() == 1


def test_a_hand_in_progress_has_no_review(alice: User, alice_client: Client, anon_client: Client) -> None:
    hand = running_hand(alice)
    for client in (alice_client, anon_client):
        response = client.get(f"/api/hands/{hand.pk}/review?seat=0")
        assert response.status_code == 403 and response.json()["error"] == "hand_in_progress"
        assert client.get(f"/hands/{hand.pk}/review/").status_code == 403
    assert not HandReview.objects.exists()


def test_a_private_tables_review_is_for_its_players_and_staff(
    alice: User, bob: User, anon_client: Client
) -> None:
    hand = finished_hand(alice, public=False)
    staff = make_user("staff")
    User.objects.filter(pk=staff.pk).update(is_staff=True)
    staff.refresh_from_db()
    assert logged_in_client(bob).get(f"/api/hands/{hand.pk}/review").status_code == 404
    assert anon_client.get(f"/api/hands/{hand.pk}/review").status_code == 404
    assert logged_in_client(bob).get(f"/hands/{hand.pk}/review/").status_code == 404
    for user in (alice, staff):
        assert logged_in_client(user).get(f"/api/hands/{hand.pk}/review").status_code in (200, 202)
    token = create_api_token(alice)  # an API client of hers reads it too
    response = Client().get(f"/api/hands/{hand.pk}/review", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code in (200, 202)


def test_a_hand_behind_the_spectator_delay_has_no_review_for_strangers() -> None:
    from tests.security.test_delayed_hands import finished_quick_hand

    hand = finished_quick_hand(ended_ago=5)
    stranger = logged_in_client(make_user("stranger"))
    response = stranger.get(f"/api/hands/{hand.pk}/review?seat=0")
    assert response.status_code == 403 and response.json()["error"] == "hand_in_progress"
    assert not HandReview.objects.exists()


def test_a_seat_the_hand_does_not_have_is_refused(alice: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    for seat in ("2", "-1", "x"):
        response = anon_client.get(f"/api/hands/{hand.pk}/review?seat={seat}")
        assert response.status_code == 400 and response.json()["error"] == "bad_seat"


def test_the_page_shows_summary_steps_and_hindsight_apart(
    alice: User, at_once: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    hand = won_hand(alice, "shanghai")
    client = logged_in_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/hands/{hand.pk}/review/")
    client.cookies["django_language"] = "en"
    html = client.get(f"/hands/{hand.pk}/review/").content.decode()
    review = HandReview.objects.get().data
    assert 'id="review-marks"' in html and 'id="replay-data"' in html and "review.js" in html
    assert html.count('<article class="review-decision') == len(review["decisions"])
    assert 'class="hindsight"' in html and "not part of the grade" in html
    assert "Agreement with the reviewer" in html
    for m in review["summary"]["mistakes"]:
        assert m["text"]["en"].replace("'", "&#x27;") in html
    replay = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert f'href="/hands/{hand.pk}/review/?seat=0"' in replay  # the replay page's Review button
    zh = logged_in_client(alice)
    zh.cookies["django_language"] = "zh-hans"
    html_zh = zh.get(f"/hands/{hand.pk}/review/").content.decode()
    for m in review["summary"]["mistakes"]:
        assert m["text"]["zh"] in html_zh


def test_the_profile_shows_statistics_over_reviewed_hands(
    alice: User, at_once: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    hands = [won_hand(alice, "two_player") for _ in range(3)]
    client = logged_in_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.get("/users/alice/history/")  # her own profile queues her unreviewed hands
    assert page.status_code == 200
    assert HandReview.objects.filter(user=alice, status="ready").count() >= len(hands)
    (stats,) = player_stats(alice)
    reviews = HandReview.objects.filter(user=alice)
    assert stats.variant == "two_player" and stats.hands == reviews.count()
    assert stats.wins == sum(r.won for r in reviews)
    assert stats.rated == sum(r.rated for r in reviews)
    html = client.get("/users/alice/history/").content.decode()
    assert 'class="review-stats"' in html and "review-chart" in html
    assert f"/hands/{hands[0].pk}/review/" in html  # the review link per hand
    other = logged_in_client(make_user("carol")).get("/users/alice/history/").content.decode()
    assert 'class="review-stats"' not in other  # her statistics are hers (and staff's)


def _opened_review_url(client: Client, raw: bytes) -> str:
    """Open a record file as the page does; the review form's address."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    html = client.post("/replays/open/", {"record": SimpleUploadedFile("hand.json", raw)}).content.decode()
    found = re.search(r'action="(/replays/open/review/[0-9a-f]{64}/)"', html)
    assert found, "the opened record offers its review"
    return found.group(1)


@pytest.mark.parametrize("variant", ["two_player", "shanghai"])
def test_an_opened_record_file_is_reviewed_as_the_command_line_reviews_it(
    alice: User, anon_client: Client, variant: str
) -> None:
    hand = won_hand(alice, variant)
    record = anon_client.get(f"/api/hands/{hand.pk}/record").json()
    client = logged_in_client(alice)
    client.cookies["django_language"] = "en"
    url = _opened_review_url(client, json.dumps(record).encode())
    for seat in range(len(hand.match.players)):
        response = client.get(f"{url}?hand=0&seat={seat}")
        assert response.status_code == 200
        html = response.content.decode()
        cli = cli_review(record, seat)
        page = review_page(cli)
        marks = re.search(r'<script id="review-marks" type="application/json">(.*?)</script>', html, re.S)
        assert marks and json.loads(marks.group(1)) == json.loads(json.dumps(page["marks"]))
        assert html.count('<article class="review-decision') == len(cli["decisions"])
        for d in page["decisions"]:
            assert escape(d["recommended_text"]) in html
        assert HandReview.objects.count() == 0  # computed for the file, never stored
    zh = logged_in_client(alice)
    zh.cookies["django_language"] = "zh-hans"
    html_zh = zh.get(f"{url}?seat=0").content.decode()
    for m in cli_review(record, 0)["summary"]["mistakes"]:
        assert m["text"]["zh"] in html_zh


def test_an_opened_records_review_refuses_clearly(alice: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    record = anon_client.get(f"/api/hands/{hand.pk}/record").json()
    client = logged_in_client(alice)
    client.cookies["django_language"] = "en"
    url = _opened_review_url(client, json.dumps(record).encode())
    no_seat = client.get(f"{url}?seat=7")
    assert no_seat.status_code == 400 and 'id="record-error"' in no_seat.content.decode()
    assert "no seat 7" in no_seat.content.decode()
    no_hand = client.get(f"{url}?hand=3")
    assert no_hand.status_code == 400 and "no hand 4" in no_hand.content.decode()
    gone = client.get("/replays/open/review/" + "0" * 64 + "/")
    assert gone.status_code == 404 and "open the file again" in gone.content.decode()
    assert anon_client.get(url).status_code == 302  # sign in first, as for opening


def test_a_bad_record_file_gets_the_clear_error_and_no_review(alice: User) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = logged_in_client(alice)
    html = client.post("/replays/open/", {"record": SimpleUploadedFile("x.json", b"{nope")}).content.decode()
    assert 'id="record-error"' in html and "/replays/open/review/" not in html
