"""The Ruleset interface: what varies between the five variants.

The hand machine (`games.engine.actions`) is generic: it deals, draws, opens
claim windows and resolves them by RULES §1.9. Everything a variant decides is
a class attribute or a hook here, overridden in `rulesets/<variant>.py`:

- data: players, which tiles, flowers, chi, discard wins, several winners;
- restrictions: `restriction(state, seat, action)` returns an error code for
  an action the variant forbids (it then is missing from `legal_actions`, and
  `apply` rejects it with that code);
- winning: `win_check(state, seat, ctx)` (shape, minimums, locks) and
  `score(ctx)` (patterns, value, payments — the score CLI calls this);
- flow hooks: `setup` after the deal, pre-hand choices, kong payments,
  dealer rotation, settlement with the balance floor.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from games.engine.hand import MAX_MELDS, is_complete, shanten, shanten_each_step, waits_known
from games.engine.rulesets.options import OptionRange, Value, check_options
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import HandResult, HandState, Meld
from games.engine.tiles import FLOWERS, KINDS, Tile

if TYPE_CHECKING:
    from games.engine.actions import Action

# The highest base stake (底分) any table may set — the API, the form and the services read this one
# number (two copies disagreed: the form said 1000 while the services allowed 10,000). With the
# 50 × base entry floor, a base of 1000 already needs 50,000 points.
MAX_BASE = 1000


def only_between(result: HandResult, counted: Sequence[bool]) -> HandResult:
    """The hand's payments restricted to flows between `counted` seats (a table with
    bots moves points only between its humans; a payment to or from a bot is practice).

    Each payment vector is split into flows loser → gainer in proportion to what each gainer
    is owed; flows with an uncounted seat at either end are dropped (rounded down, so a filtered
    vector still sums to zero). The balance floor (`settle`) then applies as usual."""

    def keep(payments: Sequence[int]) -> tuple[int, ...]:
        gains = [max(0, p) if counted[s] else 0 for s, p in enumerate(payments)]
        total_gain = sum(max(0, p) for p in payments)
        kept = [0] * len(payments)
        if not total_gain:
            return tuple(kept)
        for loser, p in enumerate(payments):
            if p >= 0 or not counted[loser]:
                continue
            for gainer, gain in enumerate(gains):
                flow = -p * gain // total_gain
                kept[loser] -= flow
                kept[gainer] += flow
        return tuple(kept)

    return replace(
        result,
        scores=tuple(replace(s, payments=keep(s.payments)) for s in result.scores),
        payments=keep(result.payments),
        extras=tuple((reason, keep(p)) for reason, p in result.extras),
    )


class Ruleset:
    id: ClassVar[str] = ""
    name_zh: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    players: ClassVar[int] = 4
    even_stake: ClassVar[bool] = False  # the base stake must be even (yihua: its payments halve it)
    has_flowers: ClassVar[bool] = True
    has_chi: ClassVar[bool] = True
    win_on_discard: ClassVar[bool] = True
    multiple_winners: ClassVar[bool] = True  # 一炮多响
    kong_after_claim: ClassVar[bool] = False  # kongs also on a turn begun by chi/pong (yihua)
    robbable_kongs: ClassVar[tuple[str, ...]] = ("added_kong",)
    has_ready: ClassVar[bool] = False  # 报听 (two_player)
    # The dealer takes the 14th tile before the pre-hand choices (two_player 开局换牌: "莊家發完14張牌、
    # 閑家發完13張牌后…換掉"), instead of after them (tianjin 坐庄/拉庄 come before any tile is taken).
    dealer_draws_before_choices: ClassVar[bool] = False
    # The pre-hand choices are made blind: while they are open no view shows a concealed tile or
    # the jokers (tianjin 坐庄/拉庄 come "玩家拿牌前", before the players take their tiles).
    blind_choices: ClassVar[bool] = False
    # A hand with no melds may be made in a special shape the normal one's shanten does not see
    # (十三幺, 七对): the waits help's quick tests then ask the rules (may_wait and the next).
    concealed_special_shapes: ClassVar[bool] = False
    # House rules a table may set, with defaults (values must be JSON-able).
    default_options: ClassVar[dict[str, Any]] = {}
    # The values each option admits (options.py): every key of `default_options` has one. A range
    # for an option not (yet) in `default_options` is inert: the option stays unknown.
    option_ranges: ClassVar[dict[str, OptionRange]] = {}

    def check_options(self, options: Any) -> dict[str, Value]:
        """The table's options if the rule set admits every one (else OptionError, 'bad_option')."""
        return check_options(self.id, self.default_options, self.option_ranges, options)

    # -- the tiles ---------------------------------------------------------
    def wall_tiles(self) -> list[Tile]:
        """Every tile of the set, in a fixed order (the wall shuffles it)."""
        tiles = [t for t in range(KINDS) for _ in range(4)]
        if self.has_flowers:
            tiles.extend(FLOWERS)
        return tiles

    def reserve(self, state: HandState) -> int:
        """Tiles at the end of the wall that normal draws may not take."""
        return 0

    def reserve_drawer(self, state: HandState) -> int | None:
        """When only the reserve is left: the seat that draws one reserve tile, or None (drawn hand)."""
        return None

    # -- house rules -----------------------------------------------------------
    # -- before play ---------------------------------------------------------
    def setup(self, state: HandState, rng: random.Random) -> HandState:
        """Called once after the deal and flower replacement, before the dealer's
        first draw (jokers, 荒番). `rng` continues the hand's seeded RNG."""
        return state

    def choice_actions(self, state: HandState, seat: int) -> list[Action]:
        """Pre-hand choices still open for `seat` while phase == 'choose'."""
        return []

    def accepts_choice(self, state: HandState, seat: int, action: Action) -> bool:
        """Pre-hand choices too many to list (开局换牌 returns any subset of the hand):
        True accepts `action` although `choice_actions` does not list it."""
        return False

    def apply_choice(self, state: HandState, seat: int, action: Action) -> HandState:
        """Record a pre-hand choice (one of `choice_actions`); the machine starts
        play once no seat has a choice left."""
        raise NotImplementedError

    def on_claim(self, state: HandState, seat: int, meld: Meld) -> HandState:
        """After `seat` claimed a discard into `meld` (liabilities: 十二张落地, 大四喜…)."""
        return state

    # -- during play -------------------------------------------------------
    def is_joker(self, state: HandState, tile: Tile) -> bool:
        return tile in state.jokers

    def extra_turn_actions(self, state: HandState, seat: int) -> list[Action]:
        """Variant-only actions on the seat's own turn (搓牌 offers)."""
        return []

    def accepts_turn_extra(self, state: HandState, seat: int, action: Action) -> bool:
        """Turn actions too many to list (游戏中换牌 gives any three tiles for the offered pung):
        True accepts `action` although `extra_turn_actions` does not list it."""
        return False

    def apply_turn_extra(self, state: HandState, seat: int, action: Action) -> HandState:
        """Apply one of `extra_turn_actions`; the turn goes on."""
        raise NotImplementedError

    def is_ready_hand(self, state: HandState, seat: int, counts: bytes) -> bool:
        """A 13-tile concealed part one tile from winning (for 报听)."""
        return bool(waits_known(counts))

    def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
        """An error code if the variant forbids this otherwise possible action."""
        return None

    def wait_candidates(self, state: HandState, seat: int, counts: bytes) -> set[Tile]:
        """Kinds that might complete the concealed part `counts` (3k+1 tiles): every kind
        `is_winning_shape` would accept with it, and maybe more. The waits help tests only these,
        because asking the shape test of all 34 kinds, for every seat at every version, was most of
        a live table's CPU (docs/benchmarks.md). Here the normal shape, jokers standing for any
        tile: the table-driven `hand.waits`, and the joker kinds themselves. A variant with special
        shapes adds the kinds those could take (tests/engine/test_waits.py checks the superset)."""
        jokers = sum(counts[t] for t in state.jokers)
        if not jokers:
            return set(waits_known(counts)).union(state.jokers)
        plain = bytearray(counts)
        for t in state.jokers:
            plain[t] = 0
        return set(waits_known(bytes(plain), jokers)).union(state.jokers)

    def may_wait(self, state: HandState, seat: int, counts: bytes) -> bool:
        """Whether the concealed part `counts` (3k+1 tiles) might wait on something: False only
        when `wait_candidates` could find no wait. A seat that does not move is asked its waits
        help at every version, and most hands are one tile from ready or more: `shanten` of the
        normal shape (a joker's completion included) answers before the state is blinded and the
        candidates asked. A variant whose special shapes could wait where the normal one cannot
        answers True for those hands. Reads only what the seat sees: its own tiles, melds and
        flowers, and the joker kinds."""
        if self.concealed_special_shapes and not state.players[seat].melds:
            return True
        held_jokers = [t for t in state.jokers if t < KINDS and counts[t]]
        if not held_jokers:
            return shanten(counts[:KINDS]) <= 0
        plain = bytearray(counts[:KINDS])
        for t in held_jokers:
            plain[t] = 0
        return shanten(bytes(plain), sum(counts[t] for t in held_jokers)) <= 0

    def discards_that_may_wait(self, state: HandState, seat: int, counts: bytes) -> list[Tile] | None:
        """Of the kinds in the concealed part `counts` (3k+2 tiles, the seat's turn), those whose
        discard might leave it waiting on something, in order: every discard `wait_candidates`
        could find a wait for, and maybe more; None: every discard must be asked. The discard →
        waits table of the seat to play asked the candidates after each of its ~12 discards, at
        every turn of every hand, while most hands are two tiles or more from ready: one pass of
        `shanten_each_step` over the 14 tiles says which discards leave the normal shape ready
        (a hand one tile from ready or more has no wait, a joker's included). A variant whose
        special shapes could wait where the normal one cannot answers None for those hands."""
        if self.concealed_special_shapes and not state.players[seat].melds:
            return None
        held_jokers = [t for t in state.jokers if t < KINDS and counts[t]]
        jokers = sum(counts[t] for t in held_jokers)
        plain = bytearray(counts[:KINDS])
        for t in held_jokers:
            plain[t] = 0
        melds = min(MAX_MELDS, (sum(plain) + jokers - 1) // 3)
        after = shanten_each_step(bytes(plain), jokers, melds, -1)
        # a joker thrown leaves one joker fewer: always asked (a rare hand, jokers being wild)
        return [
            t
            for t in range(KINDS)
            if counts[t] and (t in held_jokers or (after[t] is not None and after[t] <= 0))
        ]

    def is_winning_shape(self, state: HandState, seat: int, counts: bytes) -> bool:
        """Shape test for the concealed part `counts` (winning tile included).

        Override to add a variant's special shapes (七对, 十三幺, 八花 …); the
        machine asks this before it scores a possible win."""
        jokers = sum(counts[t] for t in state.jokers)
        if jokers:
            plain = bytearray(counts)
            for t in state.jokers:
                plain[t] = 0
            return is_complete(bytes(plain), jokers)
        return is_complete(counts)

    def win_check(self, state: HandState, seat: int, ctx: WinContext) -> ScoreResult:
        """Score a possible win; a refused win has win=False and a reason code."""
        return self.score(ctx)

    def fan_of(self, result: ScoreResult) -> int:
        """The 番 a win carries apart from flowers (yihua Y2 加番 compares them); 0 where unused."""
        return 0

    def on_kong(self, state: HandState, seat: int, kind: str) -> HandState:
        """After a kong is made (tianjin pays kongs when made)."""
        return state

    def on_flowers(self, state: HandState, seat: int) -> HandState:
        """After `seat` laid flowers open (yihua: eight flowers end the hand)."""
        return state

    def on_false_win(self, state: HandState, seat: int) -> HandState | None:
        """A win declared that is not allowed: None rejects it (the default);
        a state applies a penalty and the hand goes on (yihua Y4)."""
        return None

    # -- scoring -------------------------------------------------------------
    def score(self, ctx: WinContext) -> ScoreResult:
        return no_win("not_implemented", ctx.players)

    def finish(self, state: HandState, result: HandResult) -> HandResult:
        """Last word on a hand's result: extra payments (铲), the next dealer."""
        return result

    def carry_counters(self, state: HandState, result: HandResult) -> dict[str, int]:
        """Table counters handed to the next hand's `new_hand(counters=…)` (shanghai 荒番 H)."""
        return dict(state.counters)

    def match_rounds(self, options: dict[str, Any]) -> int | None:
        """Wind rounds in a match (cantonese: 1 or 4); None: the match goes on until players leave."""
        return None

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """Default: the dealer stays after a dealer win or a draw, else the next seat deals."""
        if result.drawn or state.dealer in result.winners:
            return state.dealer
        return (state.dealer + 1) % state.num_players

    def settle(self, result: HandResult, balances: Sequence[int], discarder: int | None) -> list[int]:
        """Final payments after the balance floor (RULES §1.5): nobody goes below 0.

        Each winner's share is collected in order next > opposite > previous
        after the discarder (or after the winner for a self-draw), until a
        loser's balance runs out.
        """
        n = len(balances)
        left = list(balances)
        final = [0] * n
        per_winner = [s.payments for s in result.scores] if result.scores else []
        other = [result.payments] if not per_winner else []
        if per_winner:
            extra = (
                [sum(p) for p in zip(*(e for _, e in result.extras), strict=True)] if result.extras else []
            )
            if extra:
                other.append(tuple(extra))
        start = discarder if discarder is not None else (result.winners[0] if result.winners else 0)
        order = sorted(range(len(per_winner)), key=lambda i: (result.winners[i] - start) % n)
        for payments in [per_winner[i] for i in order] + other:
            owed = [max(0, -p) for p in payments]
            paid = [min(owed[s], left[s]) for s in range(n)]
            gains = [max(0, p) for p in payments]
            total_gain = sum(gains)
            total_paid = sum(paid)
            for s in range(n):
                left[s] -= paid[s]
                final[s] -= paid[s]
            if total_gain:
                # the collected points go to the gainers in proportion to what they were owed
                shares = [total_paid * g // total_gain for g in gains]
                shares[max(range(n), key=lambda s: gains[s])] += total_paid - sum(shares)
                for s in range(n):
                    left[s] += shares[s]
                    final[s] += shares[s]
        return final

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"
