"""Runs against the real services in CI (.ci/run provides PostgreSQL and Redis)."""

import uuid

from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import connection

from accounts.models import Profile


async def test_redis_pubsub_layer_delivers_group_messages_between_processes(redis_url: str) -> None:
    # Two layer instances stand in for two daphne processes sharing one Redis.
    sender = RedisPubSubChannelLayer(hosts=[redis_url])
    receiver = RedisPubSubChannelLayer(hosts=[redis_url])
    group = f"test-{uuid.uuid4().hex}"
    try:
        channel = await receiver.new_channel()
        await receiver.group_add(group, channel)
        await sender.group_send(group, {"type": "table.changed", "version": 7})
        assert await receiver.receive(channel) == {"type": "table.changed", "version": 7}
    finally:
        await receiver.flush()
        await sender.flush()


def test_ci_runs_the_suite_on_postgres(postgres: None, alice: object) -> None:
    assert connection.vendor == "postgresql"
    assert Profile.objects.get(user=alice).balance == 1000
