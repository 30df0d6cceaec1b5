"""Small holes: a NUL byte in an address or a frame, a mute that other sockets of the muter missed,
reports of messages from elsewhere, the chat limit raced, queue polls that write every time, the
documented stake range, and deployment recipes that trusted a client's X-Forwarded-For."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.engine.rulesets.base import MAX_BASE
from games.matchmaking import queue
from games.social import chat
from games.social.models import ChatMessage
from games.table import commands, errors, opening
from tests.conftest import make_user
from tests.games.conftest import bot_table
from tests.games.test_consumers import open_socket, receive

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/users/%00/history/", "/api/users/%00", "/api/users/%00/matches", "/lobby/?variant=%00"]
)
def test_a_nul_byte_in_the_address_is_refused_not_a_crash(path: str) -> None:
    assert Client().get(path).status_code in (400, 404)


@pytest.mark.django_db(transaction=True)
async def test_a_nul_in_a_frame_is_an_error_frame_and_the_socket_stays(alice: User) -> None:
    table = await sync_to_async(bot_table)(alice)
    comm = await open_socket(table.pk, alice)
    await receive(comm)
    for frame in ({"type": "say", "text": "a\u0000b"}, {"type": "mute", "user": "\u0000", "on": True}):
        await comm.send_json_to(frame)
        reply = await receive(comm)
        while reply["type"] == "state":
            reply = await receive(comm)
        assert reply["type"] == "error" and reply["code"] == "bad_message"
    await comm.send_json_to({"type": "ping"})
    assert (await receive(comm))["type"] == "pong"  # still open
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_mute_reaches_every_open_socket_of_the_muter(alice: User, bob: User) -> None:
    table = await sync_to_async(bot_table)(alice)
    tab1, tab2 = await open_socket(table.pk, bob), await open_socket(table.pk, bob)
    seated = await open_socket(table.pk, alice)
    for comm in (tab1, tab2, seated):
        await receive(comm)
    await tab1.send_json_to({"type": "say", "phrase": "hello"})
    while (await receive(tab2))["type"] != "chat":  # tab2 has read bob's mutes (none) by now
        pass
    await tab1.send_json_to({"type": "mute", "user": "alice", "on": True})
    while (await receive(tab1))["type"] != "muted":
        pass
    while not await tab2.receive_nothing(timeout=0.3):
        await receive(tab2)
    await seated.send_json_to({"type": "say", "phrase": "thanks"})
    while (await receive(seated))["type"] != "chat":  # said: every socket has it on its way
        pass
    while not await tab2.receive_nothing(timeout=0.5):
        frame = await receive(tab2)
        assert frame["type"] != "chat" or frame["from"] != "alice", frame
    for comm in (tab1, tab2, seated):
        await comm.disconnect()


@pytest.mark.django_db
def test_a_message_is_reported_only_from_its_own_table(alice: User, bob: User) -> None:
    private = opening.create_table(alice, "shanghai", public=False)
    commands.sit(private.pk, alice, 0)
    said = chat.say(private.pk, alice, phrase="hello")
    elsewhere = bot_table(bob)
    with pytest.raises(errors.ServiceError) as refused:
        chat.report(said["id"], bob, elsewhere.pk)
    assert refused.value.code == "bad_report"
    assert ChatMessage.objects.get(pk=said["id"]).reported_at is None
    chat.report(said["id"], alice, private.pk)
    assert ChatMessage.objects.get(pk=said["id"]).reported_by_id == alice.pk


@pytest.mark.django_db(transaction=True)
def test_racing_messages_keep_to_the_chat_limit(alice: User) -> None:
    table = bot_table(alice)
    start = threading.Barrier(chat.RATE_LIMIT + 3)
    results: list[str] = []

    def say() -> None:
        try:
            start.wait()
            chat.say(table.pk, alice, phrase="hello")
            results.append("ok")
        except errors.ServiceError as e:
            results.append(e.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=say) for _ in range(chat.RATE_LIMIT + 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ChatMessage.objects.filter(user=alice).count() == chat.RATE_LIMIT
    assert results.count("chat_rate_limited") == 3


@pytest.mark.django_db
def test_a_queue_poll_soon_after_the_last_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    user = make_user("waiting")
    queue.join(user, "shanghai", "bronze")
    now = timezone.now()
    queue.poll(user, now)
    calls = []
    monkeypatch.setattr(queue, "match_queue", lambda *a: calls.append(a))
    for ms in (100, 300, 600):
        assert queue.poll(user, now + timedelta(milliseconds=ms))["queued"]
    assert calls == []  # within a second of the last: the status only, no write, no matching
    queue.poll(user, now + timedelta(seconds=2))
    assert len(calls) == 1


def test_the_documented_stake_range_is_the_one_enforced() -> None:
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    ranges = re.findall(r"the base itself \(1–(\d+)", protocol)
    assert ranges and all(int(r) == MAX_BASE for r in ranges)


def test_no_recipe_trusts_a_clients_forwarded_address() -> None:
    """daphne --proxy-headers takes X-Forwarded-For's first entry, which a client writes itself
    when nothing in front sets it: the app reads the header only when TRUSTED_PROXY_HOPS says
    how many proxies wrote it."""
    for name in ("Makefile", "Dockerfile", "compose.yaml", "README.md", "docs/operations.md"):
        assert "--proxy-headers" not in (ROOT / name).read_text(), name
    assert 'TRUSTED_PROXY_HOPS: "1"' in (ROOT / "compose.yaml").read_text()
