"""yihua — 一花起胡 (RULES §3): Gametea-style Shanghai rules, 144 tiles.

Scoring lives in `games.engine.scoring.yihua`; this class carries the
variant's data and the play hooks: the locks Y1–Y3 and the false-win penalty
Y4 (§3.3), seven pairs (§3.4), eight flowers ending the hand (§3.7) and
dealer rotation (§3.1).

Codes: `own_discard_lock` (Y1), `missed_win_lock` (Y2) — reasons a win on a
discard is refused; declaring such a win anyway is a false win (Y4: the seed's
诈胡 is "clicking win when you cannot win", and its list of when you cannot
win is Y1 and Y2), so `apply` records the penalty instead of raising.
`discard_after_chi` (Y3) — the IllegalAction code of a forbidden discard.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from games.engine.hand import is_seven_pairs, seven_pairs_wait
from games.engine.rulesets.base import Ruleset
from games.engine.rulesets.options import ESCAPE_PENALTY, OptionRange
from games.engine.scoring import shanghai as shanghai_scoring
from games.engine.scoring import yihua as scoring
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import HandResult, HandState, PlayerState
from games.engine.tiles import Tile, tiles_of

if TYPE_CHECKING:
    from games.engine.actions import Action

OWN_DISCARD_LOCK = "own_discard_lock"  # Y1
MISSED_WIN_LOCK = "missed_win_lock"  # Y2
DISCARD_AFTER_CHI = "discard_after_chi"  # Y3
EIGHT_FLOWERS = "eight_flowers"  # HandResult.by when all eight flowers end the hand


class YihuaRuleset(Ruleset):
    id = "yihua"
    name_zh = "一花起胡"
    name_en = "One-flower"
    concealed_special_shapes = True  # 七对 of a hand with no melds
    players = 4
    even_stake = True  # §1.2: an even base stake
    has_flowers = True
    has_chi = True
    win_on_discard = True
    multiple_winners = True
    kong_after_claim = True  # delayed kong (先碰后杠) also after a chi or pong (§3.2)
    robbable_kongs = ("added_kong",)
    default_options: ClassVar[dict[str, Any]] = {"escape_penalty": 50}
    option_ranges: ClassVar[dict[str, OptionRange]] = {"escape_penalty": ESCAPE_PENALTY}

    def setup(self, state: HandState, rng: random.Random | None = None) -> HandState:
        """Refuse an odd base stake before play (§3.7: the flower value is b/2)
        rather than at the first win."""
        scoring.check_base(state.base)
        return state

    # -- Y3 (§3.3) -----------------------------------------------------------
    def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
        p = state.players[seat]
        if action.type == "discard":
            return DISCARD_AFTER_CHI if action.tile in _chi_forbidden(p) else None
        if action.type == "chi" and not self._can_act_after_chi(p, action):
            return DISCARD_AFTER_CHI
        return None

    def _can_act_after_chi(self, p: PlayerState, action: Action) -> bool:
        """After a chi the player discards, or first declares a kong (delayed
        kong, §3.2; its replacement draw ends the Y3 restriction). A chi after
        which neither is possible cannot be made."""
        assert action.tile is not None
        a, b = (x for x in action.tiles if x != action.tile)
        forbidden = scoring.chi_discard_forbidden((a, b), action.tile, p.hand_size)
        if shanghai_scoring.chi_leaves_a_discard(p.concealed, action.tiles, action.tile, forbidden):
            return True
        left = bytearray(p.concealed)
        for x in (a, b):
            left[x] -= 1
        return any(n == 4 for n in left) or any(m.kind == "pong" and left[m.tile] for m in p.melds)

    # -- winning (§3.3, §3.4) --------------------------------------------------
    def is_winning_shape(self, state: HandState, seat: int, counts: bytes) -> bool:
        """Four melds and a pair, or seven pairs (fully concealed, pairs may repeat)."""
        if not state.players[seat].melds and is_seven_pairs(counts):
            return True
        return super().is_winning_shape(state, seat, counts)

    def wait_candidates(self, state: HandState, seat: int, counts: bytes) -> set[Tile]:
        """七对 is completed by the one kind held an odd number of times."""
        found = super().wait_candidates(state, seat, counts)
        if not state.players[seat].melds:
            found |= seven_pairs_wait(counts)
        return found

    def win_check(self, state: HandState, seat: int, ctx: WinContext) -> ScoreResult:
        """Score, then the locks on a win on a discard: Y1 (unless the win is a
        single wait) and Y2 (unless the win adds 番 that raise its score, 加番).
        Robbing a kong is no discard: neither lock applies to it."""
        result = self.score(ctx)
        if not result.win or ctx.by != "discard":
            return result
        p = state.players[seat]
        concealed = tuple(tiles_of(p.concealed))
        single = scoring.single_wait_possible(p.melds, concealed, ctx.win_tile)
        if scoring.own_discard_blocks(p.discarded_since_draw, ctx.win_tile, single):
            return no_win(OWN_DISCARD_LOCK, ctx.players)
        if p.win_lock and not scoring.adds_fan(result, p.passed_win_fan, ctx.base):
            return no_win(MISSED_WIN_LOCK, ctx.players)
        return result

    def fan_of(self, result: ScoreResult) -> int:
        return scoring.fan_of(result)

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    # -- flow ------------------------------------------------------------------
    def on_flowers(self, state: HandState, seat: int) -> HandState:
        """§3.7: a player who holds all eight flowers ends the hand at once and is
        paid the cap by each other player, winning or not."""
        if len(state.players[seat].flowers) < 8 or state.phase == "over":
            return state
        from games.engine.actions import end_hand  # the machine imports the rulesets

        score = scoring.eight_flowers_result(seat, state.base, state.num_players)
        return end_hand(self, state, HandResult(winners=(seat,), by=EIGHT_FLOWERS, scores=(score,)))

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


def _chi_forbidden(p: PlayerState) -> frozenset[int]:
    """Y3: the machine keeps R3's set after a chi; the 4-tile exception lifts it."""
    return frozenset() if p.concealed_at_chi == 4 else p.forbidden


RULESET = YihuaRuleset()
