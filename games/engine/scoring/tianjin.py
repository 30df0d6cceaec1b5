"""天津麻将 scoring (RULES §5.5) and the pure helpers its play needs (§5.1–§5.4).

Jokers (混, §5.3): every tile of the two joker kinds in the concealed part
(winning tile included) stands for any tile in the winning shape; declared
melds are taken as they are. Wins are self-draws only, normal shape only,
and a player who discarded a joker (小相公) may not win.

Value = 1, doubled by each of clean, joker_wait, catch_five, kong_bloom and
quadrupled by dragon (multiplicative). Each other player pays value × m ×
base, m being the pair multiplier of 坐庄 / 拉庄 (§5.2). Jokers are read the
way that gives the highest value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from games.engine import patterns as catalogue
from games.engine.hand import is_complete
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.tiles import HONOR, KINDS, Tile, add, next_in_cycle

FIVE_MAN = 4  # 5m

# ---------------------------------------------------------------------------
# Jokers.


def joker_kinds(indicator: Tile) -> tuple[Tile, Tile]:
    """§5.3: the indicator's kind and the next one (suited 9 → 1, E→S→W→N→E, 中→发→白→中)."""
    return (indicator, next_in_cycle(indicator))


def split_jokers(tiles: Iterable[Tile], jokers: Sequence[Tile]) -> tuple[bytes, int]:
    """(counts of the non-joker tiles, how many joker tiles)."""
    plain = bytearray(KINDS)
    n = 0
    for t in tiles:
        if t in jokers:
            n += 1
        else:
            plain[t] += 1
    return bytes(plain), n


def is_winning_shape(tiles: Iterable[Tile], jokers: Sequence[Tile]) -> bool:
    """Four melds and a pair (declared melds counted apart), jokers standing in."""
    plain, n = split_jokers(tiles, jokers)
    return is_complete(plain, n)


def _melds_only(plain: bytes, jokers: int) -> bool:
    """Whether the tiles (with `jokers`) make whole melds and no pair.

    Adding a pair of a kind the hand lacks turns this into the usual complete
    test: the new pair can only stay a pair or, with jokers, a meld of its own,
    and either way the original tiles need no more jokers than melds alone.
    """
    free = next((h for h in range(HONOR, KINDS) if not plain[h]), None)
    if free is None:
        return False  # all seven honour kinds: seven groups, never four melds
    return is_complete(add(plain, free, 2), jokers)


def is_joker_wait(concealed: Iterable[Tile], jokers: Sequence[Tile]) -> bool:
    """混吊 (§5.5), read on the concealed part before the winning tile:
    单混吊 = melds + one joker, 双混吊 = melds + a pair + two jokers; either
    wins on any tile. A hand waiting on a plain tile does not become 混吊 by
    drawing a joker, which is why the winning tile is left out here."""
    plain, n = split_jokers(concealed, jokers)
    if n >= 1 and _melds_only(plain, n - 1):
        return True
    return n >= 2 and is_complete(plain, n - 2)


# ---------------------------------------------------------------------------
# Readings. Only two patterns depend on what the jokers stand for: dragon (three
# runs 123 456 789 of one suit) and catch_five (the winning tile as the 5m of a
# 4m-5m-6m run). A reading fixes those runs; it exists when the tiles they need
# can be taken out (a plain tile where one is held, else a joker: a joker can
# always trade places with a plain tile it would otherwise stand for) and the
# rest is still a complete hand with the jokers left.


@dataclass(frozen=True)
class Reading:
    ctx: WinContext
    dragon_suit: int | None  # 0 m, 1 p, 2 s: the suit read as 龙
    catch_five: bool  # the winning tile read as the 5m of a 4m-5m-6m run

    @cached_property
    def win_is_joker(self) -> bool:
        return self.ctx.win_tile in self.ctx.jokers


