"""The in-process clock (make run without Redis): started by the first request, it moves tables."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.clock import task as clock_task
from games.models import Table
from games.table import commands
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db(transaction=True)


async def _noop_app(scope, receive, send) -> None:
    return None


async def test_the_first_request_starts_the_clock_and_it_plays_the_bots(alice):
    table = await database_sync_to_async(bot_table)(alice, "shanghai", 2)
    await database_sync_to_async(commands.set_auto)(table.pk, alice, True)
    await database_sync_to_async(commands.start_hand)(table.pk, alice)
    before = (await Table.objects.aget(pk=table.pk)).version
    await clock_task.ClockStarter(_noop_app)({"type": "http"}, None, None)
    task = clock_task.ensure_running()
    assert not task.done()
    try:
        for _ in range(200):  # bounded: the bots' first moves are due within a few seconds
            await asyncio.sleep(0.1)
            if (await Table.objects.aget(pk=table.pk)).version > before:
                break
        assert (await Table.objects.aget(pk=table.pk)).version > before
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
