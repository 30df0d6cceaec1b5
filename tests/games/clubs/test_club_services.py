"""Every change to a club (games/clubs/services.py): who may make it, the limits, and that a
refused change changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from games.clubs import services
from games.clubs.models import Club, ClubMember
from games.clubs.services import ClubError
from games.models import Table
from games.moderation.models import AdminAuditLog
from tests.conftest import make_user
from tests.games.clubs.helpers import club_of

pytestmark = pytest.mark.django_db


def rows(club: Club) -> list[tuple[str, str, str]]:
    """Who is in the club, as what, in what state: what a refused change must leave alone."""
    members = ClubMember.objects.filter(club=club).order_by("user__username")
    return [(m.user.username, m.role, m.status) for m in members]


def refused(code: str, change, club: Club) -> None:  # noqa: ANN001
    before = (rows(club), AdminAuditLog.objects.count(), Club.objects.get(pk=club.pk).owner_id)
    with pytest.raises(ClubError) as error:
        change()
    assert error.value.code == code
    assert error.value.message  # a sentence for people
    assert (rows(club), AdminAuditLog.objects.count(), Club.objects.get(pk=club.pk).owner_id) == before


def test_creating_a_club_makes_its_owner_its_first_member(alice: User) -> None:
    club = services.create_club(alice, "  Friday   club ", "yihua", 4, options={"escape_penalty": 20})
    assert (club.name, club.variant, club.base, club.options) == (
        "Friday club",
        "yihua",
        4,
        {"escape_penalty": 20},
    )
    assert rows(club) == [("alice", "owner", "active")]
    assert len(club.invite_code) >= 12
    assert services.is_member(alice, club) and services.can_manage(alice, club)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("", "shanghai", 2), "bad_name"),
        (("Club", "mahjong", 2), "unknown_variant"),
        (("Club", "yihua", 3), "bad_stake"),  # one-flower: an even stake
        (("Club", "shanghai", 0), "bad_stake"),
    ],
)
def test_a_club_s_rules_are_checked_as_a_table_s(alice: User, args: tuple, code: str) -> None:
    with pytest.raises(ClubError if code in ("bad_name", "unknown_variant") else Exception) as error:
        services.create_club(alice, *args)
    assert error.value.code == code
    assert not Club.objects.exists()


def test_house_rules_out_of_range_are_refused(alice: User) -> None:
    with pytest.raises(Exception) as error:
        services.create_club(alice, "Club", "shanghai", 2, options={"escape_penalty": 999})
    assert error.value.code == "bad_option"
    assert not Club.objects.exists()


def test_names_are_unique_whatever_their_case(alice: User, bob: User) -> None:
    services.create_club(alice, "Friday club", "shanghai", 2)
    with pytest.raises(ClubError) as error:
        services.create_club(bob, "FRIDAY CLUB", "shanghai", 2)
    assert error.value.code == "name_taken"


@override_settings(CLUBS_OWNED_PER_USER=1)
def test_a_player_owns_at_most_the_limit(alice: User) -> None:
    services.create_club(alice, "One", "shanghai", 2)
    with pytest.raises(ClubError) as error:
        services.create_club(alice, "Two", "shanghai", 2)
    assert error.value.code == "too_many_owned"
    assert Club.objects.count() == 1


def test_joining_an_open_club_through_its_invite(alice: User, bob: User) -> None:
    club = club_of(alice)
    row = services.join_by_invite(bob, club.invite_code)
    assert (row.role, row.status) == ("member", "active")
    assert services.is_member(bob, club) and not services.can_manage(bob, club)


def test_a_forged_invite_a_second_join_and_a_banned_player_are_refused(
    alice: User, bob: User, carol: User
) -> None:
    club = club_of(alice, bob, carol)
    refused("bad_invite", lambda: services.join_by_invite(bob, club.invite_code + "x"), club)
    refused("bad_invite", lambda: services.join_by_invite(bob, ""), club)
    refused("already_member", lambda: services.join_by_invite(bob, club.invite_code), club)
    services.ban(alice, ClubMember.objects.get(club=club, user=carol))
    refused("banned", lambda: services.join_by_invite(carol, club.invite_code), club)
    assert not services.is_member(carol, club)


def test_an_approval_club_takes_requests_that_an_admin_answers(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, policy=Club.Policy.APPROVAL)
    request = services.join_by_invite(bob, club.invite_code)
    assert request.status == "pending" and not services.is_member(bob, club)
    refused("already_requested", lambda: services.join_by_invite(bob, club.invite_code), club)
    services.join_by_invite(carol, club.invite_code)
    refused("not_club_admin", lambda: services.approve(carol, request), club)
    services.approve(alice, request)
    assert services.is_member(bob, club)
    log = AdminAuditLog.objects.get(action="club approve")
    assert (log.user, log.object_id, log.details) == (alice, str(club.pk), {"target": "bob"})


@override_settings(MEMBERS_PER_CLUB=2)
def test_a_full_club_takes_nobody_more(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)
    refused("club_full", lambda: services.join_by_invite(carol, club.invite_code), club)


@override_settings(CLUBS_JOINED_PER_USER=1)
def test_a_player_belongs_to_at_most_the_limit(alice: User, bob: User) -> None:
    club_of(bob, name="Bob's")
    club = club_of(alice, name="Alice's")
    refused("too_many_clubs", lambda: services.join_by_invite(bob, club.invite_code), club)


@override_settings(CLUB_INVITES_PER_HOUR=2)
def test_a_club_s_invite_lets_in_at_most_the_limit_an_hour(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)  # the owner and bob: two this hour
    refused("too_many_joins", lambda: services.join_by_invite(carol, club.invite_code), club)


def test_admins_remove_and_ban_members_but_not_the_owner_nor_each_other(
    alice: User, bob: User, carol: User
) -> None:
    dave = make_user("dave")
    club = club_of(alice, bob, carol, dave)
    row = {u.username: ClubMember.objects.get(club=club, user=u) for u in (alice, bob, carol, dave)}
    refused("not_club_admin", lambda: services.remove(bob, row["carol"]), club)
    refused("not_club_owner", lambda: services.appoint_admin(bob, row["carol"]), club)
    services.appoint_admin(alice, row["bob"])
    services.appoint_admin(alice, row["carol"])
    refused("is_owner", lambda: services.ban(bob, row["alice"]), club)
    refused("is_admin", lambda: services.remove(bob, row["carol"]), club)
    refused("not_yourself", lambda: services.ban(bob, row["bob"]), club)
    services.ban(bob, row["dave"])
    refused("already_banned", lambda: services.ban(bob, row["dave"]), club)
    services.remove(bob, ClubMember.objects.get(pk=row["dave"].pk))  # lifts the ban
    services.join_by_invite(dave, club.invite_code)
    services.remove(alice, ClubMember.objects.get(pk=row["carol"].pk))  # the owner acts on an admin
    assert rows(club) == [
        ("alice", "owner", "active"),
        ("bob", "admin", "active"),
        ("dave", "member", "active"),
    ]
    actions = list(AdminAuditLog.objects.order_by("pk").values_list("action", "details__target"))
    assert actions == [
        ("club appoint admin", "bob"),
        ("club appoint admin", "carol"),
        ("club ban", "dave"),
        ("club remove", "dave"),
        ("club remove", "carol"),
    ]


def test_the_owner_hands_the_club_on_and_stays_as_an_admin(alice: User, bob: User, carol: User) -> None:
    club = club_of(alice, bob)
    refused("owner_leaves", lambda: services.leave(alice, club), club)
    refused(
        "not_a_member", lambda: services.transfer_ownership(alice, ClubMember.objects.get(user=alice)), club
    )
    services.transfer_ownership(alice, ClubMember.objects.get(club=club, user=bob))
    club.refresh_from_db()
    assert club.owner == bob
    assert rows(club) == [("alice", "admin", "active"), ("bob", "owner", "active")]
    services.leave(alice, club)
    assert rows(club) == [("bob", "owner", "active")]
    refused("not_member", lambda: services.leave(carol, club), club)
    assert AdminAuditLog.objects.filter(action="club transfer ownership", details__target="bob").exists()


def test_a_new_invite_makes_the_old_one_forged(alice: User, bob: User) -> None:
    club = club_of(alice)
    old = club.invite_code
    services.reset_invite(alice, club)
    refused("bad_invite", lambda: services.join_by_invite(bob, old), club)
    services.join_by_invite(bob, Club.objects.get(pk=club.pk).invite_code)
    assert services.is_member(bob, club)


def test_the_announcement_is_the_admins(alice: User, bob: User) -> None:
    club = club_of(alice, bob)
    refused("not_club_admin", lambda: services.set_announcement(bob, club, "Mine now"), club)
    services.set_announcement(alice, club, "  Friday 8 pm, Shanghai rules  ")
    assert Club.objects.get(pk=club.pk).announcement == "Friday 8 pm, Shanghai rules"
    refused("too_long", lambda: services.set_announcement(alice, club, "x" * 1001), club)


def test_a_club_table_has_the_club_s_rules_and_only_members_open_one(alice: User, bob: User) -> None:
    club = services.create_club(alice, "Club", "yihua", 4, options={"escape_penalty": 20})
    table = services.open_table(alice, club, bots=2)
    table = Table.objects.get(pk=table.pk)
    assert (table.club, table.variant, table.base, table.options, table.public) == (
        club,
        "yihua",
        4,
        {"escape_penalty": 20},
        False,
    )
    seats = list(table.seats.order_by("index"))
    assert seats[0].user == alice and [s.is_bot for s in seats] == [False, True, True, False]
    with pytest.raises(ClubError) as error:
        services.open_table(bob, club)
    assert error.value.code == "not_member"
    with pytest.raises(ClubError):
        services.open_table(alice, club, bots=4)
    assert Table.objects.filter(club=club).count() == 1
