"""Two sites on one Redis under different database numbers do not hear each other's groups
(pub/sub channels belong to the whole server; mahjong_site.env.channel_prefix keeps them apart)."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from mahjong_site.env import channel_layers


def layer_on(url: str) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(**channel_layers(url)["default"]["CONFIG"])


async def test_a_group_message_reaches_its_own_database_only(redis_url: str) -> None:
    one = layer_on(re.sub(r"(/\d+)?$", "/3", redis_url, count=1))
    other = layer_on(re.sub(r"(/\d+)?$", "/4", redis_url, count=1))
    try:
        mine, theirs = await one.new_channel(), await other.new_channel()
        await one.group_add("table-1", mine)
        await other.group_add("table-1", theirs)
        await one.group_send("table-1", {"type": "table.changed", "version": 1})
        assert await asyncio.wait_for(one.receive(mine), 5) == {"type": "table.changed", "version": 1}
        await other.group_send("table-1", {"type": "table.changed", "version": 2})
        # the other site's listener got only its own site's message
        assert await asyncio.wait_for(other.receive(theirs), 5) == {"type": "table.changed", "version": 2}
        with pytest.raises(TimeoutError):  # and the first site heard nothing of it
            await asyncio.wait_for(one.receive(mine), 0.5)
    finally:
        await one.flush()
        await other.flush()
