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
    yield None
    sys.setswitchinterval(interval)
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
