"""广东鸡平和 scoring (RULES §4.3–§4.6) and the pure helpers its play needs (§4.1, §4.2, §4.6).

Fan within the cap (爆和 = 3) add up: a base pattern (chicken, all_chows,
all_pungs, mixed_one_suit) plus bonuses (self-draw, seat/prevailing wind,
dragon pungs), capped at 3. A special hand (§4.4) is worth its own fan, the
highest one only, and ignores the bonuses. kong_bloom, last_tile,
robbing_kong and triple_win raise a hand below 3 fan to 3. Value = 2^fan ×
base stake; payments follow §4.6 with every liability (包).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from games.engine import patterns as catalogue
from games.engine.hand import decompositions, is_thirteen_orphans
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import Meld, PlayerState
from games.engine.tiles import (
    DRAGONS,
    EAST,
    WINDS,
    Tile,
    is_dragon,
    is_honour,
    is_suited,
    is_terminal,
    is_wind,
    suit_of,
)

CAP = 3  # 爆和
MINIMUM = 3  # what kong_bloom, last_tile, robbing_kong and triple_win raise a hand to

# Liability kinds live play may pass in ctx.liability; "none" says the history
# rules a liability out (包先不包后) even though the melds would imply one.
LIABILITY_KINDS = ("twelve_tiles", "big_four_winds", "big_three_dragons")
NO_LIABILITY = "none"


# ---------------------------------------------------------------------------
# One reading of a winning hand.


@dataclass(frozen=True)
class Set:
    """A meld or the pair of a reading: kind run | pung | pair (kongs are pungs)."""

    kind: str
    tile: Tile


@dataclass(frozen=True)
class Reading:
    """The hand read as four melds and a pair (`sets`), or as thirteen orphans (sets empty)."""

    ctx: WinContext
    sets: tuple[Set, ...]

    @property
    def orphans(self) -> bool:
        return not self.sets

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return self.ctx.all_tiles

    @cached_property
    def suits(self) -> frozenset[int]:
        return frozenset(suit_of(t) for t in self.tiles if is_suited(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(t) for t in self.tiles)

    @cached_property
    def pungs(self) -> tuple[Tile, ...]:
        return tuple(s.tile for s in self.sets if s.kind == "pung")

    @cached_property
    def pair(self) -> Tile | None:
        return next((s.tile for s in self.sets if s.kind == "pair"), None)


def _meld_set(m: Meld) -> Set:
    return Set("run" if m.kind == "chi" else "pung", m.tile)


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of the hand; empty when it is no winning shape (§4.4: normal or 十三幺)."""
    declared = tuple(_meld_set(m) for m in ctx.melds)
    out = [
        Reading(ctx, declared + tuple(Set(g.kind, g.tile) for g in groups))
        for groups in decompositions(ctx.hand_counts)
    ]
    if not ctx.melds and is_thirteen_orphans(ctx.hand_counts):
        out.append(Reading(ctx, ()))
    return out


# ---------------------------------------------------------------------------
# Patterns: one small named unit each, with its fan on it. `count` says how
# many times a pattern applies (dragon_pung once per dragon pung; others 0/1).


@dataclass(frozen=True)
class Pattern:
    id: str
    name_zh: str
    fan: int
    count: Callable[[Reading], int]


def _rule(pattern_id: str, count: Callable[[Reading], int]) -> Pattern:
    """A pattern of the catalogue (games/engine/patterns: names and values) with its count."""
    entry = catalogue.pattern("cantonese", pattern_id)
    assert entry is not None, pattern_id
    return Pattern(entry.id, entry.name_zh, entry.value, count)


# -- within the cap (§4.3) ---------------------------------------------------


def _all_chows(r: Reading) -> bool:
    # Seed 002: "平和 1番 全部都是顺子没有刻子" — four runs and a pair, no pungs, on
    # any wait: a win that completes the pair (单吊) is 平和 too.
    return not r.orphans and not r.pungs


def _all_pungs(r: Reading) -> bool:
    return not r.orphans and not any(s.kind == "run" for s in r.sets)


def _mixed_one_suit(r: Reading) -> bool:
    return len(r.suits) == 1 and r.has_honours


BASE_PATTERNS: tuple[Pattern, ...] = (
    _rule("all_chows", _all_chows),
    _rule("all_pungs", _all_pungs),
    _rule("mixed_one_suit", _mixed_one_suit),
)
CHICKEN = _rule("chicken", lambda r: True)  # named when no base pattern applies


def _self_draw(r: Reading) -> bool:
    # robbing a kong is settled like a self-draw (§4.6) but is not one: the
    # bonus is for drawing the tile yourself; robbing_kong raises to 3 anyway
    return r.ctx.is_self_draw


