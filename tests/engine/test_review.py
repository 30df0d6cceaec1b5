"""复盘 Review (games/engine/review, docs/review.md): every decision of a seat, judged from its
view only, with measures, grades, a summary and hindsight kept apart."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.engine.actions import Action, legal_actions
from games.engine.bots import win_chance
from games.engine.bots.own_draws import RaceBudget
from games.engine.bots.policies import strong
from games.engine.bots.search import expert_move
from games.engine.bots.seen import PlayerView
from games.engine.record import hand_record, replay_record
from games.engine.review import (
    REVIEWER_VERSION,
    Appraisal,
    ExpertEvaluator,
    StrongEvaluator,
    grade,
    review_decision,
    review_hand,
    review_replayed,
    thresholds,
)
from games.engine.review.evaluator import REVIEWED_BY_EXPERT
from games.engine.rulesets import VARIANT_IDS
from games.engine.simulate import play_hand
from games.engine.tiles import name
from games.engine.view import view_for
from tests.engine.test_bots import reshuffle_hidden
from tests.engine.threats import strong_turns

ROOT = Path(__file__).resolve().parents[2]


def record_by(variant: str, seed: int, bot: str = "easy", **options: Any) -> dict[str, Any]:
    """A hand of `variant` played by `bot` at every seat, exported as a record (JSON round trip)."""
    setup = {"dealer": 0, "round_wind": 27, "base": 2, "options": options, "counters": {}}
    setup["salt"] = hashlib.sha256(f"review:{seed}".encode()).hexdigest()  # each seed its own deal
    _state, log, _ = play_hand(variant, seed, bot=bot, check=False, **setup)
    actions = [(seat, action.to_json(), "bot") for seat, action in log]
    return json.loads(json.dumps(hand_record(variant, seed, setup, actions, ["a", "b", "c", "d"])))


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return {v: record_by(v, 3) for v in VARIANT_IDS}


# -- every decision, in order --------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_decision_of_the_seat_is_reviewed_in_order(variant: str, records: dict) -> None:
    record = records[variant]
    replayed = replay_record(record)
    seat = 1
    before = replayed.start
    expected = []
    for step in replayed.steps:
        if step.seat == seat and len(legal_actions(before, seat)) > 1:
            expected.append((before.step, step.action.to_json()))
        before = step.state
    review = review_hand(record, seat)
    assert [(d["step"], d["played"]) for d in review["decisions"]] == expected
    assert [d["index"] for d in review["decisions"]] == list(range(len(expected)))
    assert review["reviewer_version"] == REVIEWER_VERSION
    assert json.loads(json.dumps(review)) == review  # JSON-serialisable as it is


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_decision_ranks_its_alternatives_with_measures(variant: str, records: dict) -> None:
    review = review_hand(records[variant], 0)
    assert review["decisions"]
    for d in review["decisions"]:
        alts = d["alternatives"]
        assert alts[0]["recommended"] and sum(a["recommended"] for a in alts) == 1
        assert sum(a["played"] for a in alts) == 1
        assert alts[0]["action"] == d["recommended"]
        values = [a["value"] for a in alts[1:] if a["value"] is not None]
        assert values == sorted(values, reverse=True)
        for a in alts:
            if a["action"]["type"] == "discard":
                assert a["shanten"] >= 0 and a["effective"] >= 0
                if a["shanten"] == 0:  # ready: the waits with their unseen counts sum to the effective tiles
                    assert a["waits"] and sum(w["unseen"] for w in a["waits"]) == a["effective"]
                assert ("danger" in a) == (variant != "tianjin")  # Tianjin: no discard wins
        if d["grade"] != "unrated":
            assert d["grade"] == grade(variant, d["loss"])
            assert d["agrees"] == (d["played"] == d["recommended"])
            if d["agrees"]:
                assert d["loss"] == 0


def test_the_grades_follow_the_documented_thresholds() -> None:
    t = thresholds("shanghai")
    assert t == {"inaccuracy": 0.42, "mistake": 1.4, "blunder": 4.2}
    assert grade("shanghai", 0.0) == "good"
    assert grade("shanghai", 0.41) == "good"
    assert grade("shanghai", 0.42) == "inaccuracy"
    assert grade("shanghai", 1.4) == "mistake"
    assert grade("shanghai", 5.0) == "blunder"
    assert thresholds("two_player")["blunder"] > thresholds("cantonese")["blunder"]  # per variant unit


def test_the_summary_counts_agreement_loss_and_the_three_biggest_mistakes(records: dict) -> None:
    reviews = [review_hand(records[v], seat) for v in ("cantonese", "shanghai") for seat in range(4)]
    review = max(reviews, key=lambda r: len(r["summary"]["mistakes"]))
    s = review["summary"]
    rated = [d for d in review["decisions"] if d["grade"] != "unrated"]
    assert s["rated"] == len(rated)
    assert s["agreement"] == round(sum(d["agrees"] for d in rated) / len(rated), 4)
    assert s["points_lost"] == round(sum(d["loss"] for d in rated), 3)
    bad = sorted((d for d in rated if d["grade"] != "good"), key=lambda d: -d["loss"])[:3]
    assert [m["index"] for m in s["mistakes"]] == [d["index"] for d in bad]
    assert s["mistakes"], "easy's hand has mistakes against strong's judgement"
    for m in s["mistakes"]:
        d = review["decisions"][m["index"]]
        assert d["played_label"].split()[-1] in m["text"]["en"]
        assert "effective tiles" in m["text"]["en"] or "ready" in m["text"]["en"] or "win" in m["text"]["en"]
        assert "期望" in m["text"]["zh"]


def test_a_passed_win_is_a_decision_with_the_lock_it_set() -> None:
    record = record_by("cantonese", 9, bot="strong")  # strong holds out for the self-draw here
    review = review_hand(record, 0)
    passed = [d for d in review["decisions"] if d["kind"] == "win_or_pass" and d["played"]["type"] == "pass"]
    assert passed
    d = passed[0]
    assert d["lock"]["win_lock"] is True and d["lock"]["passed_win_tiles"] == [d["offered"]["tile"]]
    win = next(a for a in d["alternatives"] if a["action"]["type"] == "win")
    assert win["shanten"] == -1 and win["value"] > 0


def test_tianjin_stakes_and_two_player_exchange_and_ready_are_decisions() -> None:
    tianjin = review_hand(record_by("tianjin", 4), 0)
    stakes = [d for d in tianjin["decisions"] if d["kind"] == "stakes"]
    assert len(stakes) == 1 and stakes[0]["grade"] == "unrated"  # no estimate of doubled stakes
    two = review_hand(record_by("two_player", 5, bot="normal", exchange=True), 0)
    kinds = [d["kind"] for d in two["decisions"]]
    assert kinds[0] == "exchange"
    exchange = two["decisions"][0]
    assert exchange["grade"] != "unrated" and all(a["value"] is not None for a in exchange["alternatives"])
    ready = [
        a
        for seed in range(5, 12)
        for seat in (0, 1)
        for d in review_hand(record_by("two_player", seed, bot="normal"), seat)["decisions"]
        for a in d["alternatives"]
        if a["action"].get("ready")
    ]
    assert ready and all(a["shanten"] == 0 for a in ready), "报听 is its own alternative, once ready"


# -- honest by construction ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_redealing_every_hidden_tile_changes_no_recommendation_and_no_grade(variant: str) -> None:
    compared = 0
    for seed in (1, 2):
        replayed = replay_record(record_by(variant, seed))
        before = replayed.start
        for i, step in enumerate(replayed.steps):
            seat = step.seat
            if before.phase != "choose":
                mine = review_decision(before, seat, step.action)
                other = reshuffle_hidden(before, seat, seed * 1000 + i)
                assert other.wall != before.wall or other.players != before.players
                if mine is not None:
                    assert review_decision(other, seat, step.action) == mine, (variant, seed, i)
                    compared += 1
            before = step.state
    assert compared >= 10


def test_only_hindsight_reads_the_later_draws(records: dict) -> None:
    review = review_hand(records["shanghai"], 0)
    items = review["hindsight"]["items"]
    assert "revealed after the hand" in review["hindsight"]["label"]
    assert items, "easy disagreed with a discard: hindsight replays the recommended hand"
    replayed = replay_record(records["shanghai"])
    for item in items:
        d = review["decisions"][item["index"]]
        assert not d["agrees"] and d["played"]["tile"] == item["kept"]
        # the draws are the seat's real later draws, in order (until it next claims)
        real, count = [], replayed.steps[d["step"]].state.players[0].draw_count
        for s in replayed.steps[d["step"] + 1 :]:
            p = s.state.players[0]
            if p.draw_count > count and p.drawn is not None:
                real.append(name(p.drawn))
            count = p.draw_count
        got = [x["tile"] for x in item["draws"]]
        assert got == real[: len(got)]
    assert any(item["draws"] for item in items)


# -- the evaluator is replaceable ------------------------------------------------------------------


class FirstLegal:
    """A stand-in evaluator: recommends the first legal action and values it one point above the rest."""

    name = "first-legal"

    def appraise(self, view: PlayerView, legal: Sequence[Action], extra: Sequence[Action] = ()) -> Appraisal:
        values = {a: 0.0 for a in (*legal, *extra)}
        values[legal[0]] = 1.0
        return Appraisal(legal[0], values)


def test_another_evaluator_replaces_the_strong_one_without_touching_the_review(records: dict) -> None:
    replayed = replay_record(records["yihua"])
    review = review_replayed(replayed, 0, FirstLegal())
    assert review["evaluator"] == "first-legal"
    for d in review["decisions"]:
        assert d["alternatives"][0]["recommended"]
        assert d["loss"] in (0.0, 1.0)
    assert review != review_replayed(replayed, 0)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_the_review_recommends_expert_where_expert_is_measured_stronger(variant: str, records: dict) -> None:
    review = review_hand(records[variant], 0)
    assert review["evaluator"] == ("expert" if variant in REVIEWED_BY_EXPERT else "strong")
    assert {"shanghai", "yihua", "cantonese", "tianjin", "two_player"} == REVIEWED_BY_EXPERT


def test_the_reviews_expert_in_two_player_weighs_its_win_chance_with_no_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where two-player's expert ranks strong's fastest discards by their win chance, the live bot
    gives up past its time (strong's discard stands); the review's evaluator never does, so a busy
    machine changes no recommendation."""
    monkeypatch.setattr(win_chance, "TIME_MS", None)
    departures = []
    turns = [turn for seed in range(300, 312) for turn in strong_turns("two_player", seed, every=1)]
    for state, seat in turns:
        view, legal = PlayerView.of(view_for(state, seat, hints=False)), legal_actions(state, seat)
        move = win_chance.strong_by_win_chance(view, legal, random.Random(0))
        if move != strong(view, legal, random.Random(0)):
            departures.append((view, legal, move))
    assert departures
    monkeypatch.setattr(win_chance, "TIME_MS", 0.0)  # every timed look-ahead out of time at once
    for view, legal, move in departures:
        assert win_chance.strong_by_win_chance(view, legal, random.Random(0)) == strong(
            view, legal, random.Random(0)
        )
        assert ExpertEvaluator().appraise(view, legal).choice == move


