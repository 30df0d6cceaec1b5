"""The command line: `python -m games.engine score|simulate` (RULES §7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.vectors import assert_matches, vector_cases

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args], input=stdin, capture_output=True, text=True, cwd=ROOT
    )


def all_cases() -> list[dict]:
    return vector_cases()


def test_the_vectors_are_there():
    assert len(all_cases()) >= 13


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c["id"])
def test_every_public_vector_through_the_real_cli(case):
    expect = case["expect"]
    done = run("score", stdin=json.dumps({k: v for k, v in case.items() if k != "expect"}))
    assert done.returncode == 0, done.stdout + done.stderr
    assert_matches(json.loads(done.stdout), expect)


_TP_SELF_DRAW = '{"variant": "two_player", "seat": 1, "concealed": "111z222z333z555z6z", "win_tile": "6z"}'


def test_house_rules_reach_the_score_through_options():
    # RULES §6.3: a self-draw pays value × 3 × base; the house rule self_draw_multiplier replaces the 3
    assert json.loads(run("score", stdin=_TP_SELF_DRAW).stdout)["payments"] == [-39, 39]
    one = _TP_SELF_DRAW[:-1] + ', "options": {"self_draw_multiplier": 1}}'
    assert json.loads(run("score", stdin=one).stdout)["payments"] == [-13, 13]
    lower_cap = _TP_SELF_DRAW[:-1] + ', "options": {"cap": 8, "self_draw_multiplier": 2}}'
    out = json.loads(run("score", stdin=lower_cap).stdout)
    assert (out["value"], out["payments"]) == (8, [-16, 16])


@pytest.mark.parametrize(
    "stdin, code",
    [
        ("not json", "bad_json"),
        ("[]", "bad_input"),
        ('{"variant": "riichi", "concealed": "1m", "win_tile": "1m"}', "bad_input"),
        ('{"variant": "shanghai", "win_tile": "1m"}', "bad_input"),
        ('{"variant": "shanghai", "concealed": "123x", "win_tile": "1m"}', "bad_input"),
        ('{"variant": "shanghai", "concealed": "123m", "win_tile": "1m"}', "bad_input"),
        ('{"variant": "shanghai", "concealed": "1111m222m333m44m", "win_tile": "1m"}', "bad_input"),
        (
            '{"variant": "shanghai", "concealed": "123m456m789p234s5s", "win_tile": "5s", "by": "discard"}',
            "bad_input",
        ),
        (
            '{"variant": "shanghai", "concealed": "123m456m789p234s5s", "win_tile": "5s", "seat": 9}',
            "bad_input",
        ),
        (
            '{"variant": "shanghai", "concealed": "123m456m789p234s5s", "win_tile": "5s", "bogus": 1}',
            "bad_input",
        ),
        (
            '{"variant": "cantonese", "concealed": "123m456m789p234s5s", "win_tile": "5s", "players": 2}',
            "bad_input",
        ),
        (
            '{"variant": "shanghai", "concealed": "456m789p234s5s", "win_tile": "5s",'
            ' "melds": [{"kind": "chi", "tiles": "135m"}]}',
            "bad_input",
        ),
        (_TP_SELF_DRAW[:-1] + ', "options": [3]}', "bad_input"),  # options is an object
        (_TP_SELF_DRAW[:-1] + ', "options": {"bogus": 1}}', "bad_input"),  # no such house rule
        (_TP_SELF_DRAW[:-1] + ', "options": {"self_draw_multiplier": 4}}', "bad_option"),
        (_TP_SELF_DRAW[:-1] + ', "options": {"self_draw_multiplier": "3"}}', "bad_option"),
    ],
)
def test_bad_input_gets_a_clear_error_and_exit_code_2(stdin, code):
    done = run("score", stdin=stdin)
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["error"] == code and out["message"]
    assert "Traceback" not in done.stderr


def test_score_reads_a_file(tmp_path):
    case = dict(all_cases()[0])
    case.pop("expect")
    f = tmp_path / "case.json"
    f.write_text(json.dumps(case))
    done = run("score", "--file", str(f))
    assert done.returncode == 0 and json.loads(done.stdout)["win"] in (True, False)
    assert run("score", "--file", str(tmp_path / "missing.json")).returncode == 2


def test_simulate_prints_one_repeatable_json_object():
    first = run("simulate", "--variant", "cantonese", "--hands", "3", "--seed", "4")
    second = run("simulate", "--variant", "cantonese", "--hands", "3", "--seed", "4")
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert set(a) == {
        "variant",
        "hands",
        "wins",
        "draws",
        "errors",
        "invariant_violations",
        "digest",
        "hands_per_s",
    }
    assert a["digest"] == b["digest"] and a["hands"] == 3 and a["errors"] == 0
    other = json.loads(run("simulate", "--variant", "cantonese", "--hands", "3", "--seed", "5").stdout)
    assert other["digest"] != a["digest"]


def test_a_long_arena_prints_its_figures_so_far_as_a_shorter_run_would():
    """--progress DEALS: every DEALS deals the figures so far go to stderr — the same as the
    final line of a run of that many hands, so a run that has to stop keeps what it measured."""
    seats = ("--variant", "two_player", "--seats", "strong,normal", "--seed", "3", "--duplicate")
    long = run("arena", *seats, "--hands", "6", "--progress", "2")
    short = run("arena", *seats, "--hands", "4")
    lines = [json.loads(x) for x in long.stderr.splitlines()]
    assert [x["hands"] for x in lines] == [4]  # after 2 deals; the 3rd is the run's own end
    assert lines[0]["levels"] == json.loads(short.stdout.splitlines()[-1])["levels"]
    assert set(lines[0]["paired"]) == {"strong − normal"}
