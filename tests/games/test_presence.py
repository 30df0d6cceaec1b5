"""Sockets of a dead server process stop counting (games.sockets.presence, the OpenSocket rows)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from games.clock.ticks import drive_table_until_idle
from games.models import HandAction, Seat, Table
from games.sockets import frames, presence, watchers
from games.sockets.models import OpenSocket, ServerProcess
from games.table import commands, timers
from games.table import presence as table_presence
from tests.games.conftest import bot_table, two_seated
from tests.games.test_consumers import open_socket, receive
from tests.games.test_services import table_at_a_claim

pytestmark = pytest.mark.django_db

STALE = timedelta(seconds=presence.STALE_SECONDS + 1)


def process(seen_ago: timedelta = timedelta(0)) -> int:
    now = timezone.now()
    return ServerProcess.objects.create(host="test 1", started=now - seen_ago, seen=now - seen_ago).pk


def seat_of(table: Table, index: int) -> Seat:
    return Seat.objects.get(table=table, index=index)


def spectators(table: Table) -> int:
    return Table.objects.get(pk=table.pk).spectators


def test_a_socket_is_counted_with_a_row_and_uncounted_once(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    mine = process()
    connection = table_presence.connect(table.pk, alice, mine)
    row = OpenSocket.objects.get(pk=connection.socket_id)
    assert (row.process_id, row.table_id, row.user_id, row.seated) == (mine, table.pk, alice.pk, True)
    assert seat_of(table, 0).connections == 1
    table_presence.disconnect(table.pk, alice, True, connection.socket_id)
    assert seat_of(table, 0).connections == 0 and not OpenSocket.objects.exists()
    table_presence.disconnect(table.pk, alice, True, connection.socket_id)  # replayed: nothing to count
    assert seat_of(table, 0).connections == 0


def test_the_sockets_of_a_process_not_seen_are_dropped_as_of_its_last_heartbeat(
    alice: User, bob: User
) -> None:
    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    dead, alive = process(seen_ago=STALE), process()
    gone = table_presence.connect(table.pk, alice, dead)  # alice's only socket, on the dead process
    table_presence.connect(table.pk, bob, dead)
    table_presence.connect(table.pk, bob, alive)  # bob has another tab
    table_presence.connect(table.pk, None, dead)  # a spectator
    assert spectators(table) == 1
    assert presence.reap() == 3
    last_seen = timezone.now() - STALE
    alice_seat, bob_seat = seat_of(table, 0), seat_of(table, 1)
    assert alice_seat.connections == 0 and not alice_seat.connected
    assert alice_seat.disconnected_at is not None and abs(alice_seat.disconnected_at - last_seen) < timedelta(
        seconds=2
    )
    assert bob_seat.connections == 1 and bob_seat.disconnected_at is None
    assert spectators(table) == 0
    assert alice_seat.server_cut and not bob_seat.server_cut  # the dead server's doing, hers alone
    assert list(ServerProcess.objects.values_list("pk", flat=True)) == [alive]
    assert list(OpenSocket.objects.values_list("process_id", flat=True)) == [alive]
    table_presence.disconnect(table.pk, alice, True, gone.socket_id)  # the dead process's late word
    assert seat_of(table, 0).connections == 0


def test_nobody_is_given_up_when_every_process_is_as_old(alice: User, bob: User) -> None:
    """A database or clock that stalled makes every heartbeat old at once: that is no death."""
    table = two_seated(alice, bob)
    first, second = process(seen_ago=STALE), process(seen_ago=STALE)
    table_presence.connect(table.pk, alice, first)
    table_presence.connect(table.pk, bob, second)
    assert presence.reap() == 0
    assert ServerProcess.objects.count() == 2 and seat_of(table, 0).connections == 1


def test_an_orphan_socket_is_dropped_once_its_process_is_gone_long_enough(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    process()  # someone alive
    orphan = table_presence.connect(table.pk, alice, 999_999)  # its process row was deleted meanwhile
    assert presence.reap() == 0  # just opened: its process may still close it
    OpenSocket.objects.filter(pk=orphan.socket_id).update(opened=timezone.now() - STALE)
    assert presence.reap() == 1
    assert seat_of(table, 0).connections == 0


def test_heartbeat_registers_beats_and_tells_when_it_was_given_up() -> None:
    assert presence.registered() is None
    assert presence.heartbeat() is True  # first registration
    first = presence.registered()
    assert first is not None and ServerProcess.objects.filter(pk=first).exists()
    assert presence.heartbeat() is True and presence.registered() == first
    ServerProcess.objects.filter(pk=first).delete()  # the clock gave it up
    assert presence.heartbeat() is False
    assert presence.registered() not in (None, first)


@pytest.mark.django_db(transaction=True)
def test_sockets_connecting_at_once_to_an_idle_process_register_it_once() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    def beat() -> bool:
        try:
            return presence.heartbeat()
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(lambda _: beat(), range(16)))
    assert list(ServerProcess.objects.values_list("pk", flat=True)) == [presence.registered()]


def test_a_dropped_socket_moving_or_sitting_counts_nothing(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai", bots=2)
    spectator = table_presence.connect(table.pk, bob, process())
    OpenSocket.objects.filter(pk=spectator.socket_id).delete()  # dropped by the clock
    free = next(s.index for s in Table.objects.get(pk=table.pk).seats.all() if s.empty)
    commands.sit(table.pk, bob, free, spectator.socket_id)
    assert seat_of(table, free).connections == 0  # the socket counts nowhere now
    assert table_presence.move_presence(table.pk, bob, False, spectator.socket_id) is False


def test_sitting_down_over_a_socket_moves_its_row_to_the_seat(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai", bots=2)
    spectator = table_presence.connect(table.pk, bob, process())
    free = next(s.index for s in Table.objects.get(pk=table.pk).seats.all() if s.empty)
    commands.sit(table.pk, bob, free, spectator.socket_id)
    assert OpenSocket.objects.get(pk=spectator.socket_id).seated
    assert seat_of(table, free).connections == 1 and spectators(table) == 0
    presence.reap(timezone.now() + timedelta(hours=1))  # no fresher process: nothing is given up
    assert seat_of(table, free).connections == 1


@pytest.mark.django_db(transaction=True)
async def test_a_process_given_up_closes_its_sockets_so_they_come_back(alice: User) -> None:
    table = await sync_to_async(bot_table)(alice, "shanghai")
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    mine = presence.registered()
    row: Any = await sync_to_async(lambda: OpenSocket.objects.get(process_id=mine))()
    assert row.user_id == alice.pk and row.seated
    await sync_to_async(lambda: ServerProcess.objects.filter(pk=mine).delete())()  # given up…
    await sync_to_async(table_presence.drop_socket)(row, timezone.now())  # …and its socket dropped
    await watchers.WATCHER.heartbeat()
    closed = await comm.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await comm.receive_output(timeout=5)
    assert closed["code"] == frames.CLOSE_SERVICE_RESTART
    await comm.wait()
    seat = await sync_to_async(lambda: Seat.objects.get(table=table, index=0))()
    assert seat.connections == 0  # the disconnect after the drop counted nothing more
    assert not await sync_to_async(lambda: OpenSocket.objects.exists())()


def _escaped_or_over(user: User) -> Any:
    from games.models import Hand
    from games.moderation.models import Penalty

    def done(table: Table) -> bool:
        over = table.hand is not None and table.hand.status == Hand.Status.OVER
        return over or Penalty.objects.filter(user=user).exists()

    return done


def test_an_idle_process_given_up_clears_nobodys_blame(alice: User, bob: User) -> None:
    """Alice drops her socket on a live process and stays away; another process
    with no sockets at all is given up meanwhile. That is not her server's doing: past the grace
    her absence is an escape, charged as on a busy machine."""
    from games.moderation.models import Penalty

    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    alive = process()
    mine = table_presence.connect(table.pk, alice, alive)
    table_presence.connect(table.pk, bob, alive)
    process(seen_ago=STALE)  # an idle process, given up below
    table_presence.disconnect(table.pk, alice, True, mine.socket_id)
    assert presence.reap() == 0  # it held no socket
    drive_table_until_idle(table.pk, until=_escaped_or_over(alice))
    assert Penalty.objects.filter(user=alice, reason=Penalty.Reason.DISCONNECT).exists()


def test_a_seat_cut_off_by_its_dead_process_is_not_blamed(alice: User, bob: User) -> None:
    """Only the sockets of the process that died are cleared: alice's was on it."""
    from games.moderation.models import Penalty

    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    dead, alive = process(seen_ago=STALE), process()
    table_presence.connect(table.pk, alice, dead)
    table_presence.connect(table.pk, bob, alive)
    assert presence.reap() == 1
    assert seat_of(table, 0).server_cut
    drive_table_until_idle(table.pk, until=lambda t: seat_of(t, 0).left or _escaped_or_over(alice)(t))
    assert seat_of(table, 0).left  # played to the end of the hand by the server…
    assert not Penalty.objects.filter(user=alice).exists()  # …without penalty or ban


