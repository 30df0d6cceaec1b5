"""The survivor freezer: a full collection's survivors are frozen; a refresh looks at them again."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from mahjong_site.gc_tuning import SurvivorFreezer


class Node:
    """A container that can hold itself: a cycle only the collector frees."""

    def __init__(self) -> None:
        self.me: Node | None = self


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def freezer() -> Iterator[tuple[SurvivorFreezer, Clock]]:
    clock = Clock()
    freezer = SurvivorFreezer(refresh_seconds=60, clock=clock)
    gc.callbacks.append(freezer)
    try:
        yield freezer, clock
    finally:
        gc.callbacks.remove(freezer)
        gc.unfreeze()


def test_a_full_collection_freezes_its_survivors(freezer: tuple[SurvivorFreezer, Clock]) -> None:
    gc.unfreeze()
    survivor = Node()
    gc.collect()
    assert gc.get_freeze_count() > 0
    assert any(obj is survivor for obj in gc.get_objects()) is False  # frozen: out of the collector's lists
    survivor.me = None


def test_young_collections_freeze_nothing(freezer: tuple[SurvivorFreezer, Clock]) -> None:
    gc.unfreeze()
    gc.collect(0)
    gc.collect(1)
    assert gc.get_freeze_count() == 0


def test_a_cycle_that_became_garbage_after_freezing_waits_for_the_refresh(
    freezer: tuple[SurvivorFreezer, Clock],
) -> None:
    _freezer, clock = freezer
    node = Node()
    gc.collect()  # node survives: frozen
    ref = weakref.ref(node)
    del node  # now garbage, held only by its own cycle
    gc.collect()
    assert ref() is not None  # frozen objects are not looked at
    clock.now = 61
    gc.collect()  # the refresh: this collection looks at everything
    assert ref() is None


def test_frozen_objects_without_cycles_are_still_freed(freezer: tuple[SurvivorFreezer, Clock]) -> None:
    node = Node()
    node.me = None
    gc.collect()
    ref = weakref.ref(node)
    del node
    assert ref() is None


def test_uninstall_removes_the_freezer_and_unfreezes() -> None:
    from mahjong_site import gc_tuning

    gc_tuning.install()
    assert gc.get_freeze_count() > 0
    gc_tuning.uninstall()
    assert gc.get_freeze_count() == 0
    assert not any(isinstance(callback, SurvivorFreezer) for callback in gc.callbacks)
