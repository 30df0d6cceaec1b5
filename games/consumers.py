"""Websocket consumers: thin — parse, authorise, call services, render for this viewer.

`TableConsumer` (ws/tables/<id>/) speaks two dialects on the same logic (docs/protocol.md):
HTMX (the browser: session login, JSON form fields in, HTML fragments out) and JSON
(`?token=API_TOKEN` or `?format=json`: JSON frames both ways). Group messages carry only the
table id and version; each consumer renders its own viewer's state from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

import orjson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.db.utils import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy

from accounts import sockets
from accounts.services import token_digest, user_for_token
from games import access, broadcaster, presence, services, snapshots
from games.admission import ADMISSION
from games.announcements import AnnouncementSocket
from games.chat import ChatSocket
from games.db_threads import db
from games.presenters import json_view, snapshot_context, table_context
from games.rendering import language_from_scope, render_error_html, render_table_html
from games.spectator_delay import DelayedSpectatorSocket

MAX_FRAME = 4096  # bytes; a legal client never needs more
BURST = 20  # messages
RATE = 10.0  # messages per second refilled
MAX_REFUSED = 10  # refused (rate-limited) messages in a row before the socket is closed

log = logging.getLogger(__name__)

CLOSE_BAD_TOKEN = 4001  # also: the token was revoked while the socket was open
CLOSE_LOGGED_OUT = 4003  # the session logged out while the socket was open
CLOSE_NO_TABLE = 4004
CLOSE_FLOOD = 4008
CLOSE_TOO_BIG = 4009
# RFC 6455's "service restart" (1012) and "try again later" (1013) cannot be sent: daphne's
# websocket library closes only with 1000 or 3000–4999 (it raised, and the socket was dropped
# with 1006 instead), so the application's own codes mirror them. Clients reconnect after both.
CLOSE_SERVICE_RESTART = 4012  # the process was given up for dead and registered again
CLOSE_TRY_AGAIN = 4013  # try again later: `busy` (admission control, games.admission) or no database
UNAVAILABLE = "the server lost its database for a moment: sync and send again"
BUSY = gettext_lazy("The server is busy: reconnecting in a few seconds…")  # in the page's language


WATCH_INTERVAL = 0.25  # seconds between the watcher's version checks
WATCH_GRACE = 1.0  # seconds a version may take through the channel layer before the watcher steps in
PAUSE_SLACK = 0.005  # seconds: render the end of a pause just after it, never just before


class VersionWatcher:
    """One per process: notices table changes the channel layer did not bring.

    Changes made in another process reach this one through the channel layer only when it is
    shared (Redis). With the in-memory layer (`make run`: daphne plus a separate clock worker)
    the clock's changes would go unseen, and even Redis may drop a message under load; so every
    process also checks, a few times a second and in one query, the versions of the tables its
    own sockets watch, and nudges a socket still behind a version seen WATCH_GRACE ago. The
    grace matters under load: a nudge renders from the database, while the announcement on its
    way carries the snapshot; nudging every socket a round behind made busy processes busier.
    """

    def __init__(self) -> None:
        self.sockets: dict[int, set[TableConsumer]] = {}
        self.task: asyncio.Task[None] | None = None
        # table -> (version, when first seen) for versions some socket has not shown yet
        self.seen: dict[int, list[tuple[int, float]]] = {}

    def add(self, consumer: TableConsumer) -> None:
        self.sockets.setdefault(consumer.table_id, set()).add(consumer)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    def remove(self, consumer: TableConsumer) -> None:
        group = self.sockets.get(consumer.table_id)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[consumer.table_id]
                self.seen.pop(consumer.table_id, None)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def run(self) -> None:
        while self.sockets:
            await asyncio.sleep(WATCH_INTERVAL)
            ids = list(self.sockets)
            try:
                versions = await db(_versions)(ids)
            except Exception:  # the database restarting: try again on the next round
                continue
            now = time.monotonic()
            for table_id, version in versions.items():
                consumers = list(self.sockets.get(table_id, ()))
                due = self._overdue(table_id, version, consumers, now)
                for consumer in consumers:
                    if due is not None and consumer.sent_version < due:
                        with contextlib.suppress(Exception):
                            await consumer.table_changed({"version": version})

    async def _heartbeat(self) -> None:
        """This process's heartbeat (games.presence). If it had been given up for dead, its
        sockets were taken out of the counts: close them, so that they reconnect and count (the
        disconnect of a socket the clock dropped counts nothing: its row is gone)."""
        try:
            alive = await db(presence.heartbeat)()
        except Exception:  # the database restarting: the next beat
            return
        if not alive:
            for consumers in list(self.sockets.values()):
                for consumer in list(consumers):
                    with contextlib.suppress(Exception):
                        await consumer.close(code=CLOSE_SERVICE_RESTART)

    def _overdue(self, table_id: int, version: int, consumers: list[TableConsumer], now: float) -> int | None:
        """The newest version of the table first seen at least WATCH_GRACE ago that some socket
        has not shown yet (None: every socket is at most a grace behind)."""
        history = self.seen.setdefault(table_id, [])
        if not history or history[-1][0] < version:
            history.append((version, now))
        shown = min((c.sent_version for c in consumers), default=version)
        history[:] = [(v, t) for v, t in history if v > shown]
        return max((v for v, t in history if t <= now - WATCH_GRACE), default=None)


def _versions(ids: list[int]) -> dict[int, int]:
    return services.TABLE_ROWS.column(ids, "revision")  # a few times a second: no ORM compiling


WATCHER = VersionWatcher()


class Heartbeat:
    """One per process: once the process has held a socket it is registered (games.presence) and
    beats every HEARTBEAT_SECONDS for as long as it lives, with sockets or without. (It used to
    beat from the version watcher, which stops with the last socket: the clock then gave the idle
    process up, and that excused the disconnects of players anywhere — an escape made
    penalty-free by closing one's socket on a quiet process, issue 23.)"""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None

    def ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    async def run(self) -> None:
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            await WATCHER._heartbeat()


HEARTBEAT = Heartbeat()


class PauseEnds:
    """One timer per process for the end of each pause: the sockets of a table that showed a
    version during its pause render it again together when the pause has passed (a timer and
    a task per socket per discard were a measurable part of a busy process's loop)."""

    def __init__(self) -> None:
        # (table, version) -> the loop its timer runs on, and the sockets to render
        self.pending: dict[tuple[int, int], tuple[asyncio.AbstractEventLoop, set[TableConsumer]]] = {}

    def add(self, consumer: TableConsumer, version: int, pause_ms: int) -> None:
        key = (consumer.table_id, version)
        loop = asyncio.get_running_loop()
        entry = self.pending.get(key)
        if entry is None or entry[0] is not loop:  # (another loop's timer: a test's, never due here)
            entry = self.pending[key] = (loop, set())
            loop.call_later(pause_ms / 1000 + PAUSE_SLACK, self._due, key, entry)
        entry[1].add(consumer)

    def _due(self, key: tuple[int, int], entry: tuple[asyncio.AbstractEventLoop, set[TableConsumer]]) -> None:
        if self.pending.get(key) is entry:
            del self.pending[key]
        entry[0].create_task(self._render(key[1], entry[1]))

    async def _render(self, version: int, sockets: set[TableConsumer]) -> None:
        for consumer in sockets:
            try:
                await consumer.after_pause(version)
            except (OperationalError, InterfaceError) as e:  # the watcher renders it once it is back
                log.warning("database lost rendering the end of a pause (table %s): %s", consumer.table_id, e)
            except Exception:  # one socket's failure is not its neighbours'
                log.exception("rendering the end of a pause failed (table %s)", consumer.table_id)


PAUSE_ENDS = PauseEnds()


MAX_PING_FRAME = 1024  # bytes: a liveness probe needs a few
MAX_PING_DEPTH = 16  # nesting levels echoed back


_NOT_PARSED = object()  # what `read_frame` returns for a frame it refused (already answered)


async def read_frame(consumer: Any, text_data: str | None, bytes_data: bytes | None, max_bytes: int) -> Any:
    """The first checks of every socket's frame, in the order a flood meets them: its size (too
    big closes the socket), the consumer's token bucket (refusals in a row close it), then JSON
    (RecursionError: "[[[[…" nested past the stack, the fuzzer's). Returns the parsed value, or
    `_NOT_PARSED` after telling the client why."""
    raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
    if len(raw.encode()) > max_bytes:
        await consumer.send_error("too_big", f"messages are at most {max_bytes} bytes")
        await consumer.close(code=CLOSE_TOO_BIG)
        return _NOT_PARSED
    if not consumer.bucket.take():
        consumer.refused += 1
        await consumer.send_error("rate_limited", "too many messages; slow down")
        if consumer.refused >= MAX_REFUSED:
            await consumer.close(code=CLOSE_FLOOD)
        return _NOT_PARSED
    consumer.refused = 0
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        await consumer.send_error("bad_json", "a message is one JSON value")
        return _NOT_PARSED


class PingConsumer(AsyncWebsocketConsumer):
    """Accepts any connection that passed the Origin check and echoes each JSON message.

    Bounded like a table socket: frames of at most MAX_PING_FRAME bytes (larger: `too_big`,
    closed 4009), the same token bucket (`rate_limited`, closed 4008 after MAX_REFUSED in a
    row), and input that is not JSON or nests deeper than MAX_PING_DEPTH gets an error frame
    (`bad_json`, `too_deep`) instead of a traceback in the log.
    """

    async def connect(self) -> None:
        self.bucket = TokenBucket()
        self.refused = 0
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content = await read_frame(self, text_data, bytes_data, MAX_PING_FRAME)
        if content is _NOT_PARSED:
            return
        if _depth(content) > MAX_PING_DEPTH:
            await self.send_error("too_deep", f"messages nest at most {MAX_PING_DEPTH} levels")
            return
        await self.send(text_data=json.dumps(content))

    async def send_error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))


