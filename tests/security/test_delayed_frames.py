"""A delayed spectator's frames carry nothing live: not the table's live version (it moves at each
live action, so its changes time the live game), not today's empty seats, connections, ranks or
stake chips, and not the moments of answers inside a claim window."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from common import caches
from games.clock.ticks import drive_table_until_idle
from games.engine.actions import PASS, apply, legal_actions, new_hand, seats_to_act
from games.matchmaking import queue
from games.models import Hand, HandAction, HandCheckpoint, Seat, Table
from games.moderation.models import SiteSettings
from games.rendering.spectator_delay import delayed_context
from games.social import chat
from games.table import commands
from tests.conftest import logged_in_client, make_user
from tests.games.test_consumers import open_socket, receive
from tests.games.test_spectator_delay import play_some, quick_table, spread_log


def at(hand: Hand, action: float) -> timezone.datetime:
    """The moment, 180 s later, a spectator is shown the log as it stood after `action` (spread_log)."""
    return hand.started + timedelta(seconds=180 + action + 0.5)


@pytest.mark.django_db
def test_the_delayed_version_does_not_move_with_live_actions(bob: User) -> None:
    table = quick_table()
    hand = play_some(table, 10)
    spread_log(hand, timezone.now() - timedelta(hours=1))
    hand.refresh_from_db()
    before = delayed_context(table.pk, bob, 180, at(hand, 4)).context
    live_before = Table.objects.get(pk=table.pk).version
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None and t.hand.actions_count >= 20)
    assert Table.objects.get(pk=table.pk).version > live_before  # the live table moved on
    after = delayed_context(table.pk, bob, 180, at(hand, 4)).context
    assert after["table"]["version"] == before["table"]["version"]
    assert after["view"] == before["view"]


@pytest.mark.django_db
def test_the_delayed_seats_are_the_hands_players_without_live_chips(bob: User) -> None:
    table = quick_table()
    hand = play_some(table, 6)
    spread_log(hand, timezone.now() - timedelta(hours=1))
    hand.refresh_from_db()
    # live: west has gone (an empty seat), east is 托管 and disconnected
    Seat.objects.filter(table=table, user__username="west").update(user=None)
    Seat.objects.filter(table=table, user__username="east").update(auto=True, connections=0)
    context = delayed_context(table.pk, bob, 180, at(hand, 3)).context
    seats = context["table"]["seats"]
    assert sorted(s["name"] for s in seats) == ["east", "west"]
    assert all(s["rank"] is None and s["balance"] is None for s in seats)
    assert not any(s["auto"] for s in seats) and all(s["connected"] for s in seats)
    assert context["legal"] == []  # no "Sit here" on the past
    assert context["table"]["base"] == hand.setup["base"] and context["table"]["stake_state"] == "fixed"
    assert context["table"]["phase"] == "playing"


def quick_four() -> Table:
    for name in ("n1", "n2", "n3", "n4"):
        queue.join(make_user(name), "shanghai", "bronze")
    return Table.objects.get(quick_match__isnull=False)


def log_with_a_shared_window(hand: Hand, limit: int = 400) -> list[int]:
    """Rewrite the hand's log (1 s apart, as spread_log) with discards chosen so that a window
    two seats may answer opens, one of them passes (the window stays open) and then the other;
    the seqs of the answers after which the window stayed open."""
    state = new_hand("shanghai", hand.seed, **hand.setup)
    rows, quiet = [], []
    while state.phase != "over" and len(rows) < limit and not quiet:
        seat = state.turn
        options = [a for a in legal_actions(state, seat) if a.type == "discard"]
        for action in options:
            after, _ = apply(state, seat, action)
            if after.phase == "claim" and len(seats_to_act(after)) >= 2:
                break
        else:
            action = options[0]
        state, _ = apply(state, seat, action)
        rows.append((seat, action))
        while state.phase == "claim":
            answering = seats_to_act(state)[0]
            state, _ = apply(state, answering, PASS)
            rows.append((answering, PASS))
            if state.phase == "claim":
                quiet.append(len(rows))
    assert quiet, "no discard in the whole deal opened a window for two seats"
    HandAction.objects.filter(hand=hand).delete()
    HandCheckpoint.objects.filter(hand=hand).delete()
    start = timezone.now() - timedelta(hours=1)
    HandAction.objects.bulk_create(
        HandAction(hand=hand, seq=n, seat=seat, action=a.to_json(), actor="auto")
        for n, (seat, a) in enumerate(rows, 1)
    )
    Hand.objects.filter(pk=hand.pk).update(actions_count=len(rows), status="playing", ended=None)
    spread_log(hand, start)
    caches.clear_all()
    return quiet


@pytest.mark.django_db
def test_an_answer_inside_a_claim_window_is_no_new_delayed_version(bob: User) -> None:
    table = quick_four()
    drive_table_until_idle(table.pk, until=lambda t: t.hand is not None)
    hand = Hand.objects.get(table=table)
    quiet = log_with_a_shared_window(hand)
    hand.refresh_from_db()

    def version(seq: int) -> int:
        return delayed_context(table.pk, bob, 180, at(hand, seq)).context["table"]["version"]

    for seq in quiet:
        assert version(seq) == version(seq - 1)  # a pass that leaves the window open: unseen
    assert version(quiet[0] - 1) > version(quiet[0] - 2)  # the discard that opened it: seen
    assert version(quiet[0] + 1) > version(quiet[0])  # the pass that closed it: seen


@pytest.mark.django_db(transaction=True)
async def test_a_live_change_sends_a_delayed_spectator_no_frame(bob: User) -> None:
    table = await sync_to_async(quick_table)()
    east = await sync_to_async(User.objects.get)(username="east")
    spectator = await open_socket(table.pk, bob)
    first = await receive(spectator)
    assert first["view"]["table"]["delay_s"] == 180
    await sync_to_async(commands.set_auto)(table.pk, east, True)  # a live change
    assert await spectator.receive_nothing(timeout=1)  # its moment is not told
    await spectator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_chat_reaches_a_delayed_spectator_only_after_the_delay(bob: User) -> None:
    table = await sync_to_async(quick_table)()
    await sync_to_async(SiteSettings.objects.create)(spectator_delay_seconds=2)
    east = await sync_to_async(User.objects.get)(username="east")
    player = await open_socket(table.pk, east)
    spectator = await open_socket(table.pk, bob)
    await receive(player), await receive(spectator)
    await sync_to_async(chat.say)(table.pk, east, phrase="hello")
    assert (await receive(player))["type"] == "chat"  # the players' chat is live
    assert await spectator.receive_nothing(timeout=0.5)  # the board the spectator sees is behind
    line = await receive(spectator)  # the socket holds it until the delay has passed
    while line["type"] == "state":  # (the first hand comes due meanwhile)
        line = await receive(spectator)
    assert line["type"] == "chat" and line["phrase"] == "hello"
    await player.disconnect()
    await spectator.disconnect()


@pytest.mark.django_db
def test_the_table_page_of_a_delayed_spectator_shows_only_old_chat(bob: User) -> None:
    table = quick_table()
    east = User.objects.get(username="east")
    old = chat.say(table.pk, east, phrase="thanks", now=timezone.now() - timedelta(seconds=200))
    new = chat.say(table.pk, east, phrase="sorry")
    old_line, new_line = f'data-chat="{old["id"]}"', f'data-chat="{new["id"]}"'
    spectator_page = logged_in_client(bob).get(f"/tables/{table.pk}/").content.decode()
    assert old_line in spectator_page and new_line not in spectator_page
    player_page = logged_in_client(east).get(f"/tables/{table.pk}/").content.decode()
    assert old_line in player_page and new_line in player_page
