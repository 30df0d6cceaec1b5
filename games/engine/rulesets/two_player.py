"""two_player — 二人麻将 (RULES §6): two players, 72 tiles, the official fan table.

Scoring and the shape helpers live in `games.engine.scoring.two_player`; this
module carries the variant's data, its flow hooks, and the §6.4 optional
extras (开局换牌, 搓牌, the 海底捞月 reserve) as pure functions driven by a
`random.Random` the hand machine passes in, so a hand stays a seed plus its
actions (RULES §1.14).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from games.engine.errors import EngineError
from games.engine.hand import seven_pairs_wait
from games.engine.rulesets.base import Ruleset
from games.engine.rulesets.options import BOOL, ESCAPE_PENALTY, OptionRange
from games.engine.scoring import two_player as scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import HandResult, HandState
from games.engine.state import evolve as replace
from games.engine.tiles import FLOWERS, Tile, is_flower, tiles_of

if TYPE_CHECKING:
    from games.engine.actions import Action

EXCHANGED = "exchanged"  # state.choices key: seats that made their 开局换牌
CUOPAI_DONE = "cuopai_done"  # state.choices key: the wall position of the draw whose 搓牌 was used
SWAP_DONE = "swap_done"  # state.choices key: the wall position of the draw whose 游戏中换牌 was used
SWAP_SIZE = 3  # 游戏中换牌: a pung (刻子) comes in, three tiles of the player's choice go back
READY_LOCKED = "ready_locked"  # §6.2: a declared hand takes no claims and makes no kongs
NOT_READY = "not_ready"  # 报听 with a discard that does not leave the hand ready


class TwoPlayerRuleset(Ruleset):
    id = "two_player"
    name_zh = "二人麻将"
    name_en = "Two-player"
    concealed_special_shapes = True  # 七对 of a hand with no melds
    players = 2
    has_flowers = True
    has_chi = True  # always from the opponent, who is always the previous player
    win_on_discard = True
    multiple_winners = False  # one possible winner on any discard
    robbable_kongs = ("added_kong",)  # seed: 抢杠只应用在蓄杠上
    has_ready = True
    dealer_draws_before_choices = True  # 开局换牌: "莊家發完14張牌、閑家發完13張牌后"
    default_options: ClassVar[dict[str, Any]] = {
        "cap": scoring.DEFAULT_CAP,
        "exchange": False,
        "cuopai": False,
        "cuopai_p": 0.05,
        "reserve": False,
        "reserve_n": 8,
        "swap_pung": False,  # 游戏中换牌: a pung from the wall offered after a draw, like 搓牌 off by default
        "swap_pung_p": 0.05,  # its chance per draw (the seed: "有一定概率"; 搓牌's default)
        "escape_penalty": 13,  # RULES §1.8: 13 × base for two_player
        "self_draw_multiplier": scoring.DEFAULT_SELF_DRAW_MULTIPLIER,  # 1–3: self-draw pays value × m × base
    }
    option_ranges: ClassVar[dict[str, OptionRange]] = {
        "cap": OptionRange(1, 100),  # fan; the seed's 13 by default
        "exchange": BOOL,
        "cuopai": BOOL,
        "cuopai_p": OptionRange(0.0, 1.0),
        "reserve": BOOL,
        "reserve_n": OptionRange(1, 16),  # of 72 tiles; 45 are left after the deal
        "swap_pung": BOOL,
        "swap_pung_p": OptionRange(0.0, 1.0),
        "escape_penalty": ESCAPE_PENALTY,
        "self_draw_multiplier": OptionRange(1, 3),  # self-draw pays value × this × base
    }

    # -- the tiles (§6.1) ----------------------------------------------------
    def wall_tiles(self) -> list[Tile]:
        """万 1m–9m ×4, winds ×4, dragons ×4, flowers 1f–8f once: 72 tiles."""
        return [t for t in scoring.SET_KINDS for _ in range(4)] + list(FLOWERS)

    def reserve(self, state: HandState) -> int:
        """§6.4 海底捞月 reserve: the last N tiles are not drawn in normal play."""
        return reserve_size(dict(state.options))

    def reserve_drawer(self, state: HandState) -> int | None:
        """§6.4: when only the reserve is left, the (first) declared-ready seat draws one tile."""
        return reserve_drawer(state.ready_order)

    # -- 开局换牌: a pre-hand phase while the option is on -------------------------
    def choice_actions(self, state: HandState, seat: int) -> list[Action]:
        from games.engine.actions import Action

        if not state.option("exchange", False) or seat in state.choice(EXCHANGED, ()):
            return []
        kinds = sorted(
            {t for t in range(len(state.players[seat].concealed)) if state.players[seat].concealed[t]}
        )
        # keeping everything first (the timeout default); any subset is accepted (accepts_choice)
        return [Action("exchange"), *(Action("exchange", tiles=(t,)) for t in kinds)]

    def accepts_choice(self, state: HandState, seat: int, action: Action) -> bool:
        if action.type != "exchange" or not self.choice_actions(state, seat):
            return False
        held = bytearray(state.players[seat].concealed)
        for t in action.tiles:
            if not 0 <= t < len(held) or held[t] == 0:
                return False
            held[t] -= 1
        return len(action.tiles) <= state.wall_left - self.reserve(state)

    def apply_choice(self, state: HandState, seat: int, action: Action) -> HandState:
        from games.engine.actions import take_tile

        rng = random.Random(f"{state.seed}:exchange:{seat}")
        head, tail = state.head, state.tail - self.reserve(state)
        done = exchange(state.players[seat].concealed, action.tiles, state.wall[head:tail], rng)
        n = len(action.tiles)
        wall = state.wall[:head] + done.drawn + done.wall + state.wall[tail:]
        flowers = tuple(t for t in done.drawn if is_flower(t))
        p = state.players[seat]
        # the dealer's 14th tile stays the drawn one (shown apart) while it is still held
        kept = p.drawn if p.drawn is not None and done.hand[p.drawn] else None
        state = replace(state, wall=wall, head=head + n, tail=state.tail + n)
        state = state.with_player(seat, concealed=done.hand, flowers=p.flowers + flowers)
        for _ in flowers:  # §1.10: drawn flowers are laid open and replaced from the back
            state, _t = take_tile(self, state, seat, from_back=True)
        state = state.with_player(seat, drawn=kept, draw_count=p.draw_count)
        chosen = dict(state.choices)
        chosen[EXCHANGED] = (*chosen.get(EXCHANGED, ()), seat)
        return replace(state, choices=tuple(sorted(chosen.items())))

    def _apply_swap(self, state: HandState, seat: int, action: Action) -> HandState:
        assert action.tile is not None
        p = state.players[seat]
        state, hand = self._exchange_with_wall(
            state,
            "swap-pung-places",
            SWAP_DONE,
            lambda live, rng: swap_pung(p.concealed, action.tile, action.tiles, live, rng),
        )
        kept = p.drawn if p.drawn is not None and hand[p.drawn] else None  # the drawn tile, if still held
        return state.with_player(seat, concealed=hand, drawn=kept)

    # -- 搓牌: an offer after a draw, by the hand's seeded RNG ----------------------
    def _cuopai_offers(self, state: HandState, seat: int) -> list[Action]:
        from games.engine.actions import Action

        p = state.players[seat]
        if (
            not state.option("cuopai", False)
            or state.turn_start == "claim"
            or p.drawn is None
            or p.ready
            or state.choice(CUOPAI_DONE) == state.head
            or not cuopai_offered(
                random.Random(f"{state.seed}:cuopai:{state.head}"), state.option("cuopai_p")
            )
        ):
            return []
        live = state.wall[state.head : state.tail - self.reserve(state)]
        return [Action("cuopai", t) for t in cuopai_choices(live) if t != p.drawn]

    def extra_turn_actions(self, state: HandState, seat: int) -> list[Action]:
        return [*self._cuopai_offers(state, seat), *self._swap_offers(state, seat)]

    # -- 游戏中换牌: a pung of the wall offered after a draw, by the hand's seeded RNG ------------
    def pung_on_offer(self, state: HandState, seat: int) -> Tile | None:
        """The kind whose pung the system offers `seat` now, if it offers one. The chance and
        the kind come from the hand's seed (its committed salt), keyed by the draw's wall
        position, so `verify` re-derives every offer."""
        p = state.players[seat]
        if (
            not state.option("swap_pung", False)
            or state.phase != "turn"
            or seat != state.turn
            or state.turn_start == "claim"
            or p.drawn is None
            or p.ready  # the seed: after 报听 "不允許換張"
            or state.choice(SWAP_DONE) == state.head
        ):
            return None
        rng = random.Random(f"{state.seed}:swap-pung:{state.head}")
        if not cuopai_offered(rng, state.option("swap_pung_p")):
            return None
        kind = pung_in_wall(state.wall[state.head : state.tail - self.reserve(state)], rng)
        if kind is None or p.hand_size - p.concealed[kind] < SWAP_SIZE:
            return None  # a pung for three tiles: a hand of fewer than three others cannot pay
        return kind

    def _swap_offers(self, state: HandState, seat: int) -> list[Action]:
        """The offer, listed with the three highest other tiles as the suggested gift (any three
        the player holds are accepted: `accepts_turn_extra`)."""
        from games.engine.actions import Action

        kind = self.pung_on_offer(state, seat)
        if kind is None:
            return []
        others = [t for t in tiles_of(state.players[seat].concealed) if t != kind]
        return [Action("swap", kind, tiles=tuple(sorted(others[-SWAP_SIZE:])))]

    def accepts_turn_extra(self, state: HandState, seat: int, action: Action) -> bool:
        if action.type != "swap" or len(action.tiles) != SWAP_SIZE or action.tile is None:
            return False
        if action.tile != self.pung_on_offer(state, seat) or action.tile in action.tiles:
            return False
        held = bytearray(state.players[seat].concealed)
        for t in action.tiles:
            if not 0 <= t < len(held) or held[t] == 0:
                return False
            held[t] -= 1
        return True

    def apply_turn_extra(self, state: HandState, seat: int, action: Action) -> HandState:
        if action.type == "swap":
            return self._apply_swap(state, seat, action)
        p = state.players[seat]
        assert action.tile is not None and p.drawn is not None
        state, hand = self._exchange_with_wall(
            state,
            "cuopai-pick",
            CUOPAI_DONE,
            lambda live, rng: cuopai_swap(p.concealed, p.drawn, action.tile, live, rng),
        )
        return state.with_player(seat, concealed=hand, drawn=action.tile)

    def _exchange_with_wall(
        self, state: HandState, salt_label: str, done: str, exchange: Callable[..., tuple[Any, tuple]]
    ) -> tuple[HandState, Any]:
        """An exchange with the live wall (搓牌, 游戏中换牌): `exchange(live, rng)` gives the new
        concealed counts and live wall; the places are drawn from the hand's seed, so a record
        replays and verifies, and the exchange is marked done at this point of the wall."""
        head, tail = state.head, state.tail - self.reserve(state)
        rng = random.Random(f"{state.seed}:{salt_label}:{head}")
        hand, live = exchange(state.wall[head:tail], rng)
        chosen = dict(state.choices)
        chosen[done] = head
        wall = state.wall[:head] + live + state.wall[tail:]
        return replace(state, wall=wall, choices=tuple(sorted(chosen.items()))), hand

    # -- during play -----------------------------------------------------------
    def is_winning_shape(self, state: HandState, seat: int, counts: bytes) -> bool:
        """Every shape of the official table (seven pairs too), with the seat's melds."""
        melds = state.players[seat].melds
        if sum(counts) + 3 * len(melds) != 14:
            return False
        return scoring.is_complete(counts, melds)

    def wait_candidates(self, state: HandState, seat: int, counts: bytes) -> set[Tile]:
        """The two-player set is one suit and the honours, so of the official table's shapes
        only the normal one and 七对 can be made."""
        found = super().wait_candidates(state, seat, counts)
        if not state.players[seat].melds:
            found |= seven_pairs_wait(counts)
        return found

    def is_ready_hand(self, state: HandState, seat: int, counts: bytes) -> bool:
        """§6.2: a 13-tile hand (with the seat's melds) one tile from winning."""
        return scoring.is_ready(counts, state.players[seat].melds)

    def restriction(self, state: HandState, seat: int, action: Action) -> str | None:
        p = state.players[seat]
        if p.ready and action.type in ("chi", "pong", "kong"):
            return READY_LOCKED
        if action.type == "discard" and action.ready and action.tile is not None:
            if p.ready:
                return READY_LOCKED  # declared once; the declaration stands
            rest = bytearray(p.concealed)
            rest[action.tile] -= 1
            if not scoring.is_ready(bytes(rest), p.melds):
                return NOT_READY
        return None

    # -- scoring and flow ------------------------------------------------------
    def score(self, ctx: WinContext) -> ScoreResult:
        return scoring.score(ctx)

    def next_dealer(self, state: HandState, result: HandResult) -> int:
        """§6.1: the winner deals next; after a drawn hand the dealer stays."""
        if result.drawn:
            return state.dealer
        return result.winners[0]


