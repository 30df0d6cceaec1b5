"""Table chat (games.social.chat): phrases, free text at private tables, limits, escaping, mutes,
reports and the admin's silence and ban (audited)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.moderation.models import AdminAuditLog, Ban
from games.moderation.penalties import ban_user
from games.social import chat
from games.social.chat import say
from games.social.models import ChatMessage, ChatSilence
from games.table import commands
from games.table.errors import ServiceError
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import bot_table, two_seated
from tests.games.test_consumers import open_socket, receive


def refused(code: str, *args: object, **kwargs: object) -> None:
    with pytest.raises(ServiceError) as error:
        say(*args, **kwargs)
    assert error.value.code == code, error.value


@pytest.mark.django_db
def test_phrases_for_everyone_free_text_only_seated_at_private_tables(
    alice: User, bob: User, carol: User
) -> None:
    public = bot_table(alice)
    frame = say(public.pk, alice, phrase="nice_hand")
    assert frame["zh"] == "打得好" and frame["en"] == "Nice hand" and frame["seat"] == 0
    assert say(public.pk, bob, phrase="hello")["seat"] is None  # a spectator may use phrases
    refused("chat_text_private_only", public.pk, alice, text="hi")
    private = two_seated(alice, bob)
    Table.objects.filter(pk=private.pk).update(public=False)
    assert say(private.pk, bob, text="  good   luck ")["text"] == "good luck"
    refused("not_seated", private.pk, carol, text="psst, bob waits on 5p")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"phrase": "insult"}, "bad_phrase"),
        ({}, "bad_chat"),
        ({"phrase": "hello", "text": "hi"}, "bad_chat"),
        ({"text": "   "}, "bad_chat"),
        ({"text": 42}, "bad_chat"),
        ({"text": "x" * 201}, "chat_too_long"),
    ],
)
def test_bad_messages_are_refused_and_store_nothing(alice: User, bob: User, kwargs: dict, code: str) -> None:
    table = two_seated(alice, bob)
    Table.objects.filter(pk=table.pk).update(public=False)
    refused(code, table.pk, alice, **kwargs)
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_exactly_200_characters_is_fine_and_anonymous_cannot_chat(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    Table.objects.filter(pk=table.pk).update(public=False)
    assert len(say(table.pk, alice, text="y" * 200)["text"]) == 200
    refused("login_required", table.pk, None, phrase="hello")


@pytest.mark.django_db
def test_the_rate_limit(alice: User) -> None:
    table = bot_table(alice)
    now = timezone.now()
    for n in range(chat.RATE_LIMIT):
        say(table.pk, alice, phrase="hello", now=now + timedelta(seconds=n))
    refused("chat_rate_limited", table.pk, alice, phrase="hello", now=now + timedelta(seconds=5))
    assert ChatMessage.objects.count() == chat.RATE_LIMIT
    say(table.pk, alice, phrase="hello", now=now + timedelta(seconds=11))  # the window moved on


@pytest.mark.django_db
def test_silenced_and_banned_players_cannot_chat(alice: User, bob: User) -> None:
    table = bot_table(alice)
    ChatSilence.objects.create(user=alice, ends=timezone.now() + timedelta(hours=1))
    refused("chat_silenced", table.pk, alice, phrase="hello")
    ban_user(bob, 10, None)
    refused("banned", table.pk, bob, phrase="hello")


@pytest.mark.django_db
def test_markup_is_shown_as_text_on_the_board(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    Table.objects.filter(pk=table.pk).update(public=False)
    frame = say(table.pk, alice, text='<img src=x onerror="alert(1)">')
    html = chat.line_html(frame, "en", oob=True)
    assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert 'hx-swap-oob="beforeend"' in html
    client = logged_in_client(bob)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="chat-log"' in page and "&lt;img src=x" in page and 'name="text"' in page


@pytest.mark.django_db
def test_muting_hides_a_players_lines_from_the_history(alice: User, bob: User) -> None:
    table = bot_table(alice)
    say(table.pk, bob, phrase="hurry")
    say(table.pk, alice, phrase="sorry")
    assert [m["phrase"] for m in chat.recent(table.pk, alice)] == ["hurry", "sorry"]
    assert chat.set_mute(alice, "bob", True) == {bob.pk}
    assert [m["phrase"] for m in chat.recent(table.pk, alice)] == ["sorry"]
    assert chat.set_mute(alice, "bob", False) == set()
    with pytest.raises(ServiceError):
        chat.set_mute(alice, "alice", True)


async def next_frame(comm: Any, wanted: Callable[[dict], bool]) -> dict:
    """The next JSON frame `wanted` picks (table frames may come between)."""
    for _ in range(20):
        frame = await receive(comm)
        if wanted(frame):
            return frame
    raise AssertionError("no such frame")


async def next_html(comm: Any, wanted: Callable[[str], bool]) -> str:
    for _ in range(20):
        html = await comm.receive_from(timeout=5)
        if wanted(html):
            return html
    raise AssertionError("no such frame")


@pytest.mark.django_db(transaction=True)
async def test_say_over_the_socket_reaches_every_viewer_but_those_who_muted(alice: User, bob: User) -> None:
    table = await sync_to_async(bot_table)(alice)
    carol = await sync_to_async(make_user)("carol")
    seated = await open_socket(table.pk, alice)
    watcher = await open_socket(table.pk, bob)
    board = await open_socket(table.pk, carol, query="")
    await receive(seated), await receive(watcher), await board.receive_from(timeout=5)
    await watcher.send_json_to({"type": "mute", "user": "alice", "on": True})
    # (a table frame may come first: bob's own arrival counted as a spectator)
    muted = await next_frame(watcher, lambda f: f["type"] == "muted")
    assert muted == {"type": "muted", "user": "alice", "on": True}
    await seated.send_json_to({"type": "say", "phrase": "nice_hand"})
    frame = await next_frame(seated, lambda f: f["type"] == "chat")
    assert frame["from"] == "alice" and frame["phrase"] == "nice_hand"
    html = await next_html(board, lambda h: "chat-log" in h)
    assert 'id="chat-log" hx-swap-oob="beforeend"' in html and "打得好" in html  # Chinese by default
    while not await watcher.receive_nothing(timeout=0.5):  # bob muted alice: table frames only
        assert (await receive(watcher))["type"] != "chat"
    await seated.send_json_to({"type": "say", "text": "hi"})
    error = await next_frame(seated, lambda f: f["type"] == "error")
    assert error["type"] == "error" and error["code"] == "chat_text_private_only"
    # the htmx dialect: form values as strings, with HEADERS
    await board.send_json_to({"type": "report", "message": str(frame["id"]), "HEADERS": {}})
    while not await board.receive_nothing(timeout=0.5):  # no error comes back (table frames may)
        assert "error" not in await board.receive_from(timeout=5)
    message = await sync_to_async(ChatMessage.objects.get)(pk=frame["id"])
    assert message.reported_at is not None and message.reported_by_id == carol.pk
    for socket in (seated, watcher, board):
        await socket.disconnect()


@pytest.mark.django_db
def test_the_admin_reads_reports_and_silences_or_bans_audited(alice: User, bob: User) -> None:
    staff = User.objects.create_superuser("root", "root@example.com", "green-dragon-42")
    table = two_seated(alice, bob)
    Table.objects.filter(pk=table.pk).update(public=False)
    rude = say(table.pk, bob, text="rude words")
    chat.report(rude["id"], alice, rude["table"])
    client = logged_in_client(staff)
    client.cookies["django_language"] = "en"
    listing = client.get(reverse("admin:games_chatmessage_changelist") + "?reported=yes").content.decode()
    assert "rude words" in listing
    url = reverse("admin:games_chatmessage_changelist")
    client.post(url, {"action": "silence_senders", "_selected_action": [rude["id"]]})
    assert ChatSilence.objects.filter(user=bob).exists()
    client.post(url, {"action": "ban_senders", "_selected_action": [rude["id"]]})
    assert Ban.objects.filter(user=bob, manual=True).exists()
    assert set(AdminAuditLog.objects.values_list("action", flat=True)) == {"chat_silence", "chat_ban"}
    with pytest.raises(ServiceError) as error:
        commands.sit(bot_table(make_user("dave"), bots=0).pk, bob, 1)
    assert error.value.code == "banned"  # the ban keeps bob from sitting too


@pytest.mark.django_db
def test_phrases_read_in_both_languages(alice: User) -> None:
    frame = say(bot_table(alice).pk, alice, phrase="hurry")
    assert "快点吧" in chat.line_html(frame, "zh-hans") and "Hurry" not in chat.line_html(frame, "zh-hans")
    assert "快点吧" in chat.line_html(frame, "en") and "Hurry up, please" in chat.line_html(frame, "en")
    assert all(zh and en for zh, en in chat.PHRASES.values())


@pytest.mark.django_db
def test_no_report_link_beside_your_own_line(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    frame = say(table.pk, alice, phrase="hello")
    assert "chat-report" not in chat.line_html(frame, "en", viewer=alice.username)
    others = chat.line_html(frame, "en", viewer=bob.username)
    assert "chat-report" in others and "chat-mute" in others


@pytest.mark.django_db
def test_the_thumbs_up_phrase_is_a_word_every_font_can_draw(alice: User) -> None:
    """The 👍 glyph has no font on many desktops (an empty box); the phrase is said in words."""
    frame = say(bot_table(alice).pk, alice, phrase="thumbs_up")
    assert "👍" not in chat.line_html(frame, "en") and "Like" in chat.line_html(frame, "en")
    assert "赞" in chat.line_html(frame, "zh-hans")
    page = logged_in_client(alice).get(f"/tables/{frame['table']}/").content.decode()
    assert "👍" not in page