def _slots(ctx: WinContext, dragon_suit: int | None, catch_five: bool) -> list[tuple[Tile, bool]] | None:
    """The tiles a reading takes out, as (kind, must be the drawn joker); None if impossible."""
    slots: list[tuple[Tile, bool]] = []
    if dragon_suit is not None:
        slots += [(dragon_suit * 9 + k, False) for k in range(9)]
    if catch_five:
        win_is_joker = ctx.win_tile in ctx.jokers
        if not win_is_joker and ctx.win_tile != FIVE_MAN:
            return None
        run = [(t, win_is_joker and t == FIVE_MAN) for t in (FIVE_MAN - 1, FIVE_MAN, FIVE_MAN + 1)]
        if dragon_suit == 0:
            # the dragon's own 4m-5m-6m is the run: its 5m is the winning tile
            slots = [s for s in slots if s[0] != FIVE_MAN] + [run[1]]
        else:
            slots += run
    return slots


def reading_exists(ctx: WinContext, dragon_suit: int | None, catch_five: bool) -> bool:
    slots = _slots(ctx, dragon_suit, catch_five)
    if slots is None:
        return False
    plain, n = split_jokers(ctx.hand_tiles, ctx.jokers)
    rest = bytearray(plain)
    for t, drawn_joker in slots:
        if not drawn_joker and rest[t]:
            rest[t] -= 1
        else:
            n -= 1
    return n >= 0 and is_complete(bytes(rest), n)


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of a winning hand, as far as the patterns can tell them apart."""
    if not is_winning_shape(ctx.hand_tiles, ctx.jokers):
        return []
    return [
        Reading(ctx, suit, catch)
        for suit in (None, 0, 1, 2)
        for catch in (False, True)
        if reading_exists(ctx, suit, catch)
    ]


# ---------------------------------------------------------------------------
# Patterns: one small named unit each, with its multiplier on it.


@dataclass(frozen=True)
class Pattern:
    id: str
    name_zh: str
    factor: int
    test: Callable[[Reading], bool]


def _clean(r: Reading) -> bool:
    # 素的: no joker tile in the hand at all, not even standing for itself
    # (Decision: "the hand" is the concealed part and the winning tile)
    return not any(t in r.ctx.jokers for t in r.ctx.hand_tiles)


def _joker_wait(r: Reading) -> bool:
    return is_joker_wait(r.ctx.concealed, r.ctx.jokers)


def _catch_five(r: Reading) -> bool:
    # 捉5: the winning tile is 5m (or a joker standing for it) and completes a
    # 4m-5m-6m run; jokers may stand for 4m / 6m; characters only
    return r.catch_five


def _dragon(r: Reading) -> bool:
    # 龙: 1-9 of one suit as three runs (123, 456, 789); jokers may stand in
    return r.dragon_suit is not None


def _kong_bloom(r: Reading) -> bool:
    return r.ctx.after_kong


def _rule(pattern_id: str, test: Callable[[Reading], bool]) -> Pattern:
    """A pattern of the catalogue (games/engine/patterns: the one place of names and values) with its test."""
    entry = catalogue.pattern("tianjin", pattern_id)
    assert entry is not None, pattern_id
    return Pattern(entry.id, entry.name_zh, entry.value, test)


PATTERNS: tuple[Pattern, ...] = (
    _rule("clean", _clean),
    _rule("joker_wait", _joker_wait),
    _rule("catch_five", _catch_five),
    _rule("dragon", _dragon),
    _rule("kong_bloom", _kong_bloom),
)


@dataclass(frozen=True)
class Valuation:
    value: int
    patterns: tuple[str, ...]
    breakdown: tuple[tuple[str, int], ...]


def value_of(r: Reading) -> Valuation:
    applied = [p for p in PATTERNS if p.test(r)]
    value = 1
    for p in applied:
        value *= p.factor
    return Valuation(value, tuple(p.id for p in applied), tuple((p.id, p.factor) for p in applied))


def best_valuation(ctx: WinContext) -> Valuation | None:
    options = [value_of(r) for r in readings(ctx)]
    if not options:
        return None
    return max(options, key=lambda v: (v.value, len(v.patterns), v.patterns))


# ---------------------------------------------------------------------------
# Stakes and payments (§5.2, §5.5).


def pair_multiplier(a: int, b: int, dealer: int, zuozhuang: bool, lazhuang: Sequence[int]) -> int:
    """m(a, b): between the dealer and k, (2 if 坐庄 else 1) × 2^(k's 拉 count); else 1."""
    if a == b or dealer not in (a, b):
        return 1
    other = b if a == dealer else a
    la = lazhuang[other] if other < len(lazhuang) else 0
    return (2 if zuozhuang else 1) * 2**la


def each_pays(
    receiver: int,
    amount: int,
    dealer: int,
    zuozhuang: bool,
    lazhuang: Sequence[int],
    base: int,
    players: int = 4,
) -> tuple[int, ...]:
    """Every other player pays `receiver` amount × m × base."""
    pay = [0] * players
    for s in range(players):
        if s != receiver:
            pay[s] = -amount * pair_multiplier(receiver, s, dealer, zuozhuang, lazhuang) * base
    pay[receiver] = -sum(pay)
    return tuple(pay)


def score(ctx: WinContext) -> ScoreResult:
    best = best_valuation(ctx)
    if best is None:
        return no_win("not_a_winning_hand", ctx.players)
    if ctx.discarded_joker:
        return no_win("discarded_joker", ctx.players)  # 小相公
    if not ctx.is_self_draw:
        return no_win("self_draw_only", ctx.players)  # robbing a kong is no self-draw either
    return ScoreResult(
        win=True,
        patterns=best.patterns,
        value=best.value,
        payments=each_pays(
            ctx.seat, best.value, ctx.dealer, ctx.zuozhuang, ctx.lazhuang, ctx.base, ctx.players
        ),
        breakdown=best.breakdown,
    )


# ---------------------------------------------------------------------------
# Pure helpers for play.

KONG_VALUES = {"exposed": 1, "added": 1, "concealed": 2, "gold": 4}


def kong_kind_value(kind: str, tile: Tile, jokers: Sequence[Tile]) -> int:
    """§5.5: exposed or added kong 1, concealed 2, 金杠 (four jokers, concealed) 4.
    `kind` as the hand machine says it: exposed | added | concealed (or the Meld kinds)."""
    kind = {"kong": "exposed", "added_kong": "added", "concealed_kong": "concealed"}.get(kind, kind)
    if kind == "concealed" and tile in jokers:
        kind = "gold"
    return KONG_VALUES[kind]


def kong_payments(
    seat: int,
    kind: str,
    tile: Tile,
    jokers: Sequence[Tile],
    dealer: int,
    zuozhuang: bool,
    lazhuang: Sequence[int],
    base: int,
    players: int = 4,
) -> tuple[int, ...]:
    """What a kong pays when made: each other player value × m × base to the konger."""
    return each_pays(seat, kong_kind_value(kind, tile, jokers), dealer, zuozhuang, lazhuang, base, players)


def chan_payments(
    first_discards: Sequence[Tile],
    dealer: int,
    zuozhuang: bool,
    lazhuang: Sequence[int],
    base: int,
    players: int = 4,
    discarders: Sequence[int] | None = None,
) -> tuple[int, ...] | None:
    """铲: the hand's first four discards (the dealer's, then each non-dealer's
    in turn) are the same tile → the dealer pays each non-dealer 1 × m × base,
    even in a drawn hand. None when there is no 铲.

    `discarders` (optional) are the seats of those discards; when given they
    must be the dealer and then each next seat (a claim in between breaks it).
    """
    if len(first_discards) < players or len(set(first_discards[:players])) != 1:
        return None
    if discarders is not None and list(discarders[:players]) != [
        (dealer + k) % players for k in range(players)
    ]:
        return None
    pay = [0] * players
    for s in range(players):
        if s != dealer:
            pay[s] = pair_multiplier(dealer, s, dealer, zuozhuang, lazhuang) * base
    pay[dealer] = -sum(pay)
    return tuple(pay)


def claim_blocked(action: str, tile: Tile, jokers: Sequence[Tile], held: int) -> bool:
    """§5.3: holding 2 tiles of a joker kind you may not pong a discarded tile of
    that kind. Decision: an exposed kong of a discarded joker (holding 3) is
    refused too — the only joker kong is the concealed 金杠."""
    if tile not in jokers:
        return False
    if action == "pong":
        return held >= 2
    return action == "kong"


def next_dealer(dealer: int, winners: Sequence[int], players: int = 4) -> int:
    """§5.1: the dealer stays after a draw or a win of theirs; else the next seat deals."""
    if not winners or dealer in winners:
        return dealer
    return (dealer + 1) % players