RULESET = TwoPlayerRuleset()


# ---------------------------------------------------------------------------
# §6.4 optional extras (table settings, off by default).


def reserve_size(options: dict[str, Any]) -> int:
    """How many tiles at the end of the wall the 海底捞月 reserve holds (0 when off)."""
    if not options.get("reserve", False):
        return 0
    n = options.get("reserve_n", 8)
    allowed = TwoPlayerRuleset.option_ranges["reserve_n"]  # the one declared range
    if isinstance(n, bool) or not isinstance(n, int) or not allowed.admits(n):
        raise EngineError("bad_option", f"the two_player option 'reserve_n' must be {allowed.describe()}")
    return n


def reserve_drawer(ready_order: Sequence[int]) -> int | None:
    """Who draws the one reserve tile when only the reserve is left.

    `ready_order` lists the seats that declared 报听, in the order they
    declared. Exactly one ready → that seat; both → the first to declare;
    nobody → None, and the hand is drawn. (Decision: "ready" means declared,
    the state the table shows; an undeclared ready hand does not draw.)
    """
    return ready_order[0] if ready_order else None


class Exchange(NamedTuple):
    hand: bytes  # the hand's counts after the exchange (flowers drawn not included)
    drawn: tuple[Tile, ...]  # the tiles drawn, in order, flowers included
    wall: tuple[Tile, ...]  # the live wall afterwards


