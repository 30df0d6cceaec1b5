"""Admission control (games.sockets.admission): a saturated process tells new sockets to come back later."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User

from games.models import Seat, Table
from games.sockets import admission, frames
from games.sockets.admission import ADMISSION, Admission, retry_after
from games.sockets.models import OpenSocket
from tests.games.test_consumers import open_socket, receive, setup_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def limit_one(settings: Any) -> Any:
    """One handshake at a time, and one (another socket's) already in progress."""
    settings.ADMIT_CONNECTING = 1
    settings.ADMIT_RETRY_AFTER = 2
    ADMISSION.started.clear()
    ADMISSION.enter("someone else's handshake")
    yield settings
    ADMISSION.started.clear()


async def test_a_saturated_process_says_busy_with_retry_after_and_closes_4013(
    alice: User, limit_one: Any
) -> None:
    table = await setup_table(alice)
    version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
    comm = await open_socket(table.pk, alice)
    frame = await receive(comm)
    assert frame["type"] == "error" and frame["code"] == "busy"
    assert frame["retry_after"] == 4  # two handshakes' worth for a limit of one: twice the base
    assert (await comm.receive_output(timeout=2))["code"] == frames.CLOSE_TRY_AGAIN == 4013
    # no work was done for it: not counted, no socket row, no new version
    seat = await sync_to_async(Seat.objects.get)(table=table, index=0)
    assert seat.connections == 0
    assert not await sync_to_async(OpenSocket.objects.exists)()
    assert await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)() == version
    assert ADMISSION.in_progress() == 1  # the refused socket took no place


async def test_once_the_handshakes_finish_the_next_socket_is_served(alice: User, limit_one: Any) -> None:
    table = await setup_table(alice)
    ADMISSION.leave("someone else's handshake")
    comm = await open_socket(table.pk, alice)
    assert (await receive(comm))["type"] == "state"
    assert ADMISSION.in_progress() == 0  # its own handshake is over with its first state
    await comm.disconnect()


async def test_the_browser_gets_the_notice_with_retry_after(alice: User, limit_one: Any) -> None:
    table = await setup_table(alice)
    comm = await open_socket(table.pk, alice, query="")  # the HTMX dialect
    html = await comm.receive_from(timeout=5)
    assert 'data-code="busy"' in html and 'data-retry-after="4"' in html
    assert (await comm.receive_output(timeout=2))["code"] == 4013


def test_no_limit_admits_everyone(settings: Any) -> None:
    settings.ADMIT_CONNECTING = 0
    gate = Admission()
    assert all(gate.enter(n) is None for n in range(1000))


def test_the_limit_counts_handshakes_in_progress_and_forgets_stale_ones(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.ADMIT_CONNECTING = 2
    settings.ADMIT_RETRY_AFTER = 2
    now = [1000.0]
    monkeypatch.setattr(admission.time, "monotonic", lambda: now[0])
    gate = Admission()
    assert gate.enter("a") is None and gate.enter("b") is None
    assert gate.enter("c") == 4
    gate.leave("a")
    assert gate.enter("c") is None
    now[0] += admission.STALE_SECONDS + 1  # handshakes that died without telling
    assert gate.in_progress() == 0 and gate.enter("d") is None


def test_retry_after_grows_with_the_queue_and_is_bounded(settings: Any) -> None:
    settings.ADMIT_RETRY_AFTER = 2
    assert retry_after(1, 32) == 2
    assert retry_after(32, 32) == 4
    assert retry_after(100, 32) == 8
    assert retry_after(10_000, 32) == admission.MAX_RETRY_AFTER


def test_the_busy_notice_speaks_both_languages() -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        assert str(frames.BUSY) == "服务器繁忙：几秒后自动重新连接…"
    with translation.override("en"):
        assert str(frames.BUSY).startswith("The server is busy")


def test_every_close_code_the_server_uses_is_one_daphne_can_send() -> None:
    """daphne's websocket library (autobahn) closes only with 1000 or 3000–4999: 1012 and 1013
    raised in the server and the client saw a dropped connection (1006) instead."""
    from autobahn.websocket.protocol import WebSocketProtocol

    codes = {getattr(frames, name) for name in dir(frames) if name.startswith("CLOSE_")}
    assert {frames.CLOSE_TRY_AGAIN, frames.CLOSE_SERVICE_RESTART} <= codes
    protocol = WebSocketProtocol()
    protocol.state = WebSocketProtocol.STATE_CLOSED  # validates the code, then sends nothing
    protocol.log = SimpleNamespace(debug=lambda *args, **kwargs: None)  # (set up by a real factory)
    for code in codes:
        protocol.sendClose(code=code)  # raises for a code it cannot send
