"""The channel layer through Redis Sentinel (REDIS_URL=sentinel://…) and over several Redis hosts
(REDIS_URL=redis://a…,redis://b…), against real servers: the layer finds the primary through the
Sentinel, and spreads groups over the hosts, and carries group messages either way. The failover
itself (the primary killed, the replica promoted) is `make ha-test`'s."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from mahjong_site.env import channel_layers

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import lt_stack  # noqa: E402

REDIS_PORT, SENTINEL_PORT = 6487, 6497  # beside make ha-test's (6480–6492), never the same
SHARD_PORTS = (6488, 6489)


def redis_server(port: int) -> subprocess.Popen[bytes]:
    argv = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while lt_stack.redis_cli(port, "ping") != "PONG":
        assert time.monotonic() < deadline, f"redis on {port} did not start"
        time.sleep(0.05)
    return proc


def need_redis_server() -> None:
    if not shutil.which("redis-server"):
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed (CI=true: .ci/run must install it)")
        pytest.skip("redis-server is not installed")


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[int]:
    if not shutil.which("redis-server"):
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is not installed (CI=true: .ci/run must install it)")
        pytest.skip("redis-server is not installed")
    procs = [
        subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(REDIS_PORT),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
    ]
    conf = tmp_path / "sentinel.conf"
    conf.write_text(
        f"port {SENTINEL_PORT}\nbind 127.0.0.1\ndir {tmp_path}\n"
        f"sentinel monitor mahjong 127.0.0.1 {REDIS_PORT} 1\n"
    )
    procs.append(subprocess.Popen(["redis-server", str(conf), "--sentinel"], stdout=subprocess.DEVNULL))
    try:
        deadline = time.monotonic() + 30
        while lt_stack.redis_cli(SENTINEL_PORT, "sentinel", "get-master-addr-by-name", "mahjong").split() != [
            "127.0.0.1",
            str(REDIS_PORT),
        ]:
            assert time.monotonic() < deadline, "the Sentinel did not start"
            time.sleep(0.1)
        yield SENTINEL_PORT
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


async def test_a_group_message_goes_through_the_primary_the_sentinel_names(sentinel: int) -> None:
    config = channel_layers(f"sentinel://127.0.0.1:{sentinel}/mahjong")["default"]["CONFIG"]
    layer = RedisPubSubChannelLayer(**config)
    try:
        channel = await layer.new_channel()
        await layer.group_add("table-1", channel)
        await layer.group_send("table-1", {"type": "table.changed", "version": 7})
        assert await layer.receive(channel) == {"type": "table.changed", "version": 7}
        # it went through the Redis the Sentinel named: the group's subscription is there
        subscribed = lt_stack.redis_cli(REDIS_PORT, "pubsub", "channels")
        assert "table-1" in subscribed
    finally:
        await layer.flush()


async def test_groups_are_spread_over_several_redis_hosts_and_each_message_arrives() -> None:
    need_redis_server()
    procs = [redis_server(port) for port in SHARD_PORTS]
    urls = ",".join(f"redis://127.0.0.1:{port}/0" for port in SHARD_PORTS)
    layer = RedisPubSubChannelLayer(**channel_layers(urls)["default"]["CONFIG"])
    try:
        channel = await layer.new_channel()
        groups = [f"table-{n}" for n in range(12)]
        for group in groups:
            await layer.group_add(group, channel)
        for n, group in enumerate(groups):
            await layer.group_send(group, {"type": "table.changed", "version": n})
        received = [await layer.receive(channel) for _ in groups]
        assert sorted(m["version"] for m in received) == list(range(12))
        subscriptions = [lt_stack.redis_cli(port, "pubsub", "channels").split() for port in SHARD_PORTS]
        assert all(subscriptions), subscriptions  # both hosts carry some of the groups
        assert sum(len(s) for s in subscriptions) >= len(groups)
    finally:
        await layer.flush()
        for proc in procs:
            proc.kill()
            proc.wait()
