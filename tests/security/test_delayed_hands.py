"""A quick-match table's spectators are kept `spectator_delay_seconds` behind: no other path may
show a non-seated viewer what they will only see later — the replay (page and API), the hand and
match records, the history page and its API all wait until the delay has passed since the hand
ended. The hand's own players (and staff) see it at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.clock.ticks import drive_table_until_idle
from games.models import Hand, Table
from tests.conftest import logged_in_client, make_user
from tests.games.test_spectator_delay import quick_table


def finished_quick_hand(ended_ago: float) -> Hand:
    """A two-person quick-match hand, played to the end, that ended `ended_ago` seconds ago."""
    table = quick_table()
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.status == "over")
    hand = Hand.objects.get(table=table)
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=ended_ago))
    return Hand.objects.get(pk=hand.pk)


def paths(hand: Hand) -> dict[str, str]:
    return {
        "replay_api": f"/api/hands/{hand.pk}/replay",
        "hand_record": f"/api/hands/{hand.pk}/record",
        "match_record": f"/api/matches/{hand.match_id}/record",
        "replay_page": f"/hands/{hand.pk}/replay/",
    }


def shows_hand(client: Client, hand: Hand) -> dict[str, bool]:
    """Which paths reveal the hand (its replay, its record, or its row in the player's history)."""
    out = {name: client.get(url).status_code == 200 for name, url in paths(hand).items()}
    matches = client.get("/api/users/east/matches").json()["matches"]
    out["history_api"] = any(h["id"] == hand.pk for m in matches for h in m["hands"])
    page = client.get("/users/east/history/").content.decode()
    out["history_page"] = f"/hands/{hand.pk}/replay/" in page
    return out


@pytest.mark.django_db
@pytest.mark.parametrize("viewer", ["anonymous", "stranger"])
def test_a_hand_still_behind_the_spectator_delay_is_shown_on_no_path(viewer: str) -> None:
    hand = finished_quick_hand(ended_ago=5)
    client = Client() if viewer == "anonymous" else logged_in_client(make_user("stranger"))
    assert not any(shows_hand(client, hand).values()), shows_hand(client, hand)
    assert client.get(paths(hand)["replay_api"]).json()["error"] == "hand_in_progress"  # as if still playing


@pytest.mark.django_db
def test_once_the_delay_has_passed_every_path_shows_it() -> None:
    hand = finished_quick_hand(ended_ago=181)
    assert all(shows_hand(Client(), hand).values())


@pytest.mark.django_db
def test_its_players_see_it_at_once() -> None:
    hand = finished_quick_hand(ended_ago=5)
    east = User.objects.get(username="east")
    assert all(shows_hand(logged_in_client(east), hand).values())


@pytest.mark.django_db
def test_other_tables_are_not_delayed(alice: User) -> None:
    from tests.games.history_helpers import finished_hand

    hand = finished_hand(alice)
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now())
    assert Client().get(f"/api/hands/{hand.pk}/replay").status_code == 200
    assert Table.objects.get(pk=hand.table_id).public


# --- what a ranked hand moved: ranks and the leaderboard ---------------------------------------


def finished_ranked_hand(ended_ago: float) -> Hand:
    """A ranked two-person quick-match hand between east and west, played to the end, that ended
    `ended_ago` seconds ago; east had played one ordinary hand before (so is on the leaderboard)."""
    from games.table import commands
    from tests.games.history_helpers import finished_hand

    east, west = make_user("east"), make_user("west")
    earlier = finished_hand(east)
    commands.leave(earlier.table_id, east)
    return ranked_hand(east, west, ended_ago)


def ranked_hand(east: User, west: User, ended_ago: float) -> Hand:
    """East and west play a ranked two-person quick-match hand that ended `ended_ago` seconds ago."""
    from games.matchmaking import queue
    from tests.games.conftest import play_to_end

    for user in (east, west):
        queue.join(user, "two_player", "bronze", ranked=True)
    table = Table.objects.get(quick_match__isnull=False)
    play_to_end(table.pk)
    hand = Hand.objects.get(table=table, number=1)
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=ended_ago))
    return Hand.objects.get(pk=hand.pk)


def ranks_section(client: Client) -> str:
    page = client.get("/users/east/history/").content.decode()
    return page.split('class="ranks"')[1].split("</section>")[0]


def shown_rank(client: Client) -> dict:
    return client.get("/api/users/east").json()["ranks"]["two_player"]


@pytest.mark.django_db
def test_a_rank_moved_by_a_hand_still_behind_the_delay_is_shown_as_before_it() -> None:
    from games.history.models import RankChange

    hand = finished_ranked_hand(ended_ago=5)
    change = RankChange.objects.get(hand=hand, user__username="east")
    before = {"level": change.tier_before, "points": change.points_before, "ranked_hands": 0}
    after = {"level": change.tier_after, "points": change.points_after, "ranked_hands": 1}

    def seen(rank: dict) -> dict:
        return {key: rank[key] for key in before}

    for viewer in (Client(), logged_in_client(make_user("stranger"))):
        assert seen(shown_rank(viewer)) == before
        assert "<td>1</td>" not in ranks_section(viewer)  # no variant shows a ranked hand yet
    east = User.objects.get(username="east")
    assert seen(shown_rank(logged_in_client(east))) == after  # the account itself: at once
    assert "<td>1</td>" in ranks_section(logged_in_client(east))
    staff = User.objects.create_user("staff", is_staff=True)
    assert seen(shown_rank(logged_in_client(staff))) == after
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=181))
    assert seen(shown_rank(Client())) == after


