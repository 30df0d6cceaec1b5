"""Small runtime settings of a socket process.

**Autobahn's debug text.** Autobahn formats its whole configuration with `pprint.pformat` for
every websocket it opens, for a debug line nobody logs: 7 % of a process's loop in a
connection storm (py-spy, 1,000 tables arriving; docs/benchmarks.md, "What keeps an action
cheap"). The text is now made only if that line is written. So are the coloured names and
values of its other debug lines: one of them is written for every frame sent to every socket
(`sendData`), and looking the method's qualified name up and colouring it was about 1 % of a
busy process's CPU.

**The switch interval** (`MAHJONG_SWITCH_INTERVAL`, seconds; unset: Python's 5 ms). A socket
process runs its sockets on one event-loop thread and its database work on a few threads
(common.db_threads); a thread that gave up the interpreter for a system call gets it back only
when the running one hands it over, at the latest after the switch interval. A shorter one
hands it back sooner at the cost of more switches; A/B runs have not shown it paying on this
machine (docs/benchmarks.md), so it is a knob, not a default.
"""

from __future__ import annotations

import os
import pprint
import sys
from typing import Any


class LazyText:
    """`make(*args)`, made only when the text is formatted into a written log line."""

    def __init__(self, make: Any, *args: Any) -> None:
        self.make, self.args = make, args

    def __format__(self, spec: str) -> str:
        return format(self.make(*self.args), spec)

    def __str__(self) -> str:
        return str(self.make(*self.args))


def lazy(make: Any) -> Any:
    """`make`, deferred: what autobahn's debug lines are given instead of the text itself."""

    def deferred(*args: Any, **kwargs: Any) -> LazyText:
        return LazyText(lambda *a: make(*a, **kwargs), *args)

    deferred.made_lazy = make  # type: ignore[attr-defined]  # (installed once)
    return deferred


class LazyPformat:
    """`pprint.pformat(value)`, made only when the text is formatted into a written log line."""

    def __init__(self, value: Any, *args: Any, **kwargs: Any) -> None:
        self.value, self.args, self.kwargs = value, args, kwargs

    def __format__(self, spec: str) -> str:
        return format(pprint.pformat(self.value, *self.args, **self.kwargs), spec)

    def __str__(self) -> str:
        return pprint.pformat(self.value, *self.args, **self.kwargs)


def install() -> None:
    interval = os.environ.get("MAHJONG_SWITCH_INTERVAL")
    if interval:
        sys.setswitchinterval(float(interval))
    from autobahn.websocket import protocol

    if getattr(protocol, "pformat", None) is pprint.pformat:
        # Two of its three uses are log arguments; the third, `Timings.__str__`, must return text.
        protocol.pformat = LazyPformat  # type: ignore[attr-defined]
        protocol.Timings.__str__ = _timings_text  # type: ignore[method-assign]
    for name in ("hltype", "hlval"):  # only ever log arguments in autobahn's websocket protocol
        made = getattr(protocol, name, None)
        if made is not None and not hasattr(made, "made_lazy"):
            setattr(protocol, name, lazy(made))


def _timings_text(timings: Any) -> str:
    return pprint.pformat(timings._timings)
