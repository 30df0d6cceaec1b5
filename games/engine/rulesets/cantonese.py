"""cantonese — 广东鸡平和 (RULES §4): 136 tiles, no flowers, 爆和 at 3 fan.

Scoring lives in `games.engine.scoring.cantonese`; this class carries the
variant's data and the flow hooks (dealer rotation, the missed-win lock,
liabilities recorded when a claim feeds 十二张落地 / 大四喜 / 大三元).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.engine.hand import ORPHANS, is_complete, is_thirteen_orphans
from games.engine.rulesets.base import Ruleset
from games.engine.rulesets.options import OptionRange
from games.engine.scoring import cantonese as scoring
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import HandResult, HandState, Meld, evolve
from games.engine.tiles import Tile


class CantoneseRuleset(Ruleset):
    id = "cantonese"
    name_zh = "广东鸡平和"
    name_en = "Cantonese"
    concealed_special_shapes = True  # 十三幺 of a hand with no melds
    players = 4
    has_flowers = False
    has_chi = True
    win_on_discard = True
    multiple_winners = True  # 一炮多响, 一炮三响
    robbable_kongs = ("added_kong",)  # §4.2: only 明刻开明杠 can be robbed
    # rounds: match length in wind rounds: 4 (the rule page's 风圈 "按照东、南、西、北的次序转换"), or 1
    # as a house option for a short game (§4.1)
    default_options: ClassVar[dict[str, Any]] = {"rounds": 4}
    option_ranges: ClassVar[dict[str, OptionRange]] = {"rounds": OptionRange(choices=(1, 4))}  # §4.1

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    def is_winning_shape(self, state: HandState, seat: int, counts: bytes) -> bool:
        """§4.4: the normal shape, or 十三幺 (fully concealed)."""
        if not state.players[seat].melds and is_thirteen_orphans(counts):
            return True
        return is_complete(counts)

    def wait_candidates(self, state: HandState, seat: int, counts: bytes) -> set[Tile]:
        """十三幺 is completed by a terminal or an honour."""
        found = super().wait_candidates(state, seat, counts)
        if not state.players[seat].melds:
            found |= set(ORPHANS)
        return found

    def win_check(self, state: HandState, seat: int, ctx: WinContext) -> ScoreResult:
        """§4.2 漏和 before scoring: a passed discard win locks that tile."""
        if scoring.missed_win_blocks(state.players[seat], ctx.win_tile, ctx.by):
            return no_win("missed_win", state.num_players)
        return self.score(ctx)

    def on_claim(self, state: HandState, seat: int, meld: Meld) -> HandState:
        """Record who becomes liable (包) for `seat`'s self-draw (§4.6)."""
        if meld.from_seat is None:
            return state
        found = scoring.liability_after_claim(
            state.players[seat].melds, seat, meld.from_seat, state.liabilities
        )
        if found is None:
            return state
        return evolve(state, liabilities=(*state.liabilities, found))

    def match_rounds(self, options: dict[str, Any]) -> int | None:
        """§4.1: a match is four wind rounds, East → South → West → North (default), or 1."""
        return 1 if options.get("rounds") == 1 else 4

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§4.1: the dealer stays after a draw or a win of theirs (also as one of
        several winners); otherwise the next seat deals."""
        return scoring.next_dealer(state.dealer, result.winners, state.num_players)


RULESET = CantoneseRuleset()
