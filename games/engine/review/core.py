"""The review of one seat's decisions in one finished hand (docs/review.md).

`review_decision` judges one decision from the seat's view at that moment: the blinded view a
bot gets (`view_for` read into a `PlayerView`) and the blinded state (`waits.blind`) for the exact
measures — never the wall or another hand, so re-dealing what the seat could not see changes no
recommendation and no grade (tests/engine/test_review.py). `review_hand` replays a record, reviews
every decision of the seat in order, adds the summary and, apart and labelled, the hindsight that
reads the wall revealed after the hand.
"""

from __future__ import annotations

from typing import Any

from games.engine.actions import Action, legal_actions
from games.engine.bots.defence import threats
from games.engine.bots.seen import PlayerView
from games.engine.errors import EngineError
from games.engine.record import ReplayedHand, replay_record
from games.engine.review.evaluator import Evaluator, default_evaluator
from games.engine.review.grades import UNIT, UNRATED, grade, thresholds
from games.engine.review.hindsight import hindsight
from games.engine.review.measures import label, measure
from games.engine.review.text import sentence
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState
from games.engine.tiles import name
from games.engine.view import view_for
from games.engine.waits import blind

# bump when a measure, the evaluator or a threshold changes
REVIEWER_VERSION = "review-3/expert-where-stronger"
MISTAKES_SHOWN = 3


def kind_of(state: HandState, seat: int, legal: list[Action]) -> str:
    """What the decision is about: discard | claim | win_or_pass | self_draw | stakes | exchange."""
    types = {a.type for a in legal}
    if state.phase == "choose":
        return "exchange" if "exchange" in types else "stakes"
    if state.phase == "claim":
        return "win_or_pass" if "win" in types else "claim"
    if "win" in types:
        return "self_draw"
    return "discard"


def review_decision(
    state: HandState, seat: int, played: Action, evaluator: Evaluator | None = None
) -> dict[str, Any] | None:
    """One decision of `seat` in `state` (before `played`), judged from that seat's view only;
    None when there was nothing to decide (a single legal action)."""
    legal = legal_actions(state, seat)
    if len(legal) <= 1 and played in legal:
        return None
    evaluator = evaluator or default_evaluator(state.variant)
    view = PlayerView.of(view_for(state, seat))
    known = blind(state, seat)
    extra = [] if played in legal else [played]
    appraisal = evaluator.appraise(view, legal, extra)
    rules = get_ruleset(state.variant)
    ts = threats(view) if rules.win_on_discard else []
    candidates = []
    for a in dict.fromkeys([*legal, *extra]):
        if a.type == "cuopai":
            continue  # 搓牌 picks a tile shown from the wall: listed as played, never ranked
        m = measure(view, known, seat, a, ts, rules.win_on_discard)
        m["value"] = appraisal.values.get(a)
        m["recommended"] = a == appraisal.choice
        m["played"] = a == played
        candidates.append((a, m))
    candidates.sort(
        key=lambda am: (not am[1]["recommended"], -(am[1]["value"] if am[1]["value"] is not None else -1e9))
    )
    rec_value = appraisal.values.get(appraisal.choice)
    played_value = appraisal.values.get(played)
    p = state.players[seat]
    out: dict[str, Any] = {
        "step": state.step,
        "kind": kind_of(state, seat, legal),
        "turn": p.discard_count + 1,
        "wall_left": state.wall_left,
        "hand": [name(t) for t in range(len(p.concealed)) for _ in range(p.concealed[t])],
        "drawn": name(p.drawn) if p.drawn is not None and state.phase == "turn" else None,
        "offered": (
            {"seat": state.window.seat, "tile": name(state.window.tile), "kind": state.window.kind}
            if state.phase == "claim" and state.window is not None
            else None
        ),
        "played": played.to_json(),
        "played_label": label(played),
        "recommended": appraisal.choice.to_json(),
        "recommended_label": label(appraisal.choice),
        "agrees": played == appraisal.choice,
        "alternatives": [m for _a, m in candidates],
    }
    if rec_value is None or played_value is None or played.type == "cuopai":
        out.update(loss=None, grade=UNRATED)
    else:
        loss = max(0.0, rec_value - played_value)
        out.update(loss=round(loss, 3), grade=grade(state.variant, loss))
    return out


