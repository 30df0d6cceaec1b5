"""mahjong_site.loop_tuning: the switch interval, and autobahn's debug text made only when written."""

from __future__ import annotations

import pprint
import string
import sys

import pytest
from autobahn.websocket import protocol

from mahjong_site import loop_tuning


@pytest.fixture
def restored() -> object:
    interval, pformat, timings_str = sys.getswitchinterval(), protocol.pformat, protocol.Timings.__str__
    hltype, hlval = protocol.hltype, protocol.hlval
    yield None
    sys.setswitchinterval(interval)
    protocol.hltype, protocol.hlval = hltype, hlval
    protocol.pformat = pformat
    protocol.Timings.__str__ = timings_str  # type: ignore[method-assign]


def test_the_switch_interval_is_set_only_when_asked(
    restored: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.setswitchinterval(0.005)
    monkeypatch.delenv("MAHJONG_SWITCH_INTERVAL", raising=False)
    loop_tuning.install()
    assert sys.getswitchinterval() == pytest.approx(0.005)
    monkeypatch.setenv("MAHJONG_SWITCH_INTERVAL", "0.001")
    loop_tuning.install()
    assert sys.getswitchinterval() == pytest.approx(0.001)


def test_autobahn_formats_its_configuration_only_when_the_line_is_written(restored: object) -> None:
    loop_tuning.install()
    config = [("openHandshakeTimeout", 5, "Factory"), ("autoPingInterval", 0, "Factory")]
    made = protocol.pformat(config)
    assert isinstance(made, loop_tuning.LazyPformat)  # nothing formatted yet
    written = string.Formatter().vformat("\n{attrs}", (), {"attrs": made})  # as twisted's logger does
    assert written == "\n" + pprint.pformat(config)
    assert str(made) == pprint.pformat(config)
    timings = protocol.Timings()
    timings.track("onOpen")
    assert isinstance(str(timings), str) and "onOpen" in str(timings)


def test_autobahn_colours_the_names_in_its_debug_lines_only_when_written(restored: object) -> None:
    """A debug line is given for every frame sent (`sendData`): its coloured method name and
    values are made when the line is written, and the text is what autobahn would have written."""
    from autobahn import util

    loop_tuning.install()
    loop_tuning.install()  # (installed once: not wrapped twice)
    assert protocol.hltype.made_lazy is util.hltype
    func, value = protocol.hltype(protocol.WebSocketProtocol.sendData), protocol.hlval(2653)
    assert isinstance(func, loop_tuning.LazyText) and isinstance(value, loop_tuning.LazyText)
    written = string.Formatter().vformat("{func} sent {n} bytes", (), {"func": func, "n": value})
    expected = f"{util.hltype(protocol.WebSocketProtocol.sendData)} sent {util.hlval(2653)} bytes"
    assert written == expected and "sendData" in written
    assert str(protocol.hlval("x", color="red")) == util.hlval("x", color="red")