def _depth(value: Any) -> int:
    """How deeply `value` nests (a scalar: 0), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


class TokenBucket:
    def __init__(self, burst: int = BURST, rate: float = RATE) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# Issue 18: announcement banners, table chat and the spectator delay come in as mixins.
class TableConsumer(AnnouncementSocket, ChatSocket, DelayedSpectatorSocket, AsyncWebsocketConsumer):
    table_id: int
    user: Any
    json_mode: bool
    sent_version: int
    counted: bool
    closed = False  # set on disconnect: a pause ending later renders nothing
    revoked = False  # set when its token is revoked or its session logs out (closing)
    refused_admission = False  # told `busy` at the handshake (games.admission)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()` before every message: that
        hops to channels' one shared sync thread for each frame and each group message of every
        socket (a queue all sockets of the process wait in under load), to tidy connections of
        the loop's thread, which never holds one here (database work runs through `db`, which
        tidies its own threads' connections before and after each call)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except (OperationalError, InterfaceError) as e:
            await self._database_lost(message["type"], e)

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
        self.sent: tuple[Any, ...] | None = None  # what this viewer saw in the last frame (`_seen`)
        self.counted = False
        self.counted_seated: bool | None = None  # counted for a seat or as a spectator (first frame)
        self.socket_id: int | None = None  # its OpenSocket row (games.presence)
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
            self.user = await db(user_for_token)(token)
            if self.user is None:
                await self.send_error("bad_token", "unknown or revoked API token")
                await self.close(code=CLOSE_BAD_TOKEN)
                return
        else:
            self.user = self.scope.get("user") or AnonymousUser()
            session_key = getattr(self.scope.get("session"), "session_key", None)
            if self.user.is_authenticated and session_key:
                await self._join_auth_group(sockets.session_group(session_key))
        invite = (query.get("invite") or [""])[0]
        if not await db(self._allowed)(invite):
            await self.send_error("no_table", "there is no such table (or it is private)")
            await self.close(code=CLOSE_NO_TABLE)
            return
        await self.channel_layer.group_add(services.group_name(self.table_id), self.channel_name)
        await self.join_announcements()
        if presence.registered() is None:
            await db(presence.heartbeat)()
        HEARTBEAT.ensure()
        version, self.socket_id = await db(services.connect)(
            self.table_id, self._actor(), presence.registered()
        )
        self.counted = True
        snapshot = snapshots.at(self.table_id, version)  # the connect's own change, when it made one
        context = snapshot_context(snapshot, self._actor()) if snapshot is not None else None
        await self.load_spectator_delay()  # games.spectator_delay
        await self.send_state(force=True, context=context)
        ADMISSION.leave(self)  # the handshake is done: the next one may start
        WATCHER.add(self)

    async def _admitted(self) -> bool:
        """Admission control (games.admission): a saturated process tells the socket `busy`,
        with the seconds to wait (`retry_after`), and closes it with 4013 before any work."""
        wait = ADMISSION.enter(self)
        if wait is None:
            return True
        self.refused_admission = True
        await self.send_error("busy", BUSY, retry_after=wait)  # type: ignore[arg-type]  # lazy: HTML renders it
        await self.close(code=CLOSE_TRY_AGAIN)
        return False

    async def _join_auth_group(self, group: str) -> None:
        """Revoking the token or logging the session out closes this socket (accounts.sockets)."""
        self.auth_group = group
        await self.channel_layer.group_add(group, self.channel_name)

    async def auth_revoked(self, event: dict[str, Any]) -> None:
        """This socket's token was revoked or its session logged out: it stops acting as the user."""
        self.revoked = True  # frames already on their way are dropped, not acted on
        code = event.get("code", "token_revoked")
        message = "this API token was revoked" if code == "token_revoked" else "you logged out"
        await self.send_error(code, message)
        await self.close(code=CLOSE_BAD_TOKEN if code == "token_revoked" else CLOSE_LOGGED_OUT)

    def _allowed(self, invite: str) -> bool:
        table = services.TABLE_ROWS.find("id", self.table_id)  # every socket's first read: precompiled
        if table is None:
            return False
        if invite and invite == table.invite_token:
            return True
        return access.may_watch(table, self.user, self.scope.get("session"))

    def _actor(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None

    async def disconnect(self, code: int) -> None:
        self.closed = True  # a pause ending after this renders nothing
        ADMISSION.leave(self)  # (a handshake cut short)
        if self.refused_admission:
            return  # it joined nothing and counted nowhere
        if getattr(self, "auth_group", None):
            await self.channel_layer.group_discard(self.auth_group, self.channel_name)
        if not hasattr(self, "table_id"):
            return
        WATCHER.remove(self)
        await self.channel_layer.group_discard(services.group_name(self.table_id), self.channel_name)
        await self.leave_announcements()
        if not getattr(self, "counted", False):
            return
        args = (self.table_id, self._actor(), self.counted_seated, self.socket_id)
        try:
            await db(services.disconnect)(*args)
        except (OperationalError, InterfaceError):  # a connection reset just then: once more, on a fresh one
            await db(services.disconnect)(*args)

    # --- incoming ---------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return
        message = await read_frame(self, text_data, bytes_data, MAX_FRAME)
        if message is _NOT_PARSED:
            return
        if not isinstance(message, dict):
            await self.send_error("bad_message", "a message is one JSON object with a 'type'")
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
        elif kind in ("say", "report", "mute"):  # table chat (games.chat)
            await self.chat_route(message)
        else:
            await self.send_error("unknown_type", "type must be one of act, sync, ping, say, report, mute")

    async def act(self, message: dict[str, Any]) -> None:
        action = message.get("action")
        reply_to = _reply_id(message.get("id")) if self.json_mode else None
        sits = isinstance(action, dict) and action.get("type") == "sit" and self.counted_seated is False
        try:
            table = await db(services.perform)(
                self.table_id,
                self._actor(),
                message.get("version"),
                action,
                None,
                self.socket_id if sits else None,
            )
            if sits:
                self.counted_seated = True  # the sit moved this socket to the seat
        except services.ServiceError as e:
            await self.send_error(e.code, e.message, reply_to)
            if e.code == "stale_version":
                await self.send_state(force=True)  # the client is behind: give it the full state
            return
        except (OperationalError, InterfaceError) as e:
            await self._database_lost("websocket.receive", e, reply_to)
            return
        snapshot = snapshots.at(self.table_id, table.revision)  # the change's own, kept on commit
        context = snapshot_context(snapshot, self._actor()) if snapshot else None
        sent = await self.send_state(context=context, reply_to=reply_to)
        if reply_to is not None and not sent and self.sent is not None:  # it went out already
            await self.send_json({"type": "ack", "reply_to": reply_to, "version": self.sent[0]})

    # --- outgoing ---------------------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version", 0)
        if version <= self.sent_version:
            return
        blob = event.get("snapshot")
        snapshot = snapshots.at(self.table_id, version)
        if snapshot is None and isinstance(blob, bytes):
            snapshot = snapshots.keep(blob)  # once per process: the other sockets find it kept
        context = snapshot_context(snapshot, self._actor()) if snapshot is not None else None
        await self.send_state(context=context)

    async def send_state(
        self, force: bool = False, context: dict[str, Any] | None = None, reply_to: str | int | None = None
    ) -> bool:
        """Send this viewer's state: from `context` when given (rendered from a snapshot without
        the database), else loaded; `reply_to`: the id of the act it answers (JSON). Whether it
        was sent (not when this socket already showed that version)."""
        if context is None:
            context = await db(table_context)(self.table_id, self._actor(), True)
        context = await self.delayed(context)  # a spectator of a quick match sees it behind
        revision, version = context["revision"], context["table"]["version"]
        pause_ms = context["table"]["pause_ms"]
        if pause_ms:
            PAUSE_ENDS.add(self, revision, pause_ms)
        if revision < self.sent_version and not force:
            return False  # an older render than one this socket made already
        seen = _seen(context)
        self.sent_version = revision
        if seen == self.sent and not force:
            # Nothing this viewer can see changed: several group messages for one change, or a
            # change within a claim window this viewer is not in (its frame would tell).
            return False
        self.sent = seen
        if self.json_mode:
            view, legal = json_view(context), context["legal"]
            frame = {"type": "state", "version": version, "view": view, "legal": legal}
            if reply_to is not None:
                frame["reply_to"] = reply_to
            await self.send_json(frame)
        else:
            await self.send(text_data=render_table_html(context, self.language))
        await self._follow_role(context["viewer"]["seat"] is not None)
        return True

    async def _follow_role(self, seated: bool) -> None:
        """Count this socket for its user's seat once they sit down (or as a spectator once they
        stand up) while it stays open."""
        if not self.counted or self._actor() is None:
            return
        if self.counted_seated is None:
            self.counted_seated = seated
        elif seated != self.counted_seated:
            with contextlib.suppress(services.ServiceError):  # the table is gone: nothing to count
                self.counted_seated = await db(services.move_presence)(
                    self.table_id, self._actor(), self.counted_seated, self.socket_id
                )

    async def after_pause(self, version: int) -> None:
        """The pause after a discard ends without a change (nothing is written): render this
        version again when it has passed (PAUSE_ENDS), unless a newer one went out meanwhile."""
        if self.closed or self.sent_version != version:
            return
        snapshot = snapshots.at(self.table_id, version)
        if snapshot is None and snapshots.newest_version(self.table_id) > version:
            return  # a newer version reached this process: its announcement renders it here too
        context = snapshot_context(snapshot, self._actor()) if snapshot is not None else None
        await self.send_state(context=context)

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

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """A frame for a socket the peer already closed is dropped (its disconnect is on the way),
        not raised out of the consumer as an application error."""
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def send_json(self, content: dict[str, Any]) -> None:
        # orjson: a state frame is encoded for every viewer of every version (stdlib json took
        # a tenth of a socket process's CPU under load); same compact UTF-8 text as before.
        await self.send(text_data=orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode())


def _seen(context: dict[str, Any]) -> tuple[Any, ...]:
    """What a frame shows its viewer, but for the running countdowns: every change everybody sees
    bumps the version; the rest is this viewer's own (its moves, its claim held) and whether it
    is shown the pause."""
    table = context["table"]
    own = next((seat["pending"] for seat in table["seats"] if seat["is_you"]), None)
    return (table["version"], table["paused"], orjson.dumps(context["legal"]), orjson.dumps(own))


MAX_REPLY_ID = 64  # characters of an act's `id`


def _reply_id(value: Any) -> str | int | None:
    """An act's `id` echoed as `reply_to` in its answer: a short string or a whole number (any
    other value is ignored, as if there were none)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -(2**53) < value < 2**53:
        return value
    if isinstance(value, str) and 0 < len(value) <= MAX_REPLY_ID:
        return value
    return None


def normalise(message: dict[str, Any]) -> dict[str, Any]:
    """HTMX's ws extension sends form fields (strings) plus a HEADERS key: make them an act."""
    if "HEADERS" not in message:
        return message
    out = {k: v for k, v in message.items() if k != "HEADERS"}
    action = out.get("action")
    if isinstance(action, str):
        try:
            out["action"] = json.loads(action)
        except (ValueError, RecursionError):
            out["action"] = None
    version = out.get("version")
    if isinstance(version, str) and version.strip().isdigit():
        out["version"] = int(version)
    if "type" not in out and "action" in out:
        out["type"] = "act"
    return out