def exchange(
    hand: bytes, returned: Sequence[Tile], live_wall: Sequence[Tile], rng: random.Random
) -> Exchange:
    """开局换牌 (§6.4): return any number of tiles once and draw as many.

    The player draws from the front of the live wall first; then each returned
    tile goes into the rest of the live wall at a position the seeded RNG
    picks (Decision: a returned tile never comes straight back; it may come
    back later, like any wall tile). Drawn flowers are reported in `drawn` and
    left out of `hand`: the hand machine lays them open and replaces them from
    the back as RULES §1.10 says.
    """
    counts = bytearray(hand)
    for t in returned:
        if is_flower(t) or not 0 <= t < len(counts) or counts[t] == 0:
            raise EngineError("bad_action", "you can only return tiles you hold")
        counts[t] -= 1
    n = len(returned)
    if n > len(live_wall):
        raise EngineError("bad_action", "the wall does not have that many tiles")
    drawn = tuple(live_wall[:n])
    wall = list(live_wall[n:])
    for t in returned:
        wall.insert(rng.randrange(len(wall) + 1), t)
    for t in drawn:
        if not is_flower(t):
            counts[t] += 1
    return Exchange(bytes(counts), drawn, tuple(wall))


def cuopai_offered(rng: random.Random, p: float = 0.05) -> bool:
    """搓牌 (§6.4): after a draw, with probability p the player may swap the drawn tile."""
    return rng.random() < p


