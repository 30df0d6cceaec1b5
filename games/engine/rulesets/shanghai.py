"""shanghai — 上海麻将 (RULES §2): 144 tiles, chi, wins on discards, several winners.

Scoring lives in `games.engine.scoring.shanghai`; this class carries the
variant's data and the flow hooks (dealer rotation, 荒番, balance floor).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.engine.rulesets.base import Ruleset
from games.engine.scoring import shanghai as scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState

HUANGFAN_COUNTER = "huangfan"


class ShanghaiRuleset(Ruleset):
    id = "shanghai"
    name_zh = "上海麻将"
    name_en = "Shanghai"
    players = 4
    has_flowers = True
    has_chi = True
    win_on_discard = True
    multiple_winners = True
    kong_after_claim = False  # kongs only on a turn begun by a draw (§2.2)
    robbable_kongs = ("added_kong",)  # concealed kongs cannot be robbed (§2.4)
    default_options: ClassVar[dict[str, Any]] = {"escape_penalty": 50}

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    def setup(self, state: HandState, rng: random.Random | None = None) -> HandState:
        """§2.7: the dealer's dice add to the table's 荒番 counter H before play;
        the hand is a 荒番 hand when H > 0 afterwards."""
        counters = dict(state.counters)
        h = counters.get(HUANGFAN_COUNTER, 0) + scoring.huangfan_dice_increment(state.dice)
        counters[HUANGFAN_COUNTER] = h
        return replace(state, huangfan=h > 0, counters=tuple(sorted(counters.items())))

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§2.1: the winner deals; several winners on one discard → the discarder;
        a drawn hand → the dealer stays."""
        if len(result.winners) > 1 and result.from_seat is not None:
            return result.from_seat
        if result.winners:
            return result.winners[0]
        return state.dealer

    def settle(self, result: HandResult, balances: Sequence[int], discarder: int | None) -> list[int]:
        """§2.8: the balance floor, winners paid next > opposite > previous of the discarder."""
        if not result.scores or result.extras:
            return super().settle(result, balances, discarder)
        per_winner = [s.payments for s in result.scores]
        return scoring.settle_with_floor(per_winner, result.winners, discarder, balances)


RULESET = ShanghaiRuleset()