def _seat_wind(r: Reading) -> bool:
    return r.ctx.seat_wind in r.pungs


def _prevailing_wind(r: Reading) -> bool:
    return r.ctx.round_wind in r.pungs


def _dragon_pungs(r: Reading) -> int:
    return sum(1 for t in r.pungs if is_dragon(t))


BONUSES: tuple[Pattern, ...] = (
    _rule("self_draw", _self_draw),
    _rule("seat_wind", _seat_wind),
    _rule("prevailing_wind", _prevailing_wind),
    _rule("dragon_pung", _dragon_pungs),
)


# -- special hands beyond the cap (§4.4) ---------------------------------------


def _pure_one_suit(r: Reading) -> bool:
    return len(r.suits) == 1 and not r.has_honours


def _mixed_pungs(r: Reading) -> bool:
    return _mixed_one_suit(r) and _all_pungs(r)


def _pure_pungs(r: Reading) -> bool:
    return _pure_one_suit(r) and _all_pungs(r)


def _mixed_terminals(r: Reading) -> bool:
    # terminals and honours, both present (all of one kind is pure_terminals / all_honours);
    # a shape of its own only in the normal shape: 十三幺 is scored as itself
    return (
        not r.orphans
        and all(is_terminal(t) or is_honour(t) for t in r.tiles)
        and r.has_honours
        and any(is_terminal(t) for t in r.tiles)
    )


def _small_three_dragons(r: Reading) -> bool:
    return _dragon_pungs(r) == 2 and r.pair in DRAGONS


def _small_four_winds(r: Reading) -> bool:
    return sum(1 for t in r.pungs if is_wind(t)) == 3 and r.pair in WINDS


def _all_honours(r: Reading) -> bool:
    return not r.orphans and all(is_honour(t) for t in r.tiles)


def _pure_terminals(r: Reading) -> bool:
    return not r.orphans and all(is_terminal(t) for t in r.tiles)


def _big_three_dragons(r: Reading) -> bool:
    return _dragon_pungs(r) == 3


def _big_four_winds(r: Reading) -> bool:
    return sum(1 for t in r.pungs if is_wind(t)) == 4


NINE_GATES_SHAPE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates(r: Reading) -> bool:
    # Decision: as the seed says, the 13 tiles held before the win are exactly
    # 1112345678999 of one suit (fully concealed) and any tile of that suit wins.
    ctx = r.ctx
    if ctx.melds or not is_suited(ctx.win_tile):
        return False
    low = ctx.win_tile - ctx.win_tile % 9
    counts = [0] * 9
    for t in ctx.concealed:
        if not low <= t < low + 9:
            return False
        counts[t - low] += 1
    return tuple(counts) == NINE_GATES_SHAPE


def _thirteen_orphans(r: Reading) -> bool:
    return r.orphans


def _heavenly(r: Reading) -> bool:
    # 天和: the dealer self-draws before making any discard, with no kong made
    ctx = r.ctx
    return ctx.first_turn and ctx.is_dealer and ctx.is_self_draw and not ctx.melds


def _earthly(r: Reading) -> bool:
    # 地和: a non-dealer self-draws on their first draw, nobody having claimed
    # or konged before (ctx.first_turn says so; the winner has no meld)
    ctx = r.ctx
    return ctx.first_turn and not ctx.is_dealer and ctx.is_self_draw and not ctx.melds


def _human(r: Reading) -> bool:
    # 人和: a non-dealer wins on a discard before their first draw, nobody
    # having claimed or konged before (robbing a kong means a kong was made)
    ctx = r.ctx
    return ctx.first_turn and not ctx.is_dealer and ctx.by == "discard" and not ctx.melds


SPECIAL_HANDS: tuple[Pattern, ...] = (
    _rule("pure_one_suit", _pure_one_suit),
    _rule("mixed_pungs", _mixed_pungs),
    _rule("pure_pungs", _pure_pungs),
    _rule("mixed_terminals", _mixed_terminals),
    _rule("small_three_dragons", _small_three_dragons),
    _rule("small_four_winds", _small_four_winds),
    _rule("all_honours", _all_honours),
    _rule("pure_terminals", _pure_terminals),
    _rule("big_three_dragons", _big_three_dragons),
    _rule("big_four_winds", _big_four_winds),
    _rule("nine_gates", _nine_gates),
    _rule("thirteen_orphans", _thirteen_orphans),
    _rule("heavenly", _heavenly),
    _rule("earthly", _earthly),
    _rule("human", _human),
)


