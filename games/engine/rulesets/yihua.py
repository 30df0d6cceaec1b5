"""yihua — 一花起胡 (RULES §3): Gametea-style Shanghai rules, 144 tiles.

Scoring lives in `games.engine.scoring.yihua`; this class carries the
variant's data and the flow hooks (dealer rotation, the false-win penalty).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from games.engine.rulesets.base import Ruleset
from games.engine.scoring import yihua as scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState


class YihuaRuleset(Ruleset):
    id = "yihua"
    name_zh = "一花起胡"
    name_en = "One-flower"
    players = 4
    has_flowers = True
    has_chi = True
    win_on_discard = True
    multiple_winners = True
    kong_after_claim = True  # delayed kong (先碰后杠) also after a chi or pong (§3.2)
    robbable_kongs = ("added_kong",)
    default_options: ClassVar[dict[str, Any]] = {"escape_penalty": 50}

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§3.1 decision: the dealer stays after a drawn hand or when the dealer
        is a winner (also one of several); otherwise the next seat deals."""
        if result.drawn or state.dealer in result.winners:
            return state.dealer
        return (state.dealer + 1) % state.num_players

    def on_false_win(self, state: HandState, seat: int) -> HandState | None:
        """Y4 诈胡: record the 2 × base penalty; the hand goes on."""
        payments = scoring.false_win_payments(seat, state.base, state.num_players)
        return replace(state, penalties=(*state.penalties, ("false_win", seat, payments)))


RULESET = YihuaRuleset()