def test_the_expert_evaluator_recommends_experts_move_valued_as_strongs() -> None:
    """Its choice is the expert bot's own move (with a budget of samples only, so the clock plays
    no part) and its values are strong's; over these hands at least one recommendation differs
    from strong's, so the two evaluators are not the same judge under two names."""
    differs = compared = 0
    for variant in sorted(REVIEWED_BY_EXPERT):
        for seed in (1, 2, 3):
            replayed = replay_record(record_by(variant, seed))
            before = replayed.start
            for step in replayed.steps:
                legal = legal_actions(before, step.seat)
                if len(legal) > 1 and before.phase != "choose":
                    view = PlayerView.of(view_for(before, step.seat))
                    mine = ExpertEvaluator().appraise(view, legal)
                    strongs = StrongEvaluator().appraise(view, legal)
                    budget = RaceBudget(samples=32, time_ms=None)
                    assert mine.choice == expert_move(view, legal, random.Random(0), budget)
                    assert mine.values == strongs.values
                    differs += mine.choice != strongs.choice
                    compared += 1
                before = step.state
    assert compared >= 30 and differs >= 1


# -- the command line -----------------------------------------------------------------------------


def run(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "review", *args],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
    )


def test_the_cli_prints_the_same_review_as_the_engine(records: dict) -> None:
    out = run(json.dumps(records["two_player"]), "--seat", "1")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == review_hand(records["two_player"], 1)