def cuopai_choices(live_wall: Sequence[Tile]) -> tuple[Tile, ...]:
    """The kinds the player may take: any tile still in the (drawable) wall.

    Decision: flowers are not offered (a flower is never kept); the hand
    machine passes the wall outside the reserve, so the reserve stays intact.
    """
    return tuple(sorted({t for t in live_wall if not is_flower(t)}))


def cuopai_swap(
    hand: bytes, drawn: Tile, wanted: Tile, live_wall: Sequence[Tile], rng: random.Random
) -> tuple[bytes, tuple[Tile, ...]]:
    """Swap the drawn tile for a tile of kind `wanted` from the wall.

    The drawn tile takes the place of the wanted one; which copy of `wanted`
    (when several are in the wall) is chosen by the seeded RNG, so the player's
    choice does not reorder the wall beyond that one position.
    """
    places = [i for i, t in enumerate(live_wall) if t == wanted]
    if not places or is_flower(wanted):
        raise EngineError("bad_action", "that tile is not in the wall")
    if hand[drawn] == 0:
        raise EngineError("bad_action", "the drawn tile is not in the hand")
    wall = list(live_wall)
    wall[rng.choice(places)] = drawn
    counts = bytearray(hand)
    counts[drawn] -= 1
    counts[wanted] += 1
    return bytes(counts), tuple(wall)


def pung_in_wall(live_wall: Sequence[Tile], rng: random.Random) -> Tile | None:
    """游戏中换牌: the kind of the pung the system offers — one of the kinds with at least three
    tiles in the drawable wall ("所有沒打出和沒配到玩家手上的牌"), picked by the seeded RNG; None when
    the wall holds no pung. Flowers are never offered (a flower is never kept)."""
    kinds = sorted({t for t in live_wall if not is_flower(t) and live_wall.count(t) >= SWAP_SIZE})
    return rng.choice(kinds) if kinds else None


def swap_pung(
    hand: bytes, kind: Tile, given: Sequence[Tile], live_wall: Sequence[Tile], rng: random.Random
) -> tuple[bytes, tuple[Tile, ...]]:
    """Take three tiles of `kind` from the wall into the hand; the three `given` tiles take their
    places (which three copies, when the wall holds four, the seeded RNG picks)."""
    places = [i for i, t in enumerate(live_wall) if t == kind]
    if len(places) < SWAP_SIZE or len(given) != SWAP_SIZE or kind in given:
        raise EngineError("bad_action", "that pung is not on offer for those tiles")
    counts = bytearray(hand)
    for t in given:
        if counts[t] == 0:
            raise EngineError("bad_action", "you can only give tiles you hold")
        counts[t] -= 1
    counts[kind] += SWAP_SIZE
    wall = list(live_wall)
    for place, t in zip(sorted(rng.sample(places, SWAP_SIZE)), given, strict=True):
        wall[place] = t
    return bytes(counts), tuple(wall)
