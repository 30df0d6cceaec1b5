"""A club's events: its owner and admins organise them (audited as any organiser's action), and a
club-only event is the club's active members' alone — everybody else gets 404 and cannot sign up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from accounts.services import create_api_token
from games.clubs import services as clubs
from games.clubs.models import ClubMember
from games.moderation.models import AdminAuditLog
from games.tournaments import organising, services
from games.tournaments.access import TournamentError, can_organise
from games.tournaments.models import TournamentPlayer, TournamentTable
from tests.conftest import make_user
from tests.games.clubs.helpers import club_of
from tests.games.tournaments.helpers import new_tournament, organiser

pytestmark = pytest.mark.django_db


def _club_event(**settings: object):  # noqa: ANN202 - (club, event, owner, admin, member)
    owner, admin, member = make_user("owner"), make_user("admin"), make_user("member")
    club = club_of(owner, admin, member)
    clubs.appoint_admin(owner, ClubMember.objects.get(club=club, user=admin))
    event = new_tournament(admin, club=club.pk, public=False, **settings)
    return club, event, owner, admin, member


def test_a_club_s_owner_and_admins_organise_its_events_and_nobody_else() -> None:
    club, event, owner, admin, member = _club_event()
    assert event.club_id == club.pk and not event.public
    assert can_organise(owner, event) and can_organise(admin, event) and can_organise(organiser(), event)
    assert not can_organise(member, event) and not can_organise(make_user("outsider"), event)
    assert can_organise(admin) and not can_organise(member)  # who may open the form
    clubs.appoint_admin(owner, ClubMember.objects.get(club=club, user=admin), admin=False)
    assert not can_organise(admin, event)  # the club's managers of now, not whoever created it


def test_an_event_only_for_a_club_its_creator_does_not_run_is_refused() -> None:
    owner = make_user("owner")
    other = club_of(make_user("elsewhere"), name="Other club")
    club_of(owner)
    with pytest.raises(TournamentError) as e:
        new_tournament(owner, club=other.pk)
    assert e.value.code == "bad_club"
    with pytest.raises(TournamentError) as e:
        new_tournament(make_user("member"), club=other.pk)
    assert e.value.code == "not_organiser"


def test_a_club_s_manager_runs_that_club_s_events_only_not_the_site_s() -> None:
    owner = make_user("owner")
    club = club_of(owner)
    with pytest.raises(TournamentError) as e:
        new_tournament(owner)  # no club named: an event of the whole site, which is staff's
    assert e.value.code == "club_required"
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    html = client.get("/tournaments/new/").content.decode()
    # the form has no "No club" choice for them, and starts on their club
    assert "No club" not in html and f'<option value="{club.pk}" selected>' in html
    member = Client()
    member.force_login(make_user("player"))
    member.cookies["django_language"] = "zh-hans"
    listing = member.get("/tournaments/").content.decode()  # how one comes to run events
    assert "建一个亲友圈" in listing and 'href="/clubs/"' in listing and "/tournaments/new/" not in listing
    staff_client = Client()
    staff_client.force_login(organiser())
    staff_client.cookies["django_language"] = "en"
    assert "No club" in staff_client.get("/tournaments/new/").content.decode()


def test_a_club_only_event_is_not_found_by_others_and_refuses_their_sign_up() -> None:
    club, event, owner, admin, member = _club_event()
    outsider = make_user("outsider")
    for user, status in ((member, 200), (outsider, 404)):
        client = Client()
        client.force_login(user)
        assert client.get(f"/tournaments/{event.pk}/").status_code == status
        assert (event.name in client.get("/tournaments/").content.decode()) is (status == 200)
    assert Client().get(f"/tournaments/{event.pk}/").status_code == 404
    token = create_api_token(outsider)
    response = Client().post(f"/api/tournaments/{event.pk}/signup", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 404
    with pytest.raises(TournamentError) as e:
        services.sign_up(event.pk, outsider)
    assert e.value.code == "club_only"
    with pytest.raises(TournamentError):
        services.sign_up(event.pk, organiser())  # staff see every event, but enter only as members
    services.sign_up(event.pk, member)
    assert list(TournamentPlayer.objects.values_list("user_id", flat=True)) == [member.pk]
    standings = Client()
    standings.force_login(member)
    body = standings.get(f"/api/tournaments/{event.pk}/standings").json()
    assert body["club"] == {"id": club.pk, "name": club.name} and body["public"] is False
    clubs.leave(member, club)  # a former member no longer sees the club's events, nor checks in
    assert standings.get(f"/tournaments/{event.pk}/").status_code == 404
    with pytest.raises(TournamentError) as e:
        services.check_in(event.pk, member, event.starts_at - timedelta(minutes=5))
    assert e.value.code == "club_only"


def test_a_public_club_event_is_open_to_everybody() -> None:
    club, event, *_ = _club_event()
    public = new_tournament(organiser(), club=club.pk, name="Open cup")
    assert Client().get(f"/tournaments/{public.pk}/").status_code == 200
    services.sign_up(public.pk, make_user("outsider"))
    assert Client().get(f"/tournaments/{event.pk}/").status_code == 404


def test_the_club_s_admin_runs_the_tables_audited_and_a_member_may_not() -> None:
    club, event, owner, admin, member = _club_event(duplicate=False, rounds=1, hands_per_round=3)
    people = [member] + [make_user(f"m{i}") for i in range(3)]
    for user in people[1:]:
        clubs.join_by_invite(user, club.invite_code)
    for user in people:
        services.sign_up(event.pk, user)
        services.check_in(event.pk, user)
    services.sweep(event.starts_at)
    tt = TournamentTable.objects.get()
    with pytest.raises(TournamentError) as e:
        organising.pause_table(event.pk, member, tt.table_id)
    assert e.value.code == "not_organiser"
    organising.pause_table(event.pk, owner, tt.table_id, event.starts_at)
    organising.disqualify(event.pk, admin, people[1].username, "no show")
    rows = AdminAuditLog.objects.filter(object_id=str(event.pk)).values_list("user_id", "action")
    assert {(owner.pk, "tournament_pause_table"), (admin.pk, "tournament_disqualify")} <= set(rows)
    assert (admin.pk, "tournament_create") in set(rows)
