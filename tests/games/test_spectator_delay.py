"""Spectator delay (games.rendering.spectator_delay): spectators of quick-match tables see the log as it
stood `delay` seconds ago, never newer, never a concealed tile; seated players see it live."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from games.clock.ticks import drive_table_until_idle
from games.matchmaking import queue
from games.models import Hand, HandAction, Table
from games.moderation.models import SiteSettings
from games.rendering.board import board_model
from games.rendering.presenters import table_context
from games.rendering.spectator_delay import delay_for, delayed_context, for_viewer, watches_live
from games.table import commands
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import bot_table
from tests.games.test_consumers import open_socket, receive


def quick_table(names: tuple[str, str] = ("east", "west")) -> Table:
    for name in names:
        queue.join(make_user(name), "two_player", "bronze")
    return Table.objects.get(quick_match__isnull=False)


def play_some(table: Table, actions: int = 10) -> Hand:
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.actions_count >= actions)
    return Hand.objects.get(table=table)


def spread_log(hand: Hand, start: timezone.datetime) -> None:
    """The hand began at `start` and action k was logged k seconds later."""
    Hand.objects.filter(pk=hand.pk).update(started=start)
    for action in HandAction.objects.filter(hand=hand):
        HandAction.objects.filter(pk=action.pk).update(created=start + timedelta(seconds=action.seq))


def assert_public_only(context: dict) -> None:
    """The hidden-information audit for a delayed frame: no seat's concealed tiles, no wall."""
    view = context["view"]
    if view is None:
        return
    for seat in view["seats"]:
        assert seat.get("hand") is None, seat
    assert view["me"] is None and "waits" not in view and "discard_waits" not in view
    assert '"wall"' not in json.dumps(view)  # only its count (wall_left)


@pytest.mark.django_db
def test_only_quick_match_tables_are_delayed(alice: User) -> None:
    assert delay_for(bot_table(alice).pk) == 0
    table = quick_table()
    assert delay_for(table.pk) == 180
    SiteSettings.objects.create(spectator_delay_seconds=30)
    assert delay_for(table.pk) == 30


@pytest.mark.django_db
def discards_in(view: dict) -> int:
    """Tiles laid in the rivers so far (the view has no action counter: it would tell claims)."""
    return sum(len(seat["discards"]) for seat in view["seats"])


def test_a_spectator_sees_only_the_actions_logged_delay_seconds_ago(bob: User) -> None:
    table = quick_table()
    hand = play_some(table, 10)
    start = timezone.now() - timedelta(hours=1)
    spread_log(hand, start)
    for shown in (0, 3, 7):
        now = start + timedelta(seconds=180 + shown + 0.5)
        delayed = delayed_context(table.pk, bob, 180, now)
        view = delayed.context["view"]
        # each logged action lays at most one tile in a river: no more than `shown` discards
        assert view is not None and discards_in(view) <= shown
        assert delayed.context["table"]["delay_s"] == 180
        assert delayed.next_in == pytest.approx(0.5, abs=0.01)
        assert all(s["balance"] is None for s in delayed.context["table"]["seats"])
        assert_public_only(delayed.context)
    live = table_context(table.pk, bob)
    assert discards_in(live["view"]) > discards_in(view)


@pytest.mark.django_db
def test_before_the_first_hand_is_due_the_spectator_sees_a_waiting_table(bob: User) -> None:
    table = quick_table()
    delayed = delayed_context(table.pk, bob, 180)
    assert delayed.context["view"] is None and delayed.context["table"]["phase"] == "waiting"
    assert 179 < delayed.next_in <= 180


@pytest.mark.django_db
def test_a_finished_hand_shows_its_settlement_only_after_the_delay(bob: User) -> None:
    table = quick_table()
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.status == "over")
    hand = Hand.objects.get(table=table)
    assert delayed_context(table.pk, bob, 180).context["table"]["last_result"] is None
    later = hand.ended + timedelta(seconds=181)
    context = delayed_context(table.pk, bob, 180, later).context
    assert context["table"]["last_result"]["hand"] == 1 and context["table"]["phase"] == "hand_over"


@pytest.mark.django_db
def test_seated_players_always_see_it_live() -> None:
    table = quick_table()
    east = User.objects.get(username="east")
    live = table_context(table.pk, east)
    assert for_viewer(table.pk, east, live) is live


@pytest.mark.django_db
def test_the_table_page_of_a_spectator_is_delayed(bob: User) -> None:
    table = quick_table()
    client = logged_in_client(bob)
    client.cookies["django_language"] = "en"
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert "s behind (spectator delay)" in html and 'id="board" class="board in-hand' not in html
    seated = logged_in_client(User.objects.get(username="east"))
    assert "spectator delay" not in seated.get(f"/tables/{table.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_a_spectator_is_behind_and_a_player_live(bob: User) -> None:
    table = await sync_to_async(quick_table)()
    east = await sync_to_async(User.objects.get)(username="east")
    player = await open_socket(table.pk, east)
    spectator = await open_socket(table.pk, bob)
    live, delayed = await receive(player), await receive(spectator)
    assert live["view"]["hand"] is not None and "delay_s" not in live["view"]["table"]
    assert delayed["view"]["hand"] is None and delayed["view"]["table"]["delay_s"] == 180
    assert delayed["version"] == 0  # the delayed frame's own count: no hand shown yet
    await sync_to_async(commands.set_auto)(table.pk, east, True)  # a live change
    assert await spectator.receive_nothing(timeout=0.5)  # still three minutes behind: nothing new
    await spectator.send_json_to({"type": "sync"})
    frame = await receive(spectator)
    assert frame["view"]["hand"] is None and frame["version"] == 0
    await player.disconnect()
    await spectator.disconnect()


def _finished_quick_table() -> tuple[Table, Hand]:
    table = quick_table()
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.status == "over")
    return table, Hand.objects.get(table=table)


@pytest.mark.django_db
def test_a_delayed_frame_never_makes_a_past_seat_the_viewers() -> None:
    """East played the hand shown: seen from behind the delay it is still nobody's seat — no
    "you", no side of the board to see it from, no tile of theirs face up."""
    table, hand = _finished_quick_table()
    east = User.objects.get(username="east")
    start = timezone.now() - timedelta(hours=1)
    spread_log(hand, start)
    ended = start + timedelta(seconds=hand.actions_count + 1)
    Hand.objects.filter(pk=hand.pk).update(ended=ended)
    mid_hand, settled = start + timedelta(seconds=185.5), ended + timedelta(seconds=181)
    for now in (mid_hand, settled):
        context = delayed_context(table.pk, east, 180, now).context
        assert context["viewer"] == {"user": "east", "seat": None} and context["played"] is None
        assert not any(seat.get("is_you") for seat in context["table"]["seats"])
        assert board_model(context)["me"] is None
    context = delayed_context(table.pk, east, 180, mid_hand).context
    assert context["table"]["phase"] == "playing"
    assert_public_only(context)  # (a hand played to its end shows every hand to everybody)


@pytest.mark.django_db
def test_a_player_stood_up_between_hands_watches_live(bob: User) -> None:
    """Whoever played the table's newest match sees it live once stood up (the hands were theirs);
    anybody else is still behind."""
    table, _hand = _finished_quick_table()
    east = User.objects.get(username="east")
    commands.leave(table.pk, east)
    live = table_context(table.pk, east)
    assert live["viewer"]["seat"] is None
    assert watches_live(table.pk, east) and for_viewer(table.pk, east, live) is live
    assert not watches_live(table.pk, bob)
    assert for_viewer(table.pk, bob, table_context(table.pk, bob))["table"]["delay_s"] == 180
