"""The table socket (JSON and HTMX dialects) with WebsocketCommunicator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from accounts.services import create_api_token
from games.clock.ticks import drive_table_until_idle
from games.engine.actions import Action, apply
from games.engine.view import view_for
from games.models import Seat, Table
from games.sockets import frames, watchers
from games.sockets.routing import websocket_urlpatterns
from games.sockets.table import TableConsumer
from games.table import commands, opening, presence, snapshots, store, timers, timing, travel
from games.table import commands as table_commands
from tests.conftest import make_user
from tests.games.conftest import bot_table, snapshot, state_of
from tests.games.test_services import alices_turn

pytestmark = pytest.mark.django_db(transaction=True)

APP = URLRouter(websocket_urlpatterns)


async def open_socket(table_id: int, user: Any = None, query: str = "format=json") -> WebsocketCommunicator:
    """A socket as `user` (scope user, like the session middleware sets) in JSON mode."""
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table_id}/?{query}")
    comm.scope["user"] = user or AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive(comm: WebsocketCommunicator) -> dict[str, Any]:
    return json.loads(await comm.receive_from(timeout=5))


async def answer_to(comm: WebsocketCommunicator, act_id: str | int) -> dict[str, Any]:
    """The state an act made, named by its `reply_to`. The table's announcement of that change
    may reach the socket while the act is still being answered (games.sockets.fanout): the
    state then goes out unnamed and an `ack` with the act's id follows it."""
    state = None
    while True:
        frame = await receive(comm)
        if frame["type"] == "state":
            state = frame
        if frame.get("reply_to") == act_id:
            break
    if frame["type"] == "ack":
        assert state is not None and state["version"] == frame["version"]
        return {**state, "reply_to": act_id}
    return frame


async def latest_state(comm: WebsocketCommunicator) -> dict[str, Any]:
    """Drain the socket; the last state frame it sent."""
    last = None
    while not await comm.receive_nothing(timeout=0.2):
        frame = await receive(comm)
        if frame["type"] == "state":
            last = frame
    assert last is not None
    return last


async def expect_error(comm: WebsocketCommunicator, code: str) -> None:
    frame = await receive(comm)
    assert frame["type"] == "error" and frame["code"] == code, frame


async def setup_table(owner: User, variant: str = "shanghai", bots: int | None = None) -> Table:
    return await sync_to_async(bot_table)(owner, variant, 2, bots)