@pytest.mark.parametrize(
    ("stdin", "args", "code"),
    [
        ("{not json", (), "bad_json"),
        ('{"format": "other"}', (), "wrong_format"),
        (None, ("--seat", "4"), "bad_seat"),
        (None, ("--seat", "-1"), "bad_seat"),
    ],
)
def test_the_cli_refuses_bad_input_with_exit_2(
    records: dict, stdin: str | None, args: tuple, code: str
) -> None:
    out = run(stdin if stdin is not None else json.dumps(records["two_player"]), *args)
    assert out.returncode == 2
    assert json.loads(out.stdout)["error"] == code
    assert out.stderr.decode().startswith("error:")


def test_the_cli_refuses_a_record_that_does_not_replay(records: dict) -> None:
    bad = json.loads(json.dumps(records["shanghai"]))
    action = next(e for e in bad["events"] if e["type"] == "action" and e["action"]["type"] == "discard")
    action["action"]["tile"] = "1m" if action["action"]["tile"] != "1m" else "2m"
    out = run(json.dumps(bad))
    assert out.returncode == 2 and json.loads(out.stdout)["error"] in (
        "illegal_action",
        "wrong_event",
        "wrong_draw",
    )


# -- the arena validates the grader ---------------------------------------------------------------


def test_the_arena_adds_each_levels_review_loss_with_its_interval() -> None:
    from games.engine.bots.arena import arena

    summary, _detail = arena("two_player", 2, ["strong", "easy"], seed=5, review="strong")
    for level in ("strong", "easy"):
        r = summary["levels"][level]["review_loss"]
        assert r["decisions"] > 0 and r["ci95"][0] <= r["per_decision"] <= r["ci95"][1]
        top = summary["levels"][level]["review_loss_top_value"]
        assert top["decisions"] == r["decisions"] and top["per_decision"] >= 0
    # the strong bot is the default evaluator's recommender: no loss against itself
    assert summary["levels"]["strong"]["review_loss"]["per_decision"] == 0
    plain, _ = arena("two_player", 2, ["strong", "easy"], seed=5)
    assert "review_loss" not in plain["levels"]["easy"]


def test_review_bench_reports_a_median_per_variant() -> None:
    from games.engine.bench import review_figures

    figures = review_figures(1)
    assert set(figures) == set(VARIANT_IDS)
    assert all(f["hands"] == 1 and f["median_s"] >= 0 for f in figures.values())
