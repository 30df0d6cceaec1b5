"""The command line's record subcommands: `python -m games.engine verify|replay < record.json`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.record import MAX_BYTES, match_record
from tests.engine.test_record import record_of

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, stdin: str | bytes) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "games.engine", command], input=data, capture_output=True, cwd=ROOT
    )


@pytest.fixture(scope="module")
def record() -> dict:
    return record_of("tianjin", seed=5)


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_good_record_exits_0(command: str, record: dict) -> None:
    out = run(command, json.dumps(record))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["ok"] and report["hands"][0]["ok"]


def test_verify_reports_the_commitment_and_the_draws(record: dict) -> None:
    hand = json.loads(run("verify", json.dumps(record)).stdout)["hands"][0]
    assert hand["commitment"] == record["fairness"]["commitment"]
    assert hand["draws"] == sum(1 for e in record["events"] if e["type"] == "draw") > 0


def test_a_match_record_checks_every_hand(record: dict) -> None:
    out = run("replay", json.dumps(match_record({"variant": "tianjin", "players": []}, [record, record])))
    assert out.returncode == 0 and len(json.loads(out.stdout)["hands"]) == 2


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_tampered_draw_exits_1_with_the_first_mismatch(command: str, record: dict) -> None:
    bad = json.loads(json.dumps(record))
    draws = [e for e in bad["events"] if e["type"] == "draw"]
    draws[-1]["tile"] = "1m" if draws[-1]["tile"] != "1m" else "2m"
    out = run(command, json.dumps(bad))
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert report == {"ok": False, "error": "wrong_draw", "message": report["message"]}
    assert "the wall and the actions give" in report["message"]


def test_over_a_megabyte_exits_1(record: dict) -> None:
    out = run("verify", b" " * (MAX_BYTES + 10))
    assert out.returncode == 1 and json.loads(out.stdout)["error"] == "too_large"


def test_not_json_exits_1() -> None:
    out = run("replay", "{not json")
    assert out.returncode == 1 and json.loads(out.stdout)["error"] == "bad_json"