# -- the 3-fan minimum raisers (§4.5) -------------------------------------------


def _kong_bloom(r: Reading) -> bool:
    return r.ctx.after_kong and r.ctx.is_self_draw


def _last_tile(r: Reading) -> bool:
    # Decision: 海底捞月 is drawing the wall's last tile; a discard is no wall tile
    return r.ctx.last_tile and r.ctx.is_self_draw


def _robbing_kong(r: Reading) -> bool:
    return r.ctx.by == "robbing_kong"


def _triple_win(r: Reading) -> bool:
    return r.ctx.triple_win and r.ctx.by == "discard"


RAISERS: tuple[Pattern, ...] = (
    _rule("kong_bloom", _kong_bloom),
    _rule("last_tile", _last_tile),
    _rule("robbing_kong", _robbing_kong),
    _rule("triple_win", _triple_win),
)


# ---------------------------------------------------------------------------
# Fan of one reading.


@dataclass(frozen=True)
class Valuation:
    fan: int
    patterns: tuple[str, ...]
    breakdown: tuple[tuple[str, int], ...]  # (id, fan it counts for; 0 = named, not counted)


def _applied(patterns: Sequence[Pattern], r: Reading) -> list[tuple[Pattern, int]]:
    return [(p, n) for p in patterns for n in (int(p.count(r)),) if n]


def value_of(r: Reading) -> Valuation:
    base = _applied(BASE_PATTERNS, r)
    bonuses = _applied(BONUSES, r)
    specials = _applied(SPECIAL_HANDS, r)
    raisers = _applied(RAISERS, r)
    if specials:
        # no stacking: the highest special hand alone; everything else is named only
        top = max(specials, key=lambda pn: pn[0].fan)[0]
        fan = top.fan
        counted = {top.id: top.fan}
        named = [p for p, _ in specials] + [p for p, _ in base] + [p for p, _ in bonuses]
    else:
        if not base:
            base = [(CHICKEN, 1)]
        counted = {p.id: p.fan * n for p, n in base + bonuses}
        fan = min(CAP, sum(counted.values()))
        named = [p for p, _ in base + bonuses]
    if raisers and fan < MINIMUM:
        fan = MINIMUM
        counted[raisers[0][0].id] = MINIMUM
    named += [p for p, _ in raisers]
    ids = tuple(dict.fromkeys(p.id for p in named))
    breakdown = tuple((i, counted.get(i, 0)) for i in ids)
    return Valuation(fan, ids, breakdown)


def best_valuation(ctx: WinContext) -> Valuation | None:
    """The highest reading (ties: more patterns named), or None if no winning shape."""
    options = [value_of(r) for r in readings(ctx)]
    if not options:
        return None
    return max(options, key=lambda v: (v.fan, len(v.patterns), v.patterns))


def hand_value(fan: int, base: int) -> int:
    """§4.6: 2^fan × base stake."""
    return 2**fan * base


# ---------------------------------------------------------------------------
# Payments and liability (§4.6).


