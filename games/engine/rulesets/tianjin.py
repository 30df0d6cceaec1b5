"""tianjin — 天津麻将 (RULES §5): 136 tiles, jokers (混), no chi, self-draw wins only.

Scoring lives in `games.engine.scoring.tianjin`, with the pure helpers the
play hooks use (joker kinds, pair multiplier, kong payments, 铲, the joker
pong ban).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from games.engine.rulesets.base import Ruleset
from games.engine.scoring import tianjin as scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState, evolve
from games.engine.wall import roll_dice

if TYPE_CHECKING:
    from games.engine.actions import Action


ZUO = "zuozhuang"  # state.choices: the dealer's 坐庄 (bool)
LA = "lazhuang"  # state.choices: every seat's 拉 count (tuple; the dealer's is 0)


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
    # §5.2: 坐庄/拉庄 are chosen "在游戏开始后,玩家拿牌前". The wall is shuffled, committed and dealt
    # as always (so a record replays and verifies unchanged), but no view shows a tile or the 开混
    # until every choice is made.
    blind_choices = True
    default_options: ClassVar[dict[str, Any]] = {}

    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    # -- before play: the joker indicator (§5.3), then 坐庄 / 拉庄 (§5.2) ---------------
    def setup(self, state: HandState, rng: random.Random) -> HandState:
        """The dealer's opposite rolls; counting that many stacks (two tiles each) from the
        tail of the wall, the top tile of that stack is turned up as the indicator and taken
        out of play. Jokers: its kind and the next kind in the cycle."""
        dice = roll_dice(rng)
        index = state.tail - 2 * sum(dice)
        indicator = state.wall[index]
        wall = state.wall[:index] + state.wall[index + 1 :]
        return evolve(
            state,
            wall=wall,
            tail=state.tail - 1,
            joker_dice=dice,
            indicator=indicator,
            jokers=scoring.joker_kinds(indicator),
        )

    def choice_actions(self, state: HandState, seat: int) -> list[Action]:
        """The dealer chooses 坐庄 (no first, the timeout default); each non-dealer 不拉 / 拉一庄 / 拉两庄."""
        from games.engine.actions import Action

        chosen = dict(state.choices)
        if seat == state.dealer:
            return [] if ZUO in chosen else [Action("choose", kind=ZUO, value=v) for v in (0, 1)]
        if f"{LA}_{seat}" in chosen or LA in chosen:
            return []
        return [Action("choose", kind=LA, value=v) for v in (0, 1, 2)]

    def apply_choice(self, state: HandState, seat: int, action: Action) -> HandState:
        chosen = dict(state.choices)
        if action.kind == ZUO:
            chosen[ZUO] = bool(action.value)
        else:
            chosen[f"{LA}_{seat}"] = action.value
        others = [s for s in range(state.num_players) if s != state.dealer]
        if ZUO in chosen and all(f"{LA}_{s}" in chosen for s in others):
            # everyone has chosen: the choices are shown all at once, as the stakes of the hand
            chosen[LA] = tuple(chosen.pop(f"{LA}_{s}") if s != state.dealer else 0 for s in range(4))
        return evolve(state, choices=tuple(sorted(chosen.items())))

    def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
        """§5.3: no pong (nor exposed kong) of a discarded joker."""
        if action.type == "pong" or (action.type == "kong" and action.kind == "exposed"):
            tile = action.tile
            assert tile is not None
            held = state.players[seat].concealed[tile]
            if scoring.claim_blocked(action.type, tile, state.jokers, held):
                return "joker_claim"
        return None

    def _stakes(self, state: HandState) -> tuple[bool, tuple[int, ...]]:
        return bool(state.choice("zuozhuang", False)), tuple(state.choice("lazhuang", ()) or ())

    def on_kong(self, state: HandState, seat: int, kind: str) -> HandState:
        """§5.5: a kong is paid when made (exposed/added 1, concealed 2, 金杠 4, × m × base)."""
        melds = state.players[seat].melds
        # an exposed or concealed kong is the last meld; an added kong's kind is never joker
        tile = melds[-1].tile if melds and kind != "added" else -1
        zuo, la = self._stakes(state)
        pay = scoring.kong_payments(
            seat, kind, tile, state.jokers, state.dealer, zuo, la, state.base, state.num_players
        )
        return evolve(state, kong_payments=(*state.kong_payments, pay))

    def finish(self, state: HandState, result: HandResult) -> HandResult:
        """铲 (§5.5): paid at settlement, even in a drawn hand."""
        zuo, la = self._stakes(state)
        chan = scoring.chan_payments(
            state.first_discards, state.dealer, zuo, la, state.base, state.num_players
        )
        if chan is None:
            return result
        return evolve(result, extras=(*result.extras, ("chan", chan)))

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§5.1: the dealer stays after a draw or a win of theirs; else the next seat deals."""
        return scoring.next_dealer(state.dealer, result.winners, state.num_players)


RULESET = TianjinRuleset()
