"""Table chat: preset phrases for everyone at a table, free text at private tables
between seated players; rate-limited, escaped, muted per player, moderated in the admin.

`say` checks and stores a message, then tells the table's group after commit
(`{"type": "chat.message", ...}`); every socket of the table (`ChatSocket`, mixed into the table
consumer) sends it on to its viewer unless the viewer muted the sender: JSON `{"type": "chat",
...}` or, for the board, an htmx out-of-band fragment appended to `#chat-log`. Everything said
is stored (`ChatMessage`) so a report can be read by an admin; text is always escaped when shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.sockets import user_group
from common import broadcaster
from common.db_threads import db
from games.models import Seat, Table
from games.moderation.penalties import active_ban
from games.social.models import ChatMessage, ChatMute, ChatSilence
from games.table.errors import ServiceError
from games.table.travel import group_name

# id -> (Chinese, English): the same few words; the board shows the English beside the Chinese
# to English readers only.
PHRASES = {
    "hello": ("你好", "Hello"),
    "hurry": ("快点吧", "Hurry up, please"),
    "sorry": ("不好意思", "Sorry"),
    "nice_hand": ("打得好", "Nice hand"),
    "thanks": ("谢谢", "Thanks"),
    "good_game": ("再来一局", "One more game"),
    "bye": ("再见", "Bye"),
    # a word, not the 👍 glyph: many desktops (Linux Chromium among them) have no font for it and
    # drew an empty box; 😂 and 😮 sit in the emoticons block that common fonts do cover
    "thumbs_up": ("赞", "Like"),
    "laugh": ("😂", "😂"),
    "wow": ("😮", "😮"),
}
MAX_TEXT = 200
RATE_WINDOW = timedelta(seconds=10)
RATE_LIMIT = 5  # messages per player per RATE_WINDOW, all tables together
HISTORY = 30  # messages shown when the board opens


def _refuse(code: str, message: str) -> ServiceError:
    return ServiceError(code, message)


def say(
    table_id: int,
    user: AbstractBaseUser | None,
    phrase: Any = None,
    text: Any = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Store one message and announce it to the table; refused with a clear code otherwise."""
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise _refuse("login_required", "log in to chat")
    table = Table.objects.filter(pk=table_id).only("pk", "public", "status").first()
    if table is None:
        raise _refuse("no_table", "there is no such table")
    seat = Seat.objects.filter(table_id=table_id, user_id=user.pk).values_list("index", flat=True).first()
    phrase_id, words = _content(table, seat, phrase, text)
    _refuse_silenced(user, now)
    with transaction.atomic():
        # the speaker's profile row locked: messages sent at once (any socket, any process) are
        # counted one after the other, never all against the same count
        Profile.objects.select_for_update().filter(user_id=user.pk).values_list("pk", flat=True).first()
        if ChatMessage.objects.filter(user_id=user.pk, created__gt=now - RATE_WINDOW).count() >= RATE_LIMIT:
            raise _refuse("chat_rate_limited", _("You are chatting too fast; wait a few seconds."))
        message = ChatMessage.objects.create(
            table_id=table_id, user=user, seat=seat, phrase=phrase_id, text=words, created=now
        )
        frame = message_json(message, user.get_username())
        event = {"type": "chat.message", "message": frame}
        transaction.on_commit(lambda: broadcaster.send(group_name(table_id), event))
    return frame


def _content(table: Table, seat: int | None, phrase: Any, text: Any) -> tuple[str, str]:
    """(phrase id, text) of a valid message; exactly one of the two is given."""
    if (phrase is None) == (text is None):
        raise _refuse("bad_chat", "send either a 'phrase' or a 'text'")
    if phrase is not None:
        if phrase not in PHRASES:
            raise _refuse("bad_phrase", f"phrase must be one of {', '.join(PHRASES)}")
        return phrase, ""
    if table.public:
        raise _refuse("chat_text_private_only", _("Free text is only for private tables; use the phrases."))
    if seat is None:
        raise _refuse("not_seated", _("Only seated players may write at this table."))
    if not isinstance(text, str) or not text.strip():
        raise _refuse("bad_chat", _("Write something first."))
    words = " ".join(text.split())  # one line
    if len(words) > MAX_TEXT:
        raise _refuse("chat_too_long", _("A message is at most %(n)d characters.") % {"n": MAX_TEXT})
    return "", words


def _refuse_silenced(user: AbstractBaseUser, now: datetime) -> None:
    silence = ChatSilence.objects.filter(user_id=user.pk, ends__gt=now).order_by("-ends").first()
    if silence is not None:
        until = date_format(timezone.localtime(silence.ends), "Y-m-d H:i")
        raise _refuse("chat_silenced", _("An admin muted your chat until %(until)s.") % {"until": until})
    if active_ban(user, now) is not None:
        raise _refuse("banned", _("You are banned and may not chat now."))


def message_json(message: ChatMessage, name: str) -> dict[str, Any]:
    zh, en = PHRASES.get(message.phrase, ("", ""))
    return {
        "id": message.pk,
        "table": message.table_id,
        "from": name,
        "from_id": message.user_id,
        "seat": message.seat,
        "phrase": message.phrase or None,
        "zh": zh or None,
        "en": en or None,
        "text": message.text or None,
        "at": message.created.isoformat(),
    }


def report(message_id: Any, user: AbstractBaseUser | None, table_id: int) -> None:
    """A viewer reports a message of the table they are watching for the admins (the first
    report counts); a message of another table is no such message here."""
    if user is None or not user.is_authenticated:
        raise _refuse("login_required", "log in to report")
    if isinstance(message_id, bool) or not isinstance(message_id, int):
        raise _refuse("bad_report", "'message' must be a message id")
    here = ChatMessage.objects.filter(pk=message_id, table_id=table_id)
    updated = here.filter(reported_at__isnull=True).update(reported_at=timezone.now(), reported_by=user)
    if not updated and not here.exists():
        raise _refuse("bad_report", "there is no such message at this table")


