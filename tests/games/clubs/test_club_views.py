"""The club pages and who sees what: a club and its tables are its members' only (404 for
anyone else, as a private table), the lobby lists no club table, members watch them."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.clubs import services, stats
from games.clubs.models import Club, ClubMember
from games.history.queries import may_see_hand
from games.models import Table
from games.moderation.models import AdminAuditLog
from games.table import access, commands, opening
from games.web.views import lobby_tables
from tests.conftest import make_user
from tests.games.clubs.helpers import client_of, club_of
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db


def test_a_club_table_is_for_members_only(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)
    table = services.open_table(alice, club, bots=1)
    table = Table.objects.get(pk=table.pk)
    assert access.may_watch(table, bob, {})  # a member watches
    assert not access.may_watch(table, carol, {}) and not access.may_watch(table, AnonymousUser(), {})
    page = client_of(bob).get(f"/tables/{table.pk}/").content.decode()
    assert reverse("clubs:club", args=[club.pk]) in page  # the way back to the club
    assert client_of(carol).get(f"/tables/{table.pk}/").status_code == 404
    assert Client().get(f"/tables/{table.pk}/").status_code == 404
    services.ban(alice, ClubMember.objects.get(club=club, user=bob))
    assert not access.may_watch(table, bob, {})  # a ban ends it


def test_the_lobby_lists_no_club_table_to_anyone_not_seated(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)
    table = services.open_table(alice, club, bots=1)
    for viewer in (bob, carol, AnonymousUser()):
        assert table.pk not in [row["id"] for row in lobby_tables(viewer)]
    assert f"/tables/{table.pk}/" not in client_of(carol).get("/lobby/tables/").content.decode()


def test_the_club_page_is_404_for_anyone_but_its_members(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)
    url = reverse("clubs:club", args=[club.pk])
    assert client_of(bob).get(url).status_code == 200
    assert client_of(carol).get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert client_of(carol).post(reverse("clubs:open_table", args=[club.pk])).status_code == 404
    assert not Table.objects.filter(club=club).exists()


def test_the_club_page_shows_members_tables_and_the_invite(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    services.set_announcement(alice, club, "Friday 8 pm")
    table = services.open_table(bob, club, bots=2)
    page = client_of(bob).get(reverse("clubs:club", args=[club.pk])).content.decode()
    for text in ("Friday club", "Friday 8 pm", "alice", "bob", f"/tables/{table.pk}/", club.invite_code):
        assert text in page
    assert "Remove" not in page  # bob manages nothing
    assert ClubMember.objects.get(club=club, user=bob).last_seen is not None
    owner_page = client_of(alice).get(reverse("clubs:club", args=[club.pk])).content.decode()
    assert "Make admin" in owner_page and "Save the announcement" in owner_page


def test_the_page_speaks_chinese(alice: User) -> None:
    club = club_of(alice)
    client = client_of(alice, "zh-hans")
    page = client.get(reverse("clubs:club", args=[club.pk])).content.decode()
    assert "开一桌" in page and "本周" in page


def test_joining_through_the_invite_link(alice: User, bob: User) -> None:
    club = club_of(alice)
    link = reverse("clubs:join", args=[club.invite_code])
    assert "Log in to join" in Client(HTTP_ACCEPT_LANGUAGE="en").get(link).content.decode()
    client = client_of(bob)
    assert client.get(link).status_code == 200
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == reverse("clubs:club", args=[club.pk])
    assert services.is_member(bob, club)
    again = client.post(link, follow=True).content.decode()
    assert "You are a member of this club already." in again
    assert ClubMember.objects.filter(club=club).count() == 2


def test_a_forged_invite_link_is_404_and_joins_nothing(alice: User, bob: User) -> None:
    club_of(alice)
    client = client_of(bob)
    assert client.get(reverse("clubs:join", args=["forged"])).status_code == 404
    page = client.post(reverse("clubs:join", args=["forged"]), follow=True).content.decode()
    assert "This invite is not valid" in page
    assert not ClubMember.objects.filter(user=bob).exists()


def test_a_banned_player_gets_a_clear_refusal(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    services.ban(alice, ClubMember.objects.get(club=club, user=bob))
    page = client_of(bob).post(reverse("clubs:join", args=[club.invite_code]), follow=True)
    assert "You are banned from this club." in page.content.decode()
    assert ClubMember.objects.get(club=club, user=bob).status == "banned"


def test_creating_a_club_through_the_form(alice: User) -> None:
    client = client_of(alice)
    assert client.get(reverse("clubs:create")).status_code == 200
    data = {"name": "Tea house", "description": "", "policy": "approval", "variant": "yihua", "base": "3"}
    page = client.post(reverse("clubs:create"), data).content.decode()
    assert "even base stake" in page and not Club.objects.exists()  # the table form's own check
    response = client.post(reverse("clubs:create"), {**data, "base": "4"})
    club = Club.objects.get()
    assert response["Location"] == reverse("clubs:club", args=[club.pk])
    assert (club.variant, club.base, club.policy, club.owner) == ("yihua", 4, "approval", alice)


def test_member_actions_by_post_are_audited_and_a_member_s_are_refused(alice: User, bob: User) -> None:
    carol = make_user("carol2")
    club = club_of(alice, bob, carol)
    target = ClubMember.objects.get(club=club, user=carol)
    url = reverse("clubs:member_action", args=[club.pk, target.pk, "ban"])
    page = client_of(bob).post(url, follow=True).content.decode()
    assert "Only the club" in page and ClubMember.objects.get(pk=target.pk).status == "active"
    client_of(alice).post(url)
    assert ClubMember.objects.get(pk=target.pk).status == "banned"
    assert AdminAuditLog.objects.filter(action="club ban", user=alice, details__target="carol2").count() == 1
    assert (
        client_of(alice).post(reverse("clubs:member_action", args=[club.pk, target.pk, "x"])).status_code
        == 404
    )


def test_open_a_table_in_one_click(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    response = client_of(bob).post(reverse("clubs:open_table", args=[club.pk]), {"bots": "3"})
    table = Table.objects.get(club=club)
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert [s.is_bot for s in table.seats.order_by("index")] == [False, True, True, True]


def test_the_leaderboard_counts_club_tables_only_and_members_see_the_replays(
    alice: User, bob: User, carol: User
) -> None:
    club = club_of(alice, bob)
    table = services.open_table(alice, club, bots=3)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    elsewhere = opening.create_table(alice, "shanghai")  # not a club table: not counted
    assert elsewhere.club is None
    for period in stats.PERIODS:
        board = stats.leaderboard(club, period)
        assert [r.username for r in board] == ["alice"]
        assert board[0].hands == 1
    hand = Table.objects.get(pk=table.pk).hand
    points = hand.scores.get(seat=0).delta
    assert stats.leaderboard(club, "all")[0].points == points
    matches = stats.recent_matches(club)
    assert matches[0]["hands"][0]["replay"] == f"/hands/{hand.pk}/replay/"
    assert may_see_hand(hand, bob) and not may_see_hand(hand, carol)
    page = client_of(bob).get(reverse("clubs:club", args=[club.pk]) + "?period=month").content.decode()
    assert f"/hands/{hand.pk}/replay/" in page and "alice" in page
    assert client_of(bob).get(f"/hands/{hand.pk}/replay/").status_code == 200
    assert client_of(carol).get(f"/hands/{hand.pk}/replay/").status_code == 404


def test_a_club_match_links_each_hand_to_its_review() -> None:
    assert stats.review_url(1) == "/hands/1/review/"


def test_the_site_admin_lists_clubs_and_audits_its_changes(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = client_of(staff)
    assert "Friday club" in client.get("/admin/games/club/").content.decode()
    assert client.get(f"/admin/games/club/{club.pk}/change/").status_code == 200


def test_this_week_starts_on_monday_and_this_month_on_the_first() -> None:
    thursday = timezone.make_aware(datetime(2026, 11, 26, 15, 30))
    assert timezone.localtime(stats.period_start("week", thursday)).date().isoformat() == "2026-11-23"
    assert timezone.localtime(stats.period_start("month", thursday)).date().isoformat() == "2026-11-01"
    assert stats.period_start("all", thursday) is None


def test_leaving_a_new_link_and_the_policy_through_the_page(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    old = club.invite_code
    refused = client_of(bob).post(reverse("clubs:new_invite", args=[club.pk]), follow=True).content.decode()
    assert "Only the club" in refused and Club.objects.get(pk=club.pk).invite_code == old
    client_of(alice).post(reverse("clubs:new_invite", args=[club.pk]))
    assert Club.objects.get(pk=club.pk).invite_code != old
    client_of(alice).post(reverse("clubs:policy", args=[club.pk]), {"policy": "approval"})
    assert Club.objects.get(pk=club.pk).policy == "approval"
    page = client_of(alice).post(reverse("clubs:leave", args=[club.pk]), follow=True).content.decode()
    assert "Hand the club to another member" in page and services.is_member(alice, club)
    response = client_of(bob).post(reverse("clubs:leave", args=[club.pk]))
    assert response["Location"] == reverse("clubs:index") and not services.is_member(bob, club)
