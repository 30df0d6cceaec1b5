"""The club page lists the club's tournaments and offers its managers a new one; the form offers
the clubs its user runs, and nobody else's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tournaments.models import Tournament
from tests.conftest import make_user
from tests.games.clubs.helpers import client_of, club_of
from tests.games.tournaments.helpers import new_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_club_page_lists_its_tournaments_and_a_manager_creates_one(language: str) -> None:
    owner, member = make_user("owner"), make_user("member")
    club = club_of(owner, member)
    other = club_of(make_user("elsewhere"), name="Other club")
    new_tournament(owner, club=club.pk, public=False, name="Members cup")
    page = client_of(owner, language).get(f"/clubs/{club.pk}/").content.decode()
    assert "Members cup" in page and f"/tournaments/new/?club={club.pk}" in page
    page = client_of(member, language).get(f"/clubs/{club.pk}/").content.decode()
    assert "Members cup" in page and "/tournaments/new/" not in page
    assert client_of(member, language).get("/tournaments/new/").status_code == 404

    form = client_of(owner, language).get(f"/tournaments/new/?club={club.pk}").content.decode()
    assert f'<option value="{club.pk}" selected>' in form and "Other club" not in form
    start = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Spring cup", "variant": "shanghai", "base": 2, "rounds": 1, "hands_per_round": 2,
        "wind_rounds": 0, "seating": "random", "starts_at": start, "max_players": 8,
        "checkin_minutes": 30, "grace_seconds": 120, "club": other.pk,
    }  # fmt: skip
    response = client_of(owner, language).post("/tournaments/new/", data)
    assert response.status_code == 200 and not Tournament.objects.filter(name="Spring cup").exists()
    response = client_of(owner, language).post("/tournaments/new/", {**data, "club": club.pk})
    event = Tournament.objects.get(name="Spring cup")
    assert response.status_code == 302 and event.club_id == club.pk and not event.public
