"""Bounded per-process caches (hand states, views, snapshots), and the registry of all of them.

When one is full its older half goes, not all of it: emptying a cache at once sent every busy
table back to the database and to full replays in the same instant, a latency spike under load
(docs/benchmarks.md, "Live play"). Dicts keep insertion order, and `put` moves a key it stores
to the end, so the entries in use — the newest of the tables being played — stay.
"""

from __future__ import annotations

from collections.abc import Callable
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


# Every per-process cache registers how it is emptied, so that a test (or anything needing a
# fresh process's view) empties them all with one call and no module's private names.
_CLEARERS: list[Callable[[], None]] = []


def registered(cache: dict[K, V]) -> dict[K, V]:
    """Register a cache dict with `clear_all`; returns it."""
    _CLEARERS.append(cache.clear)
    return cache


def on_clear(clear: Callable[[], None]) -> Callable[[], None]:
    """Register how a cache that is not a plain dict is emptied (usable as a decorator)."""
    _CLEARERS.append(clear)
    return clear


def clear_all() -> None:
    """Empty every registered cache, as in a fresh process."""
    for clear in _CLEARERS:
        clear()
