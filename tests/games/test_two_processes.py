"""Two daphne processes and a clock worker over PostgreSQL and Redis serve one table.

Skipped locally without REDIS_URL and a PostgreSQL DATABASE_URL; a failure under CI=true.
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth.models import User

from accounts.services import create_api_token
from games.models import Hand, HandAction, Table
from tests.servers import create_table

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_player", ROOT / "scripts" / "api_player.py")
assert _spec is not None and _spec.loader is not None
api_player = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_player)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_two_processes_serve_one_table(alice: User, bob: User, stack: list[str]) -> None:
    url_a, url_b = stack
    key_a = await sync_to_async(create_api_token)(alice)
    key_b = await sync_to_async(create_api_token)(bob)
    table_id = await sync_to_async(create_table)(url_a, key_a)
    # alice plays through process A, bob through process B; neither knows mahjong.
    frames = await asyncio.gather(
        api_player.play(url_a, key_a, table_id, hands=1, seed=1, timeout=240),
        api_player.play(url_b, key_b, table_id, hands=1, seat=1, seed=2, timeout=240),
    )
    for frame, seat in zip(frames, (0, 1), strict=True):
        assert frame["view"]["viewer"]["seat"] == seat
        assert frame["view"]["last_result"]["hand"] == 1
    assert frames[0]["view"]["last_result"]["payments"] == frames[1]["view"]["last_result"]["payments"]
    table = await sync_to_async(Table.objects.get)(pk=table_id)
    hand = await sync_to_async(Hand.objects.get)(table=table, number=1)
    assert hand.status == "over"
    actors = await sync_to_async(
        lambda: set(HandAction.objects.filter(hand=hand).values_list("seat", flat=True))
    )()
    assert actors == {0, 1}
