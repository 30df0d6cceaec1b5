"""How a table's changes reach its sockets (games/table/travel.py): an asking lasts its time and
is answered once, and a process asks again at most so often."""

from __future__ import annotations

from typing import Any

import pytest

from games.table import travel


def test_an_asking_lasts_its_time_and_is_answered_by_an_asking_back(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(travel.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(travel, "_watched_here", lambda table_id: table_id == 5)
    monkeypatch.setattr(travel.broadcaster, "send", lambda group, message: sent.append((group, message)))
    assert travel.travels(6)  # no socket of it here: whoever hears the announcement is elsewhere
    assert not travel.travels(5)
    travel.heard(5, travel.wanted_message(5))
    assert not travel.travels(5) and sent == []  # this process's own asking, heard back
    travel.heard(5, {"type": travel.WANTED, "table": 5, "by": "another process"})
    # the other process watches the table too, and may have asked before this one listened
    assert sent == [("table-5", travel.wanted_message(5))]
    travel.heard(5, {"type": travel.WANTED, "table": 5, "by": "another process"})
    assert len(sent) == 1  # asked back once: the two processes' askings never echo
    travel.heard(5, {"type": travel.WANTED, "table": 5, "by": "a third process"})
    assert len(sent) == 2  # (a process joining later is answered too)
    now[0] += travel.WANTED_SECONDS - 1
    assert travel.travels(5)
    now[0] += 2
    assert not travel.travels(5)


def test_a_process_asks_again_at_most_so_often(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(travel.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(travel.broadcaster, "send", lambda group, message: sent.append((group, message)))
    travel.ask(5)
    travel.ask(5)
    now[0] += travel.ASK_EVERY
    travel.ask(5)
    travel.ask(6)
    assert sent == [("table-5", travel.wanted_message(5))] * 2 + [("table-6", travel.wanted_message(6))]


def test_an_announcement_names_its_table_and_version_and_carries_a_snapshot_when_given() -> None:
    assert travel.announcement(3, 12) == {"type": "table.changed", "table": 3, "version": 12}
    assert travel.announcement(3, 12, b"rows")["snapshot"] == b"rows"
    assert travel.group_name(3) == "table-3"
