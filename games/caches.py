"""Bounded per-process caches (hand states, views, snapshots).

When one is full its older half goes, not all of it: emptying a cache at once sent every busy
table back to the database and to full replays in the same instant, a latency spike under load
(docs/benchmarks.md, "Session 3"). Dicts keep insertion order, and `put` moves a key it stores
to the end, so the entries in use — the newest of the tables being played — stay.
"""

from __future__ import annotations

from itertools import islice
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def put(cache: dict[K, V], key: K, value: V, limit: int) -> V:
    cache.pop(key, None)
    if len(cache) >= limit:
        for old in list(islice(cache, len(cache) // 2)):
            del cache[old]
    cache[key] = value
    return value
