"""tianjin — 天津麻将 (RULES §5): 136 tiles, jokers (混), no chi, self-draw wins only.

Scoring lives in `games.engine.scoring.tianjin`, with the pure helpers the
play hooks use (joker kinds, pair multiplier, kong payments, 铲, the joker
pong ban).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.engine.rulesets.base import Ruleset
from games.engine.scoring import tianjin as scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState


class TianjinRuleset(Ruleset):
    id = "tianjin"
    name_zh = "天津麻将"
    name_en = "Tianjin"
    players = 4
    has_flowers = False  # Decision (§5.1): 136 tiles, the seed's flowers are unused
    has_chi = False
    win_on_discard = False  # §5.4: self-draw only, so no 一炮多响 and no robbing a kong
    multiple_winners = False
    robbable_kongs: ClassVar[tuple[str, ...]] = ()
    default_options: ClassVar[dict[str, Any]] = {}

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§5.1: the dealer stays after a draw or a win of theirs; else the next seat deals."""
        return scoring.next_dealer(state.dealer, result.winners, state.num_players)


RULESET = TianjinRuleset()
