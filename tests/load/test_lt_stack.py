"""The load test's CPU accounting (scripts/lt_stack.py): a killed process's CPU still counts."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import lt_stack  # noqa: E402


def test_cpu_used_counts_survivors_newcomers_and_the_killed() -> None:
    before = {1: ("daphne", 10.0), 2: ("daphne", 5.0), 3: ("postgres", 1.0)}
    after = {1: ("daphne", 12.5), 4: ("daphne", 0.75), 3: ("postgres", 1.5)}  # 2 killed, 4 its restart
    exited = {2: ("daphne", 6.0)}  # read just before the kill
    used = lt_stack.cpu_used(before, after, exited)
    assert used["daphne"] == 2.5 + 0.75 + 1.0
    assert used["postgres"] == 0.5
    assert used["other"] == 0.0


def test_cpu_readings_reads_this_process() -> None:
    readings = lt_stack.cpu_readings({os.getpid()})
    group, used = readings[os.getpid()]
    assert group in (*lt_stack.CPU_GROUPS, "other")
    assert used >= 0.0
    assert lt_stack.cpu_readings({2**22 + 12345}) == {}  # no such process: nothing, no error


def test_stolen_ticks_are_a_part_of_all_ticks() -> None:
    stolen, total = lt_stack.stolen_ticks()
    assert 0 <= stolen <= total and total > 0
