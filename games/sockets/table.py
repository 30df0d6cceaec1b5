"""The table socket: thin — parse, authorise, call a table command (games.table), render for this viewer.

`TableConsumer` (ws/tables/<id>/) speaks two dialects on the same logic (docs/protocol.md):
HTMX (the browser: session login, JSON form fields in, HTML fragments out) and JSON
(`?token=API_TOKEN` or `?format=json`: JSON frames both ways). Group messages carry only the
table id and version; each consumer renders its own viewer's state from the database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import parse_qs

from django.contrib.auth.models import AnonymousUser
from django.db.utils import InterfaceError, OperationalError

from accounts import sockets
from accounts.services import token_digest, user_for_token
from common import broadcaster
from common.db_threads import db, db_arrivals
from games.rendering.fragments import language_from_scope, render_error_html, render_table_html
from games.rendering.heads import frame_head
from games.rendering.presenters import context_for, json_view, table_context
from games.rendering.spectator_delay import DelayedSpectatorSocket
from games.social.announcements import AnnouncementSocket
from games.social.chat import ChatSocket
from games.sockets import news as frame_news
from games.sockets import presence, shared
from games.sockets.admission import ADMISSION
from games.sockets.arrival import arrive
from games.sockets.fanout import FANOUT
from games.sockets.frames import (
    BUSY,
    CLOSE_BAD_TOKEN,
    CLOSE_LOGGED_OUT,
    CLOSE_NO_TABLE,
    CLOSE_TRY_AGAIN,
    MAX_FRAME,
    NOT_PARSED,
    UNAVAILABLE,
    TokenBucket,
    holds_nul,
    normalise,
    read_frame,
    reply_id,
)
from games.sockets.lean import LeanConsumer, json_text
from games.sockets.pause_end import PauseEndSocket
from games.sockets.roles import SeatRoleSocket
from games.sockets.watchers import HEARTBEAT, PAUSE_ENDS, WATCHER
from games.table import on_loop, snapshots, travel
from games.table import presence as table_presence
from games.table.errors import ServiceError
from games.table.loaded import Loaded

log = logging.getLogger(__name__)

REVOKED_MESSAGES = {
    "token_revoked": "this API token was revoked",
    "logged_out": "you logged out",
    "account_changed": "the account's password changed or it was closed: sign in again",
}


# Announcement banners, table chat, the spectator delay, the end of a pause and the socket's count
# following its user's role come in as mixins.
# Mixins rather than collaborators: each is the socket half of its feature, kept beside the feature's
# service, and Channels delivers a group message by calling the consumer's method of that type's
# name (`announcement_changed`, `chat_message`, `chat_mutes`), so a collaborator would still need a
# forwarding method here per message type, and the consumer's `send`, `send_error` and groups
# passed back to it (docs/architecture.md, "The table socket").
class TableConsumer(
    AnnouncementSocket, ChatSocket, DelayedSpectatorSocket, PauseEndSocket, SeatRoleSocket, LeanConsumer
):
    table_id: int
    user: Any
    json_mode: bool
    sent_version: int
    counted: bool
    closed = False  # set on disconnect: a pause ending later renders nothing
    revoked = False  # set when its token is revoked or its session logs out (closing)
    refused_admission = False  # told `busy` at the handshake (games.sockets.admission)
    admitting = False  # between joining the table's group and the connect's first frame

    async def _database_lost(self, kind: str, error: Exception, reply_to: str | int | None = None) -> None:
        """The database connection broke mid-call (a restart, a reset connection): the pool hands
        out a fresh one next time, so this socket stays. Nothing of the call was kept (its
        transaction was rolled back, or — lost at the commit — it is in the log and the next
        state shows it): the client is told to look again and send again."""
        log.warning("database lost during %s on table %s: %s", kind, getattr(self, "table_id", "?"), error)
        if kind == "websocket.connect":
            await self.close(code=CLOSE_TRY_AGAIN)  # the client reconnects (uncounted on disconnect)
        elif kind == "websocket.receive":  # (an act's answer names the act: `reply_to`)
            await self.send_error("unavailable", UNAVAILABLE, reply_to)

    async def connect(self) -> None:
        broadcaster.use_loop(asyncio.get_running_loop())  # changes made here announce through it
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.bucket = TokenBucket()
        self.refused = 0
        self.sent_version = -1  # the newest revision rendered for this socket (sent or not)
        self.sent: tuple[Any, ...] | None = None  # what its last frame showed (news.seen)
        self.counted, self.admitting = False, True  # (frames wait for the connect's first: `table_changed`)
        self.missed = -1  # the newest version announced before the connect admitted this socket
        self.counted_seated: bool | None = None  # counted for a seat or as a spectator (first frame)
        self.moving_role = False  # a sit over this socket, or its move, under way (`_follow_role`)
        self.socket_id: int | None = None  # its OpenSocket row (games.sockets.presence)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        self.json_mode = bool(token) or (query.get("format") or [""])[0] == "json"
        # Every HTML frame is rendered in the language the page was (a socket has no
        # LocaleMiddleware): the language cookie, then Accept-Language.
        self.language = language_from_scope(self.scope)
        await self.accept()
        if not await self._admitted():
            return
        if token:
            # Joined before the lookup: a revocation committed after it still closes this socket.
            await self._join_auth_group(sockets.token_group(token_digest(token)))
            self.user = await db_arrivals(user_for_token)(token)
            if self.user is None:
                await self.send_error("bad_token", "unknown or revoked API token")
                await self.close(code=CLOSE_BAD_TOKEN)
                return
        else:
            self.user = self.scope.get("user") or AnonymousUser()
            session_key = getattr(self.scope.get("session"), "session_key", None)
            if self.user.is_authenticated and session_key:
                await self._join_auth_group(sockets.session_group(session_key))
        await self._follow_account()
        invite = (query.get("invite") or [""])[0]
        # Joined first, so no version committed after the connect is missed (once per process: fanout)
        await FANOUT.join(self, travel.group_name(self.table_id))
        await self.join_announcements()
        if presence.registered() is None:
            await db_arrivals(presence.heartbeat)()
        HEARTBEAT.ensure()
        try:  # one call: the account checked again, then one locked read decides who may watch
            arrived = await db_arrivals(arrive)(
                self.table_id,
                self._actor(),
                presence.registered(),
                self.scope.get("session"),
                invite,
                not token,
            )
        except ServiceError as e:
            await self.send_error(e.code, e.message)
            await self.close(code=CLOSE_NO_TABLE)
            return
        if arrived is None:  # its account changed before it joined the account's group
            await self.auth_revoked({"code": "account_changed"})
            return
        version, self.socket_id, self.spectator_delay = arrived
        self.counted = True
        snapshot = snapshots.at(self.table_id, version)  # the connect's own change, when it made one
        context = self._context_of(snapshot) if snapshot is not None else None
        if context is None:
            context = await db_arrivals(table_context)(self.table_id, self._actor(), True)
        await self.send_state(force=True, context=context)
        self.admitting = False
        if self.missed > self.sent_version:  # a newer version came during the handshake
            await self.send_state()
        ADMISSION.leave(self)  # the handshake is done: the next one may start
        WATCHER.add(self)

    async def _admitted(self) -> bool:
        """Admission control (games.sockets.admission): a saturated process tells the socket `busy`,
        with the seconds to wait (`retry_after`), and closes it with 4013 before any work."""
        wait = ADMISSION.enter(self)
        if wait is None:
            return True
        self.refused_admission = True
        await self.send_error("busy", BUSY, retry_after=wait)  # type: ignore[arg-type]  # lazy: HTML renders it
        await self.close(code=CLOSE_TRY_AGAIN)
        return False

    async def _follow_account(self) -> None:
        """A signed-in socket joins its account's group (a password change, deactivation or
        deletion closes it: accounts.sockets); the arrival's call (games.sockets.arrival) then
        checks the account once more, so that a change committed before the join is not missed."""
        if self._actor() is None:
            return
        self.account_group = sockets.user_group(self.user.pk)
        await self.channel_layer.group_add(self.account_group, self.channel_name)

    async def _join_auth_group(self, group: str) -> None:
        """Revoking the token or logging the session out closes this socket (accounts.sockets)."""
        self.auth_group = group
        await self.channel_layer.group_add(group, self.channel_name)

    async def auth_revoked(self, event: dict[str, Any]) -> None:
        """This socket's token was revoked or its session logged out: it stops acting as the user."""
        self.revoked = True  # frames already on their way are dropped, not acted on
        code = event.get("code", "token_revoked")
        await self.send_error(code, REVOKED_MESSAGES.get(code, REVOKED_MESSAGES["logged_out"]))
        await self.close(code=CLOSE_BAD_TOKEN if code == "token_revoked" else CLOSE_LOGGED_OUT)

    def _actor(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None

    async def disconnect(self, code: int) -> None:
        self.closed = True  # a pause ending after this renders nothing
        ADMISSION.leave(self)  # (a handshake cut short)
        if self.refused_admission:
            return  # it joined nothing and counted nowhere
        for group in (getattr(self, "auth_group", None), getattr(self, "account_group", None)):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)
        if not hasattr(self, "table_id"):
            return
        WATCHER.remove(self)
        await FANOUT.leave(self)
        await self.leave_announcements()
        if not getattr(self, "counted", False):
            return
        args = (self.table_id, self._actor(), self.counted_seated, self.socket_id)
        try:
            await db_arrivals(table_presence.disconnect)(*args)
        except (OperationalError, InterfaceError):  # a connection reset just then: once more, on a fresh one
            await db_arrivals(table_presence.disconnect)(*args)

    # --- incoming ---------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return
        message = await read_frame(self, text_data, bytes_data, MAX_FRAME)
        if message is NOT_PARSED:
            return
        if not isinstance(message, dict):
            await self.send_error("bad_message", "a message is one JSON object with a 'type'")
            return
        if holds_nul(message):  # no name or text holds one; the database cannot store one
            await self.send_error("bad_message", "a message may not contain a NUL character")
            return
        await self.route(normalise(message))

    async def route(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "sync":
            await self.send_state(force=True)
        elif kind == "act":
            await self.act(message)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind in ("say", "report", "mute"):  # table chat (games.social.chat)
            await self.chat_route(message)
        else:
            await self.send_error("unknown_type", "type must be one of act, sync, ping, say, report, mute")

    async def act(self, message: dict[str, Any]) -> None:
        action = message.get("action")
        reply_to = reply_id(message.get("id")) if self.json_mode else None
        sits = isinstance(action, dict) and action.get("type") == "sit" and self.counted_seated is False
        self.moving_role = self.moving_role or sits
        try:
            table = await on_loop.perform(
                self.table_id,
                self._actor(),
                self._version_meant(message.get("version")),
                action,
                self.socket_id if sits else None,
            )
            if sits:
                self.counted_seated = True  # the sit moved this socket to the seat
        except ServiceError as e:
            await self.send_error(e.code, e.message, reply_to)
            if e.code == "stale_version":
                await self.send_state(force=True)  # the client is behind: give it the full state
            return
        except (OperationalError, InterfaceError) as e:
            await self._database_lost("websocket.receive", e, reply_to)
            return
        finally:
            if sits:
                self.moving_role = False
        snapshot = snapshots.at(self.table_id, table.revision)  # the change's own, kept on commit
        context = self._context_of(snapshot) if snapshot else None
        sent = await self.send_state(context=context, reply_to=reply_to)
        if reply_to is not None and not sent and self.sent is not None:  # it went out already
            await self.send_json({"type": "ack", "reply_to": reply_to, "version": self.sent[0]})

    def _version_meant(self, version: Any) -> Any:
        """The version an act was sent with, as this socket's frames told it. A player outside
        the claim window is not sent the end of a pause (games.sockets.news): the paused frame's
        version V stands for the V+1 play moved on to, which it would have been sent. V+1 is
        the table's version from the discard on, so it is as fresh as V during the pause and
        any window, and stale as soon as V is (a change after it)."""
        sent = self.sent
        if sent is not None and sent[1] and isinstance(version, int) and version == sent[0]:
            return version + 1
        return version

    # --- outgoing ---------------------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version", 0)
        if not self.counted or self.admitting:  # not admitted yet: the connect sends what it should see
            self.missed = max(self.missed, version)
            return
        if version <= self.sent_version:
            return
        blob = event.get("snapshot")
        snapshot = snapshots.at(self.table_id, version)
        if snapshot is None:  # made in another process: ask it to send its changes with snapshots
            travel.ask(self.table_id)
            if isinstance(blob, bytes):
                snapshot = snapshots.keep(blob)  # once per process: the other sockets find it kept
        ctx = shared.loaded(snapshot) if snapshot is not None else None
        await self._send_loaded(ctx, snapshot)

    async def _send_loaded(self, ctx: Loaded | None, snapshot: snapshots.Snapshot | None) -> bool:
        """This viewer's frame of a snapshot (`ctx`: read from it), rendered only when its head says
        it is news (games.sockets.news). A viewer whose frame may be shown behind (a quick match's
        spectator delay) or is shared (anonymous) goes the way of `send_state`."""
        user = self._actor()
        if ctx is None or user is None or self.spectator_delay:
            context = self._context_of(snapshot) if snapshot is not None else None
            return await self.send_state(context=context)
        head = frame_head(ctx, user)
        seen = frame_news.seen_of(head.version, head.paused, head.legal, head.pending)
        if not self._is_news(head.revision, head.pause_ms, seen, head.moved_on):
            return False
        await self._send_frame(context_for(ctx, user, head), seen, None)
        return True

    def _context_of(self, snapshot: snapshots.Snapshot) -> dict[str, Any] | None:
        """This viewer's render context of a snapshot; an anonymous viewer's is shared by every
        anonymous viewer of the table in this process (games.sockets.shared)."""
        user = self._actor()
        return shared.own_context(snapshot, user) if user is not None else shared.anonymous_context(snapshot)

    async def send_state(
        self, force: bool = False, context: dict[str, Any] | None = None, reply_to: str | int | None = None
    ) -> bool:
        """Send this viewer's state: from `context` when given (rendered from a snapshot without
        the database), else loaded; `reply_to`: the id of the act it answers (JSON). Whether it
        was sent (not when this socket already showed that version)."""
        if context is None:
            context = await db(table_context)(self.table_id, self._actor(), True)
        context = await self.delayed(context)  # a spectator of a quick match sees it behind
        seen = frame_news.seen(context)
        moved_on = context.get("moved_on", False)
        if not self._is_news(context["revision"], context["table"]["pause_ms"], seen, moved_on, force):
            return False
        await self._send_frame(context, seen, reply_to)
        return True

    def _is_news(
        self, revision: int, pause_ms: int | None, seen: tuple[Any, ...], moved_on: bool, force: bool = False
    ) -> bool:
        """Whether a frame of `revision` showing `seen` goes out, rendered or not (games.sockets.news)."""
        if pause_ms:
            PAUSE_ENDS.add(self, revision, pause_ms)  # its end is awaited either way
        if revision < self.sent_version and not force:
            return False  # an older render than one this socket made already
        self.sent_version = revision
        return force or frame_news.news(self.sent, seen, moved_on)

    async def _send_frame(self, context: dict[str, Any], seen: tuple[Any, ...], reply_to: Any) -> None:
        """Send the frame of `context`, which shows `seen` (games.sockets.news)."""
        self.sent = seen
        await self.send(text_data=self._frame_text(context, context["table"]["version"], reply_to))
        await self._follow_role(context["viewer"]["seat"] is not None)

    def _frame_text(self, context: dict[str, Any], version: int, reply_to: str | int | None) -> str:
        """The state frame's text in this socket's dialect: an anonymous viewer's is made once per
        version and language (games.sockets.shared); a frame answering an act is its actor's own."""

        def build() -> str:
            if not self.json_mode:
                return render_table_html(context, self.language)
            view, legal = json_view(context), context["legal"]
            frame = {"type": "state", "version": version, "view": view, "legal": legal}
            if reply_to is not None:
                frame["reply_to"] = reply_to
            return json_text(frame)

        if reply_to is not None:
            return build()
        return shared.frame_text(context, self.json_mode, self.language, build)

    async def send_error(
        self, code: str, message: str, reply_to: str | int | None = None, retry_after: int | None = None
    ) -> None:
        if self.json_mode:
            frame: dict[str, Any] = {"type": "error", "code": code, "message": str(message)}
            if reply_to is not None:
                frame["reply_to"] = reply_to
            if retry_after is not None:
                frame["retry_after"] = retry_after
            await self.send_json(frame)
        else:
            await self.send(text_data=render_error_html(code, message, self.language, retry_after))