def set_mute(user: AbstractBaseUser | None, name: Any, on: Any) -> set[int]:
    """Mute (or unmute) another player's chat for `user`; returns the muted user ids."""
    from django.contrib.auth import get_user_model

    if user is None or not user.is_authenticated:
        raise _refuse("login_required", "log in to mute")
    if not isinstance(on, bool):
        raise _refuse("bad_mute", "'on' must be true or false")
    other = get_user_model().objects.filter(username=name).first() if isinstance(name, str) else None
    if other is None or other.pk == user.pk:
        raise _refuse("bad_mute", "'user' must be another player's name")
    if on:
        ChatMute.objects.get_or_create(user_id=user.pk, muted_id=other.pk)
    else:
        ChatMute.objects.filter(user_id=user.pk, muted_id=other.pk).delete()
    # every open socket of the muter (other tabs, other tables, other processes) reads them again
    event = {"type": "chat.mutes"}
    transaction.on_commit(lambda: broadcaster.send(user_group(user.pk), event))
    return muted_by(user)


def muted_by(user: AbstractBaseUser | None) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(ChatMute.objects.filter(user_id=user.pk).values_list("muted_id", flat=True))


def recent(
    table_id: int, viewer: AbstractBaseUser | None, before: datetime | None = None
) -> list[dict[str, Any]]:
    """The last messages of a table, oldest first, without those of players the viewer muted;
    `before`: only those said by then (a delayed spectator's board is that far behind)."""
    muted = muted_by(viewer)
    rows = ChatMessage.objects.filter(table_id=table_id)
    if before is not None:
        rows = rows.filter(created__lte=before)
    rows = rows.select_related("user").order_by("-created")[:HISTORY]
    return [message_json(m, m.user.get_username()) for m in reversed(rows) if m.user_id not in muted]


def line_html(frame: dict[str, Any], language: str, oob: bool = False, viewer: str | None = None) -> str:
    """One chat line for the board (escaped by the template); `oob`: appended to #chat-log;
    `viewer`: whose board (no "mute" button on their own lines)."""
    with translation.override(language):
        return render_to_string("games/_chat_line.html", {"m": frame, "oob": oob, "viewer": viewer})


def board_context(
    table: Table, viewer: AbstractBaseUser | None, seat: int | None, delay: int = 0
) -> dict[str, Any]:
    """What the board's chat panel needs (games.web.views.table_page → _chat.html); `delay`: the
    seconds this viewer's board is behind (the chat is as far behind as the board)."""
    before = timezone.now() - timedelta(seconds=delay) if delay else None
    return {
        "chat_phrases": [(pid, zh, en) for pid, (zh, en) in PHRASES.items()],
        "chat_lines": recent(table.pk, viewer, before),
        "chat_free_text": not table.public and seat is not None,
        "chat_max": MAX_TEXT,
    }


class ChatSocket:
    """Mixed into the table socket: `say`, `report` and `mute` messages, and chat frames out."""

    table_id: int
    json_mode: bool
    language: str
    chat_muted: set[int] | None = None
    chat_hold: Callable[[dict[str, Any]], float]  # seconds to hold a line (games.rendering.spectator_delay)
    send: Callable[..., Awaitable[None]]  # the consumer's own
    send_json: Callable[[dict[str, Any]], Awaitable[None]]
    send_error: Callable[..., Awaitable[None]]
    _actor: Callable[[], Any]

    async def chat_route(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        try:
            if kind == "say":
                await db(say)(self.table_id, self._actor(), message.get("phrase"), message.get("text"))
            elif kind == "report":
                await db(report)(_whole(message.get("message")), self._actor(), self.table_id)
                if self.json_mode:
                    await self.send_json({"type": "reported", "message": message.get("message")})
            else:
                on = message.get("on", True)
                self.chat_muted = await db(set_mute)(self._actor(), message.get("user"), _bool(on))
                if self.json_mode:
                    await self.send_json({"type": "muted", "user": message.get("user"), "on": on})
        except ServiceError as e:
            await self.send_error(e.code, e.message)

    async def chat_mutes(self, event: dict[str, Any]) -> None:
        """The user muted or unmuted someone over another socket: read the mutes again."""
        self.chat_muted = None

    async def chat_message(self, event: dict[str, Any]) -> None:
        if not getattr(self, "counted", True):
            return  # a socket the table has not admitted yet (its connect is still deciding)
        frame = event["message"]
        if self.chat_muted is None:
            self.chat_muted = await db(muted_by)(self._actor())
        if frame.get("from_id") in self.chat_muted:
            return
        hold = self.chat_hold(frame)
        if hold > 0:  # a delayed spectator: the line comes when the board reaches it
            loop = asyncio.get_running_loop()
            loop.call_later(hold, lambda: loop.create_task(self.send_chat_line(frame)))
            return
        await self.send_chat_line(frame)

    async def send_chat_line(self, frame: dict[str, Any]) -> None:
        if getattr(self, "closed", False):
            return
        if self.json_mode:
            await self.send_json({"type": "chat", **frame})
        else:
            actor = self._actor()
            viewer = actor.get_username() if actor is not None else None
            await self.send(text_data=line_html(frame, self.language, oob=True, viewer=viewer))


def _whole(value: Any) -> Any:
    """The htmx dialect sends form values as strings."""
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _bool(value: Any) -> Any:
    return {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