async def test_connect_sends_the_full_state(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["version"] == frame["view"]["table"]["version"]
    assert frame["view"]["phase"] == "waiting"
    assert frame["view"]["viewer"] == {"user": "alice", "seat": 0}
    assert {"type": "start"} in frame["legal"]
    await comm.disconnect()


async def test_play_start_and_act_over_the_socket(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    await comm.send_json_to({"type": "act", "version": frame["version"], "action": {"type": "start"}})
    frame = await latest_state(comm)
    assert frame["view"]["phase"] == "playing" and frame["view"]["hand"]["me"] == 0
    await comm.disconnect()


async def test_an_act_with_an_id_is_answered_by_one_frame_that_names_it(alice: User) -> None:
    """JSON clients may tag an act with `id`: its answer (the state it made, an `ack` when
    that state went out already, or the error) carries `reply_to` — no ping needed to know."""

    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    await comm.send_json_to(
        {"type": "act", "version": frame["version"] - 1, "action": {"type": "start"}, "id": 7}
    )
    refused = await receive(comm)
    assert refused["type"] == "error" and refused["code"] == "stale_version" and refused["reply_to"] == 7
    assert "reply_to" not in await receive(comm)  # the fresh state that follows answers nothing
    await comm.send_json_to(
        {"type": "act", "version": frame["version"], "action": {"type": "start"}, "id": "s-1"}
    )
    started = await answer_to(comm, "s-1")
    assert started["type"] == "state" and started["reply_to"] == "s-1"
    assert started["version"] == frame["version"] + 1 and started["view"]["phase"] == "playing"
    assert frames.reply_id(True) is None and frames.reply_id("x" * 65) is None
    assert frames.reply_id(2**60) is None and frames.reply_id([1]) is None
    await comm.disconnect()


async def test_an_act_whose_state_went_out_already_is_acknowledged(alice: User) -> None:

    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    consumer_sent = TableConsumer.send_state

    async def announced_first(self: Any, *args: Any, **kwargs: Any) -> bool:
        if kwargs.get("reply_to") is not None:  # the announcement won the race: already shown
            await consumer_sent(self, context=kwargs.get("context"))
        return await consumer_sent(self, *args, **kwargs)

    TableConsumer.send_state = announced_first  # type: ignore[method-assign]
    try:
        await comm.send_json_to(
            {"type": "act", "version": frame["version"], "action": {"type": "start"}, "id": 3}
        )
        announced = await receive(comm)
        ack = await receive(comm)
    finally:
        TableConsumer.send_state = consumer_sent  # type: ignore[method-assign]
    assert announced["type"] == "state" and "reply_to" not in announced
    assert ack == {"type": "ack", "reply_to": 3, "version": frame["version"] + 1}
    await comm.disconnect()


async def test_spectator_and_anonymous_may_not_act(alice: User, bob: User) -> None:
    table = await setup_table(alice)
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    for who in (bob, None):
        comm = await open_socket(table.pk, who)
        frame = await receive(comm)
        assert frame["legal"] == [] and frame["view"]["viewer"]["seat"] is None
        before = await sync_to_async(snapshot)(table.pk)
        await comm.send_json_to({"type": "act", "version": frame["version"], "action": {"type": "pass"}})
        await expect_error(comm, "not_seated" if who else "login_required")
        assert await sync_to_async(snapshot)(table.pk) == before
        await comm.disconnect()


BAD_FRAMES = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "act", "version": 0, "action": {"type": "fly"}}', "stale_version"),
]


@pytest.mark.parametrize(("text", "code"), BAD_FRAMES)
async def test_bad_frames_get_errors_and_change_nothing(alice: User, text: str, code: str) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    before = await sync_to_async(snapshot)(table.pk)
    await comm.send_to(text_data=text)
    await expect_error(comm, code)
    assert await sync_to_async(snapshot)(table.pk) == before
    await comm.disconnect()


