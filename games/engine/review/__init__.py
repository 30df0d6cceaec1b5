"""复盘 Review: every decision of one seat in a finished hand, judged from that seat's view.

`review_hand(record, seat)` → a JSON-serialisable dict (docs/review.md): per decision what was
played, the recommendation, the alternatives ranked with their measures (shanten, effective
tiles, waits, value, danger) and a grade; a summary; and hindsight, kept apart. An `Evaluator`
(evaluator.py) supplies the recommendation and values; by default the expert bot's where it is
measured stronger than strong (every variant but two-player), the strong bot's in two-player.
"""

from __future__ import annotations

from games.engine.review.core import REVIEWER_VERSION, review_decision, review_hand, review_replayed
from games.engine.review.evaluator import (
    Appraisal,
    Evaluator,
    ExpertEvaluator,
    StrongEvaluator,
    default_evaluator,
)
from games.engine.review.grades import GRADES, UNIT, grade, thresholds

__all__ = [
    "GRADES",
    "REVIEWER_VERSION",
    "UNIT",
    "Appraisal",
    "Evaluator",
    "ExpertEvaluator",
    "StrongEvaluator",
    "default_evaluator",
    "grade",
    "review_decision",
    "review_hand",
    "review_replayed",
    "thresholds",
]
