"""common/caches.py: a full cache drops its older half, never the entry just stored."""

from __future__ import annotations

from common import caches


def test_a_full_cache_keeps_its_newer_half() -> None:
    cache: dict[int, str] = {}
    for key in range(10):
        caches.put(cache, key, f"v{key}", limit=10)
    assert len(cache) == 10
    caches.put(cache, 10, "v10", limit=10)
    assert list(cache) == [5, 6, 7, 8, 9, 10]


def test_storing_a_key_again_makes_it_newest() -> None:
    cache: dict[str, int] = {}
    for key in "abcd":
        caches.put(cache, key, 0, limit=4)
    caches.put(cache, "a", 1, limit=4)  # the table "a" changed again: it is in use
    caches.put(cache, "e", 0, limit=4)
    assert "a" in cache and cache["a"] == 1
    assert list(cache) == ["d", "a", "e"]
