"""shanghai — 上海麻将 (RULES §2): 144 tiles, chi, wins on discards, several winners.

Scoring lives in `games.engine.scoring.shanghai`; this class carries the
variant's data and the play hooks: the restrictions R1–R4 (§2.3), the special
shapes (§2.4), heavenly/earthly as §2.5 defines them, several winners
(§2.8), dealer rotation (§2.1), 荒番 (§2.7) and the balance floor.

Restriction codes (the IllegalAction code `apply` raises):
`pong_locked` (R1), `win_locked` (R2), `discard_after_chi` (R3),
`suit_commitment` (R4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from games.engine.rulesets.base import Ruleset
from games.engine.rulesets.options import ESCAPE_PENALTY, OptionRange
from games.engine.scoring import shanghai as scoring
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import HandResult, HandState, PlayerState
from games.engine.tiles import KINDS, Tile, is_honour, suit_of

if TYPE_CHECKING:
    from games.engine.actions import Action

HUANGFAN_COUNTER = "huangfan"

PONG_LOCKED = "pong_locked"  # R1
WIN_LOCKED = "win_locked"  # R2
DISCARD_AFTER_CHI = "discard_after_chi"  # R3
SUIT_COMMITMENT = "suit_commitment"  # R4


class ShanghaiRuleset(Ruleset):
    id = "shanghai"
    name_zh = "上海麻将"
    name_en = "Shanghai"
    players = 4
    has_flowers = True
    has_chi = True
    win_on_discard = True
    multiple_winners = True
    # §2.2: "after chi or pong you must discard" — no kong on a turn begun by a
    # claim. An added kong may still wait for any later turn begun by a draw
    # ("on any own turn while you hold it"): the machine offers it on every one.
    kong_after_claim = False
    robbable_kongs = ("added_kong",)  # concealed kongs cannot be robbed (§2.4)
    default_options: ClassVar[dict[str, Any]] = {"escape_penalty": 50}
    option_ranges: ClassVar[dict[str, OptionRange]] = {"escape_penalty": ESCAPE_PENALTY}

    # -- restrictions (§2.3) -------------------------------------------------
    def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
        p = state.players[seat]
        t = action.tile
        if t is None:
            return None
        if action.type == "discard":
            return DISCARD_AFTER_CHI if t in p.forbidden else None
        if action.type == "chi":
            return self._chi_restriction(p, action)
        if action.type in ("pong", "kong"):
            if scoring.pong_blocked_by_commitment(p.melds, t):
                return SUIT_COMMITMENT
            # R1 names pong only: a passed pong does not stop an exposed kong
            if action.type == "pong" and t in p.pong_lock:
                return PONG_LOCKED
        return None

    def _chi_restriction(self, p: PlayerState, action: Action) -> str | None:
        assert action.tile is not None
        if scoring.chi_blocked_by_commitment(p.melds, suit_of(action.tile)):
            return SUIT_COMMITMENT
        forbidden = scoring.forbidden_after_chi(_hand_pair(action), action.tile)
        if not scoring.chi_leaves_a_discard(p.concealed, action.tiles, action.tile, forbidden):
            return DISCARD_AFTER_CHI
        return None

    # -- winning (§2.4, §2.5, R2) ---------------------------------------------
    def is_winning_shape(self, state: HandState, seat: int, counts: bytes) -> bool:
        """Four melds and a pair, or 八花 (all 8 flowers open: any 14 tiles), or
        乱风向 (all 14 tiles honours, declared melds included: any arrangement)."""
        p = state.players[seat]
        if len(p.flowers) == 8:
            return True
        if _all_honours(counts) and all(is_honour(m.tile) for m in p.melds):
            return True
        return super().is_winning_shape(state, seat, counts)

    def wait_candidates(self, state: HandState, seat: int, counts: bytes) -> set[Tile]:
        """八花 takes any tile; 乱风向 any honour."""
        p = state.players[seat]
        if len(p.flowers) == 8:
            return set(range(KINDS))
        found = super().wait_candidates(state, seat, counts)
        if _all_honours(counts) and all(is_honour(m.tile) for m in p.melds):
            found |= set(range(27, KINDS))
        return found

    def may_wait(self, state: HandState, seat: int, counts: bytes) -> bool:
        """八花 waits on anything; 乱风向 on any honour."""
        p = state.players[seat]
        if len(p.flowers) == 8 or (_all_honours(counts) and all(is_honour(m.tile) for m in p.melds)):
            return True
        return super().may_wait(state, seat, counts)

    def discards_that_may_wait(self, state: HandState, seat: int, counts: bytes) -> list[Tile] | None:
        """八花 waits on anything; 乱风向 when at most one tile is not an honour (it is thrown)."""
        p = state.players[seat]
        if len(p.flowers) == 8 or (sum(counts[:27]) <= 1 and all(is_honour(m.tile) for m in p.melds)):
            return None
        return super().discards_that_may_wait(state, seat, counts)

    def win_check(self, state: HandState, seat: int, ctx: WinContext) -> ScoreResult:
        p = state.players[seat]
        # §2.5: heavenly / earthly = the winner has not discarded yet (claims by
        # others do not matter); the machine's flag also asks for no claims.
        ctx = replace(ctx, first_turn=p.discard_count == 0)
        # R2: only a win on a discard is locked; self-draw and robbing never
        if ctx.by == "discard" and p.win_lock:
            return no_win(WIN_LOCKED, ctx.players)
        return self.score(ctx)

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    # -- the table between hands (§2.1, §2.7, §2.8) ----------------------------
    def setup(self, state: HandState, rng: random.Random | None = None) -> HandState:
        """§2.7: the dealer's dice add to the table's 荒番 counter H before play;
        the hand is a 荒番 hand when H > 0 afterwards."""
        counters = dict(state.counters)
        h = counters.get(HUANGFAN_COUNTER, 0) + scoring.huangfan_dice_increment(state.dice)
        counters[HUANGFAN_COUNTER] = h
        return replace(state, huangfan=h > 0, counters=tuple(sorted(counters.items())))

    def carry_counters(self, state: HandState, result: HandResult) -> dict[str, int]:
        """The table counters for the next hand's `new_hand(counters=…)`: H (dice
        included) + 1 after a drawn hand, − 1 (not below 0) after a won one (§2.7)."""
        counters = dict(state.counters)
        h = counters.get(HUANGFAN_COUNTER, 0)
        counters[HUANGFAN_COUNTER] = scoring.huangfan_after_hand(h, result.drawn)
        return counters

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


def _hand_pair(action: Action) -> tuple[int, int]:
    """The two tiles a chi takes from the hand."""
    a, b = (x for x in action.tiles if x != action.tile)
    return a, b


_NO_SUITED = bytes(27)  # counts of the 27 suited kinds, all zero


def _all_honours(counts: bytes) -> bool:
    return counts[:27] == _NO_SUITED


RULESET = ShanghaiRuleset()