@pytest.mark.django_db
def test_the_leaderboard_leaves_out_hands_still_behind_the_delay() -> None:
    from accounts import ledger
    from accounts.models import LedgerEntry, Profile

    hand = finished_ranked_hand(ended_ago=5)
    east, west = User.objects.get(username="east"), User.objects.get(username="west")
    # 托管 plays both seats to a draw: the points a won hand moves, posted as its settlement does
    ledger.post(east, 60, LedgerEntry.Kind.HAND_RESULT, hand=hand)
    ledger.post(west, -60, LedgerEntry.Kind.HAND_RESULT, hand=hand)
    live = Profile.objects.get(user=east).balance

    def row() -> dict:
        board = Client().get("/api/leaderboard").json()
        return next(s for s in board["ranked"] + board["provisional"] if s["username"] == "east")

    assert (row()["balance"], row()["hands"]) == (live - 60, 1)
    board = Client().get("/api/leaderboard?variant=two_player").json()
    east_rows = [s for s in board["ranked"] + board["provisional"] if s["username"] == "east"]
    assert (
        east_rows[0]["rank"]["points"] == 0
    )  # the ordinary hand moved no rank; the ranked one not yet shown
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=181))
    assert (row()["balance"], row()["hands"]) == (live, 2)


# --- what a hand moved: the openskill rating, and the rank beside a name at another table ------


def rating_shown(client: Client, username: str = "east") -> float | None:
    return client.get(f"/api/users/{username}").json()["ranks"]["two_player"]["rating"]


def board_row(username: str = "east") -> dict:
    board = Client().get("/api/leaderboard?variant=two_player").json()
    return next(s for s in board["ranked"] + board["provisional"] if s["username"] == username)


@pytest.mark.django_db
def test_a_rating_moved_by_a_hand_still_behind_the_delay_is_shown_as_before_it() -> None:
    from games.history.models import Rating
    from games.table import commands
    from tests.games.history_helpers import finished_hand

    east, west = make_user("east"), make_user("west")
    commands.leave(finished_hand(east).table_id, east)
    before = Rating.objects.get(user=east, variant="two_player")
    hand = ranked_hand(east, west, ended_ago=5)
    live = Rating.objects.get(user=east, variant="two_player")
    assert (live.mu, live.sigma) != (before.mu, before.sigma)  # the hand moved it

    for viewer in (Client(), logged_in_client(make_user("stranger"))):
        assert rating_shown(viewer) == round(before.ordinal, 3)
        assert rating_shown(viewer, "west") is None  # west had no rating before this hand
        page = viewer.get("/users/east/history/").content.decode()
        assert f"{live.ordinal:.2f}" not in page and f"{before.ordinal:.2f}" in page
    row = board_row()  # one public board: the players see it as everyone does
    assert (row["rating"], row["mu"], row["sigma"]) == (round(before.ordinal, 3), before.mu, before.sigma)
    assert rating_shown(logged_in_client(east)) == round(live.ordinal, 3)  # the account itself: at once
    staff = User.objects.create_user("staff", is_staff=True)
    assert rating_shown(logged_in_client(staff)) == round(live.ordinal, 3)

    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=181))
    assert rating_shown(Client()) == round(live.ordinal, 3)
    assert rating_shown(Client(), "west") is not None
    assert board_row()["rating"] == round(live.ordinal, 3)


@pytest.mark.django_db
def test_the_rank_beside_a_name_at_another_table_leaves_out_hands_still_behind_the_delay() -> None:
    from games.history.models import Rank, RankChange
    from games.models import Seat
    from games.table import commands
    from tests.games.conftest import bot_table

    hand = finished_ranked_hand(ended_ago=5)
    east = User.objects.get(username="east")
    # 托管 plays the hand to a draw, which moves no points: east won 40, as a win would post them
    RankChange.objects.filter(hand=hand, user=east).update(points_after=40)
    Rank.objects.filter(user=east, variant="two_player").update(points=40)
    change = RankChange.objects.get(hand=hand, user=east)
    commands.leave(hand.table_id, east)
    table = bot_table(east, "two_player", base=1)
    assert Seat.objects.get(table=table, index=0).rank["points"] == change.points_before

    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=181))
    commands.leave(table.pk, east)
    table = bot_table(east, "two_player", base=1)
    assert Seat.objects.get(table=table, index=0).rank["points"] == change.points_after


@pytest.mark.django_db
def test_a_seats_rank_behind_the_delay_is_shown_as_before_it_and_nobody_unranked_is_read() -> None:
    """The rank a sit-down shows beside a name (`tiers_for`): before the change of a hand still
    behind the delay; a player with no rank yet has no standing to hold back."""
    from games.history.models import RankChange
    from games.history.ranks import Standing, tiers_for

    hand = finished_ranked_hand(ended_ago=5)
    change = RankChange.objects.get(hand=hand, user__username="east")
    east, nobody = User.objects.get(username="east"), make_user("nobody")
    shown = tiers_for("two_player", [east.pk, nobody.pk])
    assert shown == {east.pk: Standing(change.tier_before, change.points_before)}
    assert tiers_for("two_player", [nobody.pk]) == {}
    Hand.objects.filter(pk=hand.pk).update(ended=timezone.now() - timedelta(seconds=181))
    assert tiers_for("two_player", [east.pk])[east.pk] == Standing(change.tier_after, change.points_after)