def _valid_seat(ctx: WinContext, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < ctx.players and seat != ctx.seat


def _feeding_meld(melds: Sequence[Meld], kinds: Sequence[Tile], shown: int) -> int | None:
    """Index of the (shown+1)-th pung of `kinds` among the declared melds, made
    while the winner already showed `shown` of them (大四喜: 3 winds, 大三元: 2
    dragons); None if there is none or it was not claimed from a discard.

    Decision: only exposed melds count as shown (the seed: 已碰出), and the
    feeding one must be a claimed pong or exposed kong (or a pong later added to).
    """
    seen = 0
    for i, m in enumerate(melds):
        if m.tile not in kinds or not m.is_pung_like:
            continue
        if not m.is_exposed:
            return None
        if seen == shown:
            return i
        seen += 1
    return None


def _feeder(melds: Sequence[Meld], kinds: Sequence[Tile], shown: int) -> int | None:
    i = _feeding_meld(melds, kinds, shown)
    return None if i is None else melds[i].from_seat


def _twelve_tiles_feeder(melds: Sequence[Meld]) -> int | None:
    """十二张落地: four exposed declared melds; liable: the discarder of the fourth's tile."""
    if len(melds) == 4 and all(m.is_exposed for m in melds):
        return melds[3].from_seat
    return None


def inferred_liability(ctx: WinContext) -> tuple[str, int] | None:
    """What the declared melds (in order) imply; the history (包先不包后) is not known here.

    Decision: a big four winds / big three dragons feeder is liable before a
    twelve-tile feeder (the special hand is what they fed).
    """
    for kind, seat in (
        ("big_four_winds", _feeder(ctx.melds, WINDS, 3)),
        ("big_three_dragons", _feeder(ctx.melds, DRAGONS, 2)),
        ("twelve_tiles", _twelve_tiles_feeder(ctx.melds)),
    ):
        if seat is not None and _valid_seat(ctx, seat):
            return (kind, seat)
    return None


def self_draw_liable(ctx: WinContext) -> int | None:
    """The seat that pays for all three on a self-draw win, or None."""
    if ctx.after_kong and _valid_seat(ctx, ctx.kong_from):
        return ctx.kong_from  # 杠上开花包杠 (Decision: before 十二张落地 and the others)
    liability = ctx.liability if ctx.liability is not None else inferred_liability(ctx)
    if liability is None:
        return None
    kind, seat = liability
    if kind in LIABILITY_KINDS and _valid_seat(ctx, seat):
        return seat
    return None  # NO_LIABILITY or nonsense: nobody is liable


def payments(ctx: WinContext, value: int) -> tuple[int, ...]:
    pay = [0] * ctx.players
    others = ctx.players - 1
    if ctx.by == "self_draw":
        liable = self_draw_liable(ctx)
        for s in range(ctx.players):
            if s != ctx.seat:
                pay[s] = -value if liable is None else (-others * value if s == liable else 0)
    else:
        src = ctx.from_seat
        assert src is not None, "a discard or robbed kong has a discarder"
        # robbing a kong: the konger pays for all three; 一炮三响: the discarder
        # pays each of the three winners 3 × value
        pay[src] = -value * (others if ctx.by == "robbing_kong" or ctx.triple_win else 1)
    pay[ctx.seat] = -sum(pay)
    return tuple(pay)


def score(ctx: WinContext) -> ScoreResult:
    best = best_valuation(ctx)
    if best is None:
        return no_win("not_a_winning_hand", ctx.players)
    value = hand_value(best.fan, ctx.base)
    return ScoreResult(
        win=True,
        patterns=best.patterns,
        value=value,
        payments=payments(ctx, value),
        breakdown=best.breakdown,
    )


# ---------------------------------------------------------------------------
# Pure helpers for play.


def next_dealer(dealer: int, winners: Sequence[int], players: int = 4) -> int:
    """§4.1: the dealer stays after a draw or when among the winners; else the next seat deals."""
    if not winners or dealer in winners:
        return dealer
    return (dealer + 1) % players


@dataclass(frozen=True)
class MatchProgress:
    """§4.1 bookkeeping: how many times the deal has passed to the next seat.

    The prevailing wind starts East and advances each time the deal has passed
    all four seats; a match of `rounds` wind rounds (1 or 4) is over once the
    deal has passed 4 × rounds times (the last dealer lost the deal).
    """

    passes: int = 0
    players: int = 4

    @property
    def round_wind(self) -> Tile:
        return EAST + (self.passes // self.players) % 4

    def after_hand(self, dealer: int, next_dealer: int) -> MatchProgress:
        return MatchProgress(self.passes + (next_dealer != dealer), self.players)

    def over(self, rounds: int) -> bool:
        return self.passes >= rounds * self.players


def missed_win_blocks(player: PlayerState, tile: Tile, by: str) -> bool:
    """§4.2 漏和: a player who passed a discard win on `tile` may not win on that
    tile discarded by anyone until they draw, chi, pong or kong (the hand
    machine clears win_lock / passed_win_tiles then).

    Decision: robbing a kong is settled as a self-draw, so it is never locked.
    """
    return by == "discard" and player.win_lock and tile in player.passed_win_tiles


def liability_after_claim(
    melds: Sequence[Meld], claimer: int, discarder: int, liabilities: Sequence[tuple[str, int, int]]
) -> tuple[str, int, int] | None:
    """The liability (kind, liable seat, beneficiary) a claim creates, given the
    claimer's melds after the claim and the liabilities already recorded.

    十二张落地 binds a discarder only for the first player they did it to
    (包先不包后): a later one is recorded as ("none", discarder, claimer) so
    that scoring does not infer it from the melds.
    """
    last = len(melds) - 1
    if last < 0 or melds[last].from_seat != discarder:
        return None
    if _feeding_meld(melds, WINDS, 3) == last:
        return ("big_four_winds", discarder, claimer)
    if _feeding_meld(melds, DRAGONS, 2) == last:
        return ("big_three_dragons", discarder, claimer)
    if _twelve_tiles_feeder(melds) == discarder and last == 3:
        already = any(k == "twelve_tiles" and s == discarder for k, s, _b in liabilities)
        return (NO_LIABILITY if already else "twelve_tiles", discarder, claimer)
    return None
