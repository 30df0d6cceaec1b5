#!/usr/bin/env python3
"""CPU of a table's announcements on their way to its sockets in one process (docs/benchmarks.md).

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python scripts/channel_bench.py [--sockets 4]
        [--messages 2000] [--passes 8]

The channel layer of the settings (Redis pub/sub with REDIS_URL), one table's `--sockets` sockets
in this process, `--messages` announcements of the size of a real one (the packed snapshot
~2 kB) published to the table's group and awaited until every socket has handled each. Two ways,
passes alternating: *per socket* — each socket's own channel in the group, read by Channels'
consumer loop (`await_many_dispatch`, as a consumer reads its channel beside its websocket);
*fanout* — the process's one channel per table (games.sockets.fanout) handing each message to
every socket. Prints the CPU per announcement (all sockets), each pass and the median.
"""

from __future__ import annotations

import asyncio
import functools
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

import django  # noqa: E402

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from channels.utils import await_many_dispatch  # noqa: E402

from games.sockets.fanout import TableFanout  # noqa: E402
from scripts.bench_passes import bench_arguments  # noqa: E402

BLOB = os.urandom(2100)  # a packed snapshot's size


class Socket:
    """A table socket's handler: counts what it was handed."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.handled = 0
        self.done: asyncio.Event = asyncio.Event()
        self.expected = 0

    async def dispatch(self, message: dict[str, Any]) -> None:
        await self.table_changed(message)

    async def table_changed(self, message: dict[str, Any]) -> None:
        self.handled += 1
        if self.handled >= self.expected:
            self.done.set()


async def _never() -> dict[str, Any]:
    await asyncio.Event().wait()
    return {}


async def per_socket(layer: Any, group: str, sockets: list[Socket], messages: int) -> float:
    channels = [await layer.new_channel() for _ in sockets]
    for channel in channels:
        await layer.group_add(group, channel)
    readers = [
        asyncio.ensure_future(await_many_dispatch([_never, functools.partial(layer.receive, ch)], s.dispatch))
        for s, ch in zip(sockets, channels, strict=True)
    ]
    spent = await _publish(layer, group, sockets, messages)
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for channel in channels:
        await layer.group_discard(group, channel)
    return spent


async def fanout(layer: Any, group: str, sockets: list[Socket], messages: int) -> float:
    hub = TableFanout()
    for s in sockets:
        await hub.join(s, group)
    spent = await _publish(layer, group, sockets, messages)
    for s in sockets:
        await hub.leave(s)
    return spent


async def _publish(layer: Any, group: str, sockets: list[Socket], messages: int) -> float:
    for s in sockets:
        s.handled, s.expected, s.done = 0, messages, asyncio.Event()
    await asyncio.sleep(0.2)  # the subscriptions settle
    start = time.process_time()
    for version in range(messages):
        message = {"type": "table.changed", "table": 1, "version": version, "snapshot": BLOB}
        await layer.group_send(group, message)
        if version % 50 == 49:
            await asyncio.sleep(0)  # (a paced sender: the readers keep up)
    for s in sockets:
        await s.done.wait()
    return (time.process_time() - start) / messages * 1e6


async def main() -> int:
    parser = bench_arguments(__doc__, 2000)
    parser.add_argument("--sockets", type=int, default=4)
    args = parser.parse_args()
    layer = get_channel_layer()
    times: dict[str, list[float]] = {"per socket": [], "fanout": []}
    for i in range(args.passes):
        for name, way in (("per socket", per_socket), ("fanout", fanout)):
            sockets = [Socket(1) for _ in range(args.sockets)]
            times[name].append(await way(layer, f"bench-fanout-{i}", sockets, args.calls))
    print(f"{type(layer).__name__}, {args.sockets} sockets, {args.calls} announcements per pass")
    for name, spent in times.items():
        passes = " ".join(f"{t:.1f}" for t in spent)
        print(f"{name:10} median {statistics.median(spent):6.1f} µs CPU per announcement  (passes: {passes})")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