@pytest.mark.django_db(transaction=True)
async def test_a_process_keeps_beating_after_its_last_socket_closed(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An idle process is alive: it keeps its heartbeat, so it is never given up
    (and nobody's disconnect is excused) for having no sockets."""
    import asyncio

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(watchers.WATCHER, "sockets", {})  # no socket left open by another test
    monkeypatch.setattr(watchers.WATCHER, "task", None)
    table = await sync_to_async(bot_table)(alice, "shanghai")
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    await comm.disconnect()
    mine = presence.registered()
    old = timezone.now() - STALE
    await sync_to_async(lambda: ServerProcess.objects.filter(pk=mine).update(seen=old))()
    for _ in range(100):
        await asyncio.sleep(0.05)
        seen = await sync_to_async(lambda: ServerProcess.objects.get(pk=mine).seen)()
        if seen > old:
            break
    assert seen > old


def test_a_held_claim_survives_its_socket_s_process_dying(alice: User) -> None:
    """A claim confirmed to its player is held in the database (the seat's `pending`),
    not by the socket or its process: the process dying and the clock dropping its sockets
    leaves it to be committed, as the player's own action, when its undo window ends."""
    dead = process()
    table, claim, now = table_at_a_claim(alice, dead)
    commands.perform(table.pk, alice, table.version, claim.to_json(), now)  # confirmed: held
    assert seat_of(table, 0).pending == claim.to_json()
    ServerProcess.objects.filter(pk=dead).update(seen=timezone.now() - STALE)
    process()  # a live one: the dead process is the stale one
    assert presence.reap() == 1
    assert seat_of(table, 0).pending == claim.to_json() and not seat_of(table, 0).connected
    table.refresh_from_db()
    timers.timeout(table.pk, table.revision, now + timedelta(seconds=2))
    last = HandAction.objects.filter(hand=table.hand, seat=0).order_by("-seq").first()
    assert last is not None and last.action == claim.to_json() and last.actor == "human"