async def test_unknown_and_illegal_actions(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    before = await sync_to_async(snapshot)(table.pk)
    for action, code in [
        ({"type": "fly"}, "bad_action"),
        ({"type": "discard", "tile": "1m"}, "no_hand"),
        ({"type": "remove_bot", "seat": 0}, "not_a_bot"),
        ({"type": "sit", "seat": 1}, "already_seated"),
        ("start", "bad_action"),
    ]:
        await comm.send_json_to({"type": "act", "version": frame["version"], "action": action})
        await expect_error(comm, code)
    assert await sync_to_async(snapshot)(table.pk) == before
    await comm.disconnect()


async def test_stale_version_gets_an_error_and_the_full_state(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    await comm.send_json_to({"type": "act", "version": frame["version"] - 1, "action": {"type": "start"}})
    await expect_error(comm, "stale_version")
    again = await receive(comm)
    assert again["type"] == "state" and again["version"] == frame["version"]


async def test_sync_resends_the_state(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    first = await receive(comm)
    await comm.send_json_to({"type": "sync"})
    assert await receive(comm) == first
    await comm.disconnect()


async def test_oversized_frame_closes_the_socket(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    before = await sync_to_async(snapshot)(table.pk)
    await comm.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * 5000}))
    await expect_error(comm, "too_big")
    assert (await comm.receive_output(timeout=2))["code"] == frames.CLOSE_TOO_BIG
    assert await sync_to_async(snapshot)(table.pk) == before


async def test_flood_is_rate_limited_then_closed(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    for _ in range(frames.BURST + frames.MAX_REFUSED + 5):
        await comm.send_to(text_data='{"type": "ping"}')
    codes = []
    while True:
        out = await comm.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            assert out["code"] == frames.CLOSE_FLOOD
            break
        codes.append(json.loads(out["text"]).get("code"))
    assert "rate_limited" in codes


async def test_bad_token_is_refused(alice: User) -> None:
    table = await setup_table(alice)
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/?token=nope")
    comm.scope["user"] = AnonymousUser()
    await comm.connect()
    await expect_error(comm, "bad_token")
    assert (await comm.receive_output(timeout=2))["code"] == frames.CLOSE_BAD_TOKEN


async def test_token_login_is_json_and_seated(alice: User) -> None:
    table = await setup_table(alice)
    token = await sync_to_async(create_api_token)(alice)
    comm = await open_socket(table.pk, None, f"token={token}")
    frame = await receive(comm)
    assert frame["view"]["viewer"] == {"user": "alice", "seat": 0}
    await comm.disconnect()


async def test_no_table_and_private_table(alice: User, bob: User) -> None:
    comm = WebsocketCommunicator(APP, "/ws/tables/999999/?format=json")
    comm.scope["user"] = alice
    await comm.connect()
    await expect_error(comm, "no_table")
    table = await sync_to_async(opening.create_table)(alice, "shanghai", public=False)
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/?format=json")
    comm.scope["user"] = bob
    await comm.connect()
    await expect_error(comm, "no_table")
    comm = await open_socket(table.pk, bob, f"format=json&invite={table.invite_token}")
    assert (await receive(comm))["type"] == "state"
    await comm.disconnect()


async def test_frames_wait_until_the_connect_has_admitted_the_socket() -> None:
    """The socket joins its table's group before its connect decides who may watch (so no
    version is missed): until then no table frame or chat line reaches it; the newest version
    announced meanwhile is remembered and sent once it is admitted."""
    socket = TableConsumer()
    socket.table_id, socket.counted, socket.missed, socket.sent_version = 1, False, -1, -1
    sent: list[Any] = []

    async def record(*args: Any, **kwargs: Any) -> None:
        sent.append((args, kwargs))

    socket.send = record  # type: ignore[method-assign]
    socket.send_json = record  # type: ignore[method-assign]
    await socket.table_changed({"type": "table.changed", "version": 7})
    await socket.chat_message({"type": "chat.message", "message": {"text": "hello", "from_id": 1}})
    assert sent == [] and socket.missed == 7


async def test_a_change_announced_bare_by_another_process_is_read_and_its_changes_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A version this process has no snapshot of, announced without one (the process that made
    it thought nobody else watched): the socket renders it from the database, as it always
    could, and asks the table's group for its changes — once, however many such versions come."""
    snapshots.forget()
    socket = TableConsumer()
    socket.table_id, socket.counted, socket.admitting, socket.missed, socket.sent_version = (
        41,
        True,
        False,
        -1,
        -1,
    )
    rendered: list[Any] = []
    asked: list[tuple[str, dict[str, Any]]] = []

    async def render(ctx: Any, snapshot: Any) -> bool:
        rendered.append((ctx, snapshot))
        return True

    socket._send_loaded = render  # type: ignore[method-assign]
    monkeypatch.setattr(travel.broadcaster, "send", lambda group, message: asked.append((group, message)))
    await socket.table_changed({"type": "table.changed", "version": 7})
    await socket.table_changed({"type": "table.changed", "version": 8})
    assert rendered == [(None, None), (None, None)]  # (no snapshot: the frame is read from the database)
    assert asked == [("table-41", travel.wanted_message(41))]


async def test_htmx_message_is_routed_and_answered_with_html(alice: User) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice, "")
    html = await comm.receive_from(timeout=5)
    assert 'id="board"' in html
    version = (await sync_to_async(Table.objects.get)(pk=table.pk)).version
    await comm.send_json_to(
        {"type": "act", "version": version, "action": '{"type":"start"}', "HEADERS": {"HX-Request": "true"}}
    )
    html = await comm.receive_from(timeout=5)
    assert "hx-swap-oob" in html
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == "playing"
    await comm.disconnect()


async def test_change_is_broadcast_to_every_viewer(alice: User, bob: User) -> None:
    table = await setup_table(alice)
    watcher = await open_socket(table.pk, bob)
    await receive(watcher)
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    frame = await latest_state(watcher)
    assert frame["view"]["phase"] == "playing"
    await watcher.disconnect()


async def test_disconnect_and_reconnect_gets_the_exact_view(alice: User) -> None:
    table = await setup_table(alice)
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    comm = await open_socket(table.pk, alice)
    first = await receive(comm)
    await comm.disconnect()
    seat = await sync_to_async(lambda: table.seats.get(index=0))()
    assert seat.connections == 0 and seat.disconnected_at is not None
    comm = await open_socket(table.pk, alice)
    again = await receive(comm)
    assert again["view"]["hand"] == first["view"]["hand"] and again["legal"] == first["legal"]
    assert again["version"] == first["version"] + 2  # the disconnect and the reconnect
    await comm.disconnect()


def step(table_id: int) -> tuple[int, list[list[str]] | None]:
    """Advance the fake clock to the table's next deadline: the version and the true concealed hands."""
    table = Table.objects.get(pk=table_id)
    if table.deadline is not None:
        timers.timeout(table_id, table.deadline_version, table.deadline)
    # the version the sockets show now (changes only the seats in a claim window see show none)
    version = timing.shown_version(store.load(Table.objects.get(pk=table_id)))
    state = state_of(table_id)
    if state is None:
        return version, None
    return version, [view_for(state, seat)["seats"][seat]["hand"] for seat in range(state.num_players)]


async def state_at(comm: WebsocketCommunicator, version: int) -> dict[str, Any]:
    """The state frame of `version` (frames of earlier versions are skipped)."""
    while True:
        frame = await receive(comm)
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


def check_frame(frame: dict[str, Any], seat: int | None, true_hands: list[list[str]]) -> None:
    hand = frame["view"]["hand"]
    text = json.dumps(frame)
    for entry in hand["seats"]:
        if entry["seat"] == seat:
            continue
        assert "hand" not in entry and "drawn" not in entry, (seat, entry)
        # nor anywhere else in the frame, in any form
        assert json.dumps(true_hands[entry["seat"]]) not in text


async def test_no_frame_shows_another_seats_concealed_tiles(alice: User) -> None:
    bob = await sync_to_async(make_user)("bobby")
    carol = await sync_to_async(make_user)("carolyn")
    table = await setup_table(alice, "shanghai", bots=2)
    await sync_to_async(table_commands.sit)(table.pk, bob, 3)
    await sync_to_async(table_commands.accept_stake)(table.pk, bob)
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    sockets = {0: await open_socket(table.pk, alice), 3: await open_socket(table.pk, bob)}
    sockets[None] = await open_socket(table.pk, carol)
    checked, shown = 0, -1
    for _ in range(60):
        version, true_hands = await sync_to_async(step)(table.pk)
        if true_hands is None:
            break
        if version == shown:
            continue  # nothing everybody sees changed (a pass in a claim window): no frame
        shown = version
        for seat, comm in sockets.items():
            frame = await state_at(comm, version)
            if frame["view"]["hand"]["phase"] == "over":
                continue
            check_frame(frame, seat, true_hands)
            if seat is not None and not frame["view"]["table"]["paused"]:
                assert frame["view"]["hand"]["seats"][seat]["hand"] == true_hands[seat]
            checked += 1
    assert checked > 40
    for comm in sockets.values():
        await comm.disconnect()


async def test_the_end_of_a_pause_is_sent_only_to_the_seat_to_play(alice: User) -> None:
    """Nothing is written when the pause after a discard ends: the socket of the seat play moved
    on to renders the table again once it has passed, unpaused, with the version the discard
    counted for it (its draw, its moves). Nobody else is sent that frame, window or none
    (docs/protocol.md, "Claim windows"): their clients count the pause down, and an act with
    the paused version counts as one with the next."""
    bob = await sync_to_async(make_user)("bobby")
    table = await sync_to_async(bot_table)(alice, "shanghai", 2, 0)
    await sync_to_async(table_commands.sit)(table.pk, bob, 1)  # the seat after alice's
    await sync_to_async(table_commands.accept_stake)(table.pk, bob)
    for index in (2, 3):
        await sync_to_async(table_commands.add_bot)(table.pk, alice, index)
    await sync_to_async(lambda: Table.objects.filter(pk=table.pk).update(min_pause_ms=300))()
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    await sync_to_async(presence.connect)(table.pk, alice)  # so the fake clock waits for her turn
    await sync_to_async(drive_table_until_idle)(table.pk, None, alices_turn)
    # the fake clock ran ahead of the real one: let the last pause be over now
    await sync_to_async(lambda: Table.objects.filter(pk=table.pk).update(pause_until=None))()
    snapshots.forget(table.pk)  # that write bypassed the services (no new version): read it afresh
    comm, other = await open_socket(table.pk, alice), await open_socket(table.pk, bob)
    watcher, gone = await open_socket(table.pk), await open_socket(table.pk)  # two spectators
    first = await latest_state(comm)  # (bob's arrival is a version of its own)
    for socket in (other, watcher, gone):
        await latest_state(socket)
    # a discard nobody may claim: a claim window would keep bob veiled until it closes, and no
    # clock runs here to close it (the pause alone is what this test is about)
    state = await sync_to_async(state_of)(table.pk)
    discard = next(a for a in first["legal"] if a["type"] == "discard" and not opens_a_window(state, a))
    await comm.send_json_to({"type": "act", "version": first["version"], "action": discard})
    paused = await state_at(comm, first["version"] + 1)
    assert paused["view"]["table"]["paused"] and 0 < paused["view"]["table"]["pause_ms"] <= 300
    assert not any(a["type"] == "discard" for a in paused["legal"])
    for socket in (other, watcher, gone):
        assert (await state_at(socket, paused["version"]))["view"]["table"]["paused"]
    await gone.disconnect()  # closed during the pause: nothing more is rendered for it
    written = await sync_to_async(lambda: Table.objects.get(pk=table.pk).revision)()
    after = await receive(other)  # bob's draw
    assert after["type"] == "state" and after["version"] == paused["version"] + 1
    assert not after["view"]["table"]["paused"] and after["view"]["table"]["pause_ms"] is None
    assert any(a["type"] == "discard" for a in after["legal"]) and after["view"]["table"]["deadline_ms"]
    # the same timer rendered nothing for alice and the spectator: their boards stay paused
    assert await comm.receive_nothing(timeout=0.3) and await watcher.receive_nothing(timeout=0.1)
    table = await sync_to_async(lambda: Table.objects.get(pk=table.pk))()
    assert (table.version, table.revision) == (after["version"], written)
    assert not watchers.PAUSE_ENDS.pending
    # alice acts on what she was sent: the paused version stands for the one play moved on to
    act = {"type": "act", "version": paused["version"], "action": {"type": "auto", "on": True}, "id": 1}
    await comm.send_json_to(act)
    answer = await answer_to(comm, 1)
    assert answer["type"] == "state" and answer["reply_to"] == 1 and answer["version"] == after["version"] + 1
    for socket in (comm, other, watcher):
        await socket.disconnect()


def opens_a_window(state: Any, action: dict[str, Any]) -> bool:
    """Whether seat 0's `action` would open a claim window for another seat."""
    after, _ = apply(state, 0, Action.from_json(action))
    return after.phase == "claim"


def test_the_watcher_steps_in_only_for_a_version_seen_a_grace_ago() -> None:
    """The announcement of a change is usually on its way when the watcher sees the new
    version: it nudges a socket only when a version it saw WATCH_GRACE ago is still not shown."""
    from types import SimpleNamespace

    watcher = watchers.VersionWatcher()
    grace = watchers.WATCH_GRACE
    a, b = SimpleNamespace(sent_version=5), SimpleNamespace(sent_version=6)
    sockets: Any = [a, b]
    assert watcher.overdue(1, 6, sockets, now=100.0) is None  # just seen
    assert watcher.overdue(1, 7, sockets, now=100.0 + grace / 2) is None
    assert watcher.overdue(1, 7, sockets, now=100.0 + grace) == 6  # a is still at 5
    a.sent_version, b.sent_version = 6, 7
    assert watcher.overdue(1, 7, sockets, now=100.0 + grace + 0.1) is None  # 7 is younger
    assert watcher.overdue(1, 7, sockets, now=100.0 + grace * 1.5) == 7
    a.sent_version = 7
    assert watcher.overdue(1, 7, sockets, now=100.0 + grace * 2) is None  # all shown
    assert watcher.seen[1] == []


async def test_a_socket_open_while_its_user_sits_down_and_stands_up_follows_the_role(
    alice: User, bob: User
) -> None:
    """Sitting down over an open socket counts that socket for the seat (it used to stay a
    spectator's, and the seat looked disconnected and was auto-played); standing up gives it
    back to the spectators; closing it then leaves nothing counted."""
    table = await sync_to_async(opening.create_table)(alice, "shanghai")
    comm = await open_socket(table.pk, bob)
    frame = await receive(comm)
    sit = {"type": "sit", "seat": 1}
    await comm.send_json_to({"type": "act", "version": frame["version"], "action": sit})
    frame = await latest_state(comm)

    def counts() -> tuple[int, int]:
        seat = Seat.objects.get(table_id=table.pk, index=1)
        return seat.connections, Table.objects.get(pk=table.pk).spectators

    assert await sync_to_async(counts)() == (1, 0)
    await comm.send_json_to({"type": "act", "version": frame["version"], "action": {"type": "stand"}})
    await latest_state(comm)
    assert await sync_to_async(counts)() == (0, 1)
    await comm.disconnect()
    assert await sync_to_async(counts)() == (0, 0)


async def test_a_database_lost_mid_act_is_answered_and_the_socket_stays(
    alice: User, monkeypatch: Any
) -> None:
    """A PostgreSQL restart or a reset connection under an act: the client gets `unavailable`
    (naming its act) instead of a closed socket, and its next act goes through."""
    from django.db.utils import OperationalError

    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    real = commands.perform

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(commands, "perform", broken)
    await comm.send_json_to(
        {"type": "act", "version": frame["version"], "action": {"type": "start"}, "id": 1}
    )
    lost = await receive(comm)
    assert lost["type"] == "error" and lost["code"] == "unavailable" and lost["reply_to"] == 1
    monkeypatch.setattr(commands, "perform", real)
    await comm.send_json_to(
        {"type": "act", "version": frame["version"], "action": {"type": "start"}, "id": 2}
    )
    started = await answer_to(comm, 2)
    assert started["reply_to"] == 2 and started["view"]["phase"] == "playing"
    await comm.disconnect()


@pytest.mark.parametrize(
    ("headers", "expected", "other"),
    [
        ([(b"accept-language", b"en-US,en;q=0.9")], "Waiting for players", "等待玩家"),
        (
            [(b"cookie", b"django_language=en"), (b"accept-language", b"zh-CN")],
            "Waiting for players",
            "等待玩家",
        ),
        ([(b"accept-language", b"zh-CN")], "等待玩家", "Waiting for players"),
    ],
)
async def test_html_frames_are_in_the_viewers_language(
    alice: User, headers: list[tuple[bytes, bytes]], expected: str, other: str
) -> None:
    """Frames once came out in the default language whatever the page's was."""
    table = await setup_table(alice)
    comm = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/", headers=headers)
    comm.scope["user"] = alice
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from(timeout=5)
    assert expected in html and other not in html
    await comm.disconnect()


def _only_the_owner_left_to_choose(table_id: int) -> list[list[str]]:
    """Let the bots make their 坐庄/拉庄 choices (the owner in seat 0 chooses last); the true
    concealed hands, read from the server's state."""
    from games.engine.actions import seats_to_act
    from games.engine.state import evolve

    drive_table_until_idle(table_id, until=lambda t: seats_to_act(store.load(t).state) == [0])
    state = state_of(table_id)
    assert state is not None and state.phase == "choose"
    opened = evolve(state, phase="over")
    return [view_for(opened, s)["seats"][s]["hand"] for s in range(state.num_players)]


async def latest_html(comm: WebsocketCommunicator) -> str:
    last = None
    while not await comm.receive_nothing(timeout=0.2):
        last = await comm.receive_from(timeout=5)
    assert last is not None
    return last


async def test_tianjin_stakes_are_chosen_before_any_tile_or_joker_shows(alice: User, bob: User) -> None:
    """坐庄/拉庄 come "玩家拿牌前": until the last choice no frame, JSON or HTML, to a player or a
    spectator, holds a concealed tile or the joker indicator; then the hands and the 开混 show."""
    from games.engine.tiles import name

    table = await setup_table(alice, "tianjin")
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    mine = await open_socket(table.pk, alice)
    board = await open_socket(table.pk, alice, "")
    watcher = await open_socket(table.pk, bob)
    true_hands = await sync_to_async(_only_the_owner_left_to_choose)(table.pk)
    indicator = name((await sync_to_async(state_of)(table.pk)).indicator)
    frames_now = {who: await latest_state(comm) for who, comm in (("alice", mine), ("bob", watcher))}
    for frame in frames_now.values():
        hand = frame["view"]["hand"]
        assert hand["phase"] == "choose"
        assert all("hand" not in s and "drawn" not in s for s in hand["seats"])
        assert hand["indicator"] is None and hand["jokers"] == []
        assert "waits" not in hand and all(json.dumps(h) not in json.dumps(frame) for h in true_hands)
    html = await latest_html(board)
    assert "data-tile=" not in html and 'class="indicator"' not in html
    choice = next(a for a in frames_now["alice"]["legal"] if a["type"] == "choose")
    await mine.send_json_to({"type": "act", "version": frames_now["alice"]["version"], "action": choice})
    hand = (await latest_state(mine))["view"]["hand"]
    assert hand["phase"] == "turn" and hand["indicator"] == indicator and hand["jokers"]
    assert set(true_hands[0]) <= set(hand["seats"][0]["hand"])
    html = await latest_html(board)
    assert "data-tile=" in html and 'class="indicator"' in html
    for comm in (mine, board, watcher):
        await comm.disconnect()


def _play_the_east_round(table_id: int, owner: User) -> None:
    """Bots and 托管 play until the deal has gone round once: the table turns to South."""
    from games.engine.tiles import SOUTH
    from tests.games.conftest import play_to_end

    now = None
    for _ in range(80):
        now = play_to_end(table_id, now)
        if Table.objects.get(pk=table_id).round_wind == SOUTH:
            return
        table_commands.continue_play(table_id, owner)
    raise AssertionError("the deal never went round")


async def test_the_cantonese_wind_turns_to_south_once_the_deal_has_gone_round(alice: User, bob: User) -> None:
    """Watched by a spectator (a seated player whose socket closed would escape on the fake clock)."""
    from tests.games.conftest import set_balance

    await sync_to_async(set_balance)(alice, 10**6)  # enough for every hand of the round
    table = await sync_to_async(bot_table)(alice, "cantonese", 1)
    await sync_to_async(table_commands.set_auto)(table.pk, alice, True)
    await sync_to_async(table_commands.start_hand)(table.pk, alice)
    english = [(b"accept-language", b"en-US,en;q=0.9")]
    mine = await open_socket(table.pk, bob)
    frame = await latest_state(mine)
    assert (frame["view"]["table"]["round_wind"], frame["view"]["table"]["round_hand"]) == ("1z", 1)
    assert frame["view"]["hand"]["round_wind"] == "1z"
    await mine.disconnect()
    await sync_to_async(_play_the_east_round)(table.pk, alice)
    mine = await open_socket(table.pk, bob)
    board = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/", headers=english)
    board.scope["user"] = bob
    assert (await board.connect())[0]
    chinese = WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/", headers=[(b"accept-language", b"zh-CN")])
    chinese.scope["user"] = bob
    assert (await chinese.connect())[0]
    await sync_to_async(table_commands.continue_play)(table.pk, alice)
    frame = await latest_state(mine)
    assert frame["view"]["phase"] == "playing"
    assert (frame["view"]["table"]["round_wind"], frame["view"]["table"]["round_hand"]) == ("2z", 1)
    assert frame["view"]["hand"]["round_wind"] == "2z"
    assert "South round, hand 1" in await latest_html(board)
    assert "南风圈 第1局" in await latest_html(chinese)
    for comm in (mine, board, chinese):
        await comm.disconnect()