def _lock_after(replayed: ReplayedHand, index: int, seat: int) -> dict[str, Any] | None:
    """The lock a passed win or pong set: read once the claim window it was in closed."""
    for step in replayed.steps[index:]:
        st = step.state
        if st.window is None or st.phase == "over":
            p = st.players[seat]
            if not (p.win_lock or p.pong_lock):
                return None
            out: dict[str, Any] = {}
            if p.win_lock:
                out["win_lock"] = True
                out["passed_win_tiles"] = [name(t) for t in sorted(p.passed_win_tiles)]
            if p.pong_lock:
                out["pong_lock"] = [name(t) for t in sorted(p.pong_lock)]
            return out
    return None


def review_replayed(replayed: ReplayedHand, seat: int, evaluator: Evaluator | None = None) -> dict[str, Any]:
    """The review of `seat` in an already replayed (so verified) hand."""
    start = replayed.start
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < start.num_players:
        raise EngineError("bad_seat", f"no seat {seat!r}: this hand has seats 0–{start.num_players - 1}")
    evaluator = evaluator or default_evaluator(start.variant)
    variant = start.variant
    decisions: list[dict[str, Any]] = []
    before = start
    for i, step in enumerate(replayed.steps):
        if step.seat == seat:
            d = review_decision(before, seat, step.action, evaluator)
            if d is not None:
                d["index"] = len(decisions)
                d["actor"] = step.actor
                if d["kind"] in ("win_or_pass", "claim") and step.action.type == "pass":
                    lock = _lock_after(replayed, i, seat)
                    if lock:
                        d["lock"] = lock
                decisions.append(d)
        before = step.state
    mistakes = _biggest(decisions)
    return {
        "reviewer_version": REVIEWER_VERSION,
        "evaluator": getattr(evaluator, "name", type(evaluator).__name__),
        "variant": variant,
        "seat": seat,
        "unit": UNIT[variant],
        "thresholds": thresholds(variant),
        "decisions": decisions,
        "summary": _summary(decisions, mistakes),
        "hindsight": hindsight(replayed, seat, decisions),
    }


def review_hand(record: dict[str, Any], seat: int, evaluator: Evaluator | None = None) -> dict[str, Any]:
    """Replay a hand record (checked as `replay` checks it; RecordError if it does not replay)
    and review `seat`'s decisions. JSON-serialisable."""
    return review_replayed(replay_record(record), seat, evaluator)


def _biggest(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    bad = [d for d in decisions if d["grade"] not in ("good", UNRATED)]
    bad.sort(key=lambda d: (-d["loss"], d["index"]))
    return bad[:MISTAKES_SHOWN]


def _summary(decisions: list[dict[str, Any]], mistakes: list[dict[str, Any]]) -> dict[str, Any]:
    rated = [d for d in decisions if d["grade"] != UNRATED]
    lost = sum(d["loss"] for d in rated)
    counts = {
        g: sum(1 for d in rated if d["grade"] == g) for g in ("good", "inaccuracy", "mistake", "blunder")
    }
    return {
        "decisions": len(decisions),
        "rated": len(rated),
        "agreement": round(sum(d["agrees"] for d in rated) / len(rated), 4) if rated else None,
        "points_lost": round(lost, 3),
        "loss_per_decision": round(lost / len(rated), 4) if rated else None,
        "grades": counts,
        "mistakes": [
            {
                "index": d["index"],
                "step": d["step"],
                "grade": d["grade"],
                "loss": d["loss"],
                "text": {"en": sentence(d, "en"), "zh": sentence(d, "zh")},
            }
            for d in mistakes
        ],
    }
