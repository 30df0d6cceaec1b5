"""Keep the cyclic garbage collector's full collections short in a long-running server.

A socket process holds tens of thousands of long-lived containers (its sockets' tasks and
queues, cached hand states, snapshots); every full collection walked all of them again:
70–180 ms with the whole process stopped, several times a minute under load, which is what a
player's slowest frames were made of (docs/benchmarks.md, "What keeps an action cheap"). What survives a full
collection is long-lived, so it is frozen (moved where the collector does not look); the next
full collection walks only what is newer. Frozen objects are still freed by reference counting;
only a cycle among them that becomes garbage later would be kept, so every `refresh_seconds`
one full collection looks at everything again.
"""

import gc
import time
from collections.abc import Callable
from typing import Any

REFRESH_SECONDS = 600.0


class SurvivorFreezer:
    """A `gc.callbacks` entry: freeze the survivors of each full collection."""

    def __init__(
        self, refresh_seconds: float = REFRESH_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.refresh_seconds = refresh_seconds
        self.clock = clock
        self.since = clock()

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start" and self.clock() - self.since >= self.refresh_seconds:
            self.since = self.clock()
            gc.unfreeze()  # this collection looks at everything: cycles among old objects go
        elif phase == "stop":
            gc.freeze()


def install() -> None:
    """Freeze what is loaded now (the imported code) and the survivors of every full collection."""
    gc.freeze()
    if not any(isinstance(callback, SurvivorFreezer) for callback in gc.callbacks):
        gc.callbacks.append(SurvivorFreezer())


def uninstall() -> None:
    """Back to the collector's defaults (the test process: `gc.get_referrers`, which libraries
    use, does not see frozen objects)."""
    gc.callbacks[:] = [callback for callback in gc.callbacks if not isinstance(callback, SurvivorFreezer)]
    gc.unfreeze()
