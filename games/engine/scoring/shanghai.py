"""上海麻将 scoring (RULES §2.4–§2.8) and the pure helpers its restrictions need (§2.3, §2.7).

A win is read every way it can be (each decomposition of the concealed part;
a special shape that has no normal reading is read once as a whole), each
reading is valued by the class rules of §2.6, and the highest value is kept.

Values are in flowers (花). Class 1 and class 2 patterns carry a fixed number
of flowers and only the highest of the class counts; otherwise the hand is
worth its base flowers (底花) doubled once per fan of the class 3 patterns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from games.engine import patterns as catalogue
from games.engine.hand import Group, decompositions
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import Meld
from games.engine.tiles import HONOR, Tile, is_dragon, is_honour, is_suited, is_wind, suit_of

# ---------------------------------------------------------------------------
# One reading of a winning hand.


@dataclass(frozen=True)
class Reading:
    """The winning hand read one way.

    `groups` are the concealed part's melds and pair (winning tile included);
    None when the hand wins only as a special shape (eight flowers or
    all-honours-any-shape) and has no normal reading.
    """

    ctx: WinContext
    groups: tuple[Group, ...] | None

    @property
    def normal(self) -> bool:
        return self.groups is not None

    @cached_property
    def suits(self) -> frozenset[int]:
        """The suited suits (0 m, 1 p, 2 s) among all 14 tiles."""
        return frozenset(suit_of(t) for t in self.ctx.all_tiles if is_suited(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(t) for t in self.ctx.all_tiles)

    @property
    def one_suit(self) -> bool:
        return len(self.suits) == 1

    @property
    def all_honours(self) -> bool:
        return not self.suits

    @property
    def all_pungs(self) -> bool:
        """Normal shape whose four melds are all pungs or kongs."""
        if self.groups is None:
            return False
        concealed_ok = all(g.kind in ("pung", "pair") for g in self.groups)
        return concealed_ok and all(m.is_pung_like for m in self.ctx.melds)


# ---------------------------------------------------------------------------
# Patterns (§2.5 / §2.6): one small named unit each, with its class and value.


@dataclass(frozen=True)
class Pattern:
    id: str
    name_zh: str
    klass: int  # 1, 2 or 3 (§2.6)
    value: int  # flowers for class 1 and 2, fan for class 3
    test: Callable[[Reading], bool]


def _heavenly(r: Reading) -> bool:
    # first_turn: the winner has not discarded yet; the dealer then can only
    # be winning on its first fourteen tiles (or a replacement of them)
    return r.ctx.first_turn and r.ctx.is_dealer


def _earthly(r: Reading) -> bool:
    return r.ctx.first_turn and not r.ctx.is_dealer


def _eight_flowers(r: Reading) -> bool:
    return len(r.ctx.flowers) == 8


def _honours_any(r: Reading) -> bool:
    return r.all_honours


def _all_honour_pungs(r: Reading) -> bool:
    # honours cannot form runs, so a normal all-honours hand is all pungs
    return r.normal and r.all_honours


def _pure_pungs(r: Reading) -> bool:
    return r.one_suit and not r.has_honours and r.all_pungs


def _pure_one_suit(r: Reading) -> bool:
    return r.normal and r.one_suit and not r.has_honours


def _mixed_pungs(r: Reading) -> bool:
    return r.one_suit and r.has_honours and r.all_pungs


def _big_hanging(r: Reading) -> bool:
    # 大吊车: all four melds called (concealed kongs included: the concealed
    # part is then one tile either way), winning on the last single tile
    return r.normal and len(r.ctx.melds) == 4


def _kong_bloom(r: Reading) -> bool:
    # a replacement tile is drawn, so only a self-draw can be a kong bloom
    return r.ctx.is_self_draw and (r.ctx.after_kong or r.ctx.after_flower)


def _mixed_one_suit(r: Reading) -> bool:
    return r.normal and r.one_suit and r.has_honours


def _all_pungs(r: Reading) -> bool:
    return r.all_pungs


def _rule(pattern_id: str, klass: int, test: Callable[[Reading], bool]) -> Pattern:
    """A pattern of the catalogue (games/engine/patterns: the one place of names and values) with its test."""
    entry = catalogue.pattern("shanghai", pattern_id)
    assert entry is not None, pattern_id
    return Pattern(entry.id, entry.name_zh, klass, entry.value, test)


PATTERNS: tuple[Pattern, ...] = (
    _rule("heavenly", 1, _heavenly),
    _rule("earthly", 1, _earthly),
    _rule("eight_flowers", 1, _eight_flowers),
    _rule("all_honour_pungs", 2, _all_honour_pungs),
    _rule("honours_any", 2, _honours_any),
    _rule("pure_pungs", 2, _pure_pungs),
    _rule("pure_one_suit", 2, _pure_one_suit),
    _rule("mixed_pungs", 2, _mixed_pungs),
    _rule("big_hanging", 2, _big_hanging),
    _rule("kong_bloom", 3, _kong_bloom),
    _rule("mixed_one_suit", 3, _mixed_one_suit),
    _rule("all_pungs", 3, _all_pungs),
)
PATTERN_BY_ID = {p.id: p for p in PATTERNS}

# ---------------------------------------------------------------------------
# Base flowers (底花, §2.6).

BASE_FLOWERS = 3
# element → flowers, by the tile's family (wind, dragon, suited)
_ELEMENT_FLOWERS: dict[str, tuple[int, int, int]] = {
    "pung": (1, 2, 0),  # exposed or concealed alike
    "exposed_kong": (2, 3, 1),  # from a discard or added (上杠)
    "concealed_kong": (3, 4, 2),
}


def element_flowers(tile: Tile, element: str) -> int:
    """Flowers of one pung or kong of `tile` (element: pung | exposed_kong | concealed_kong)."""
    wind, dragon, suited = _ELEMENT_FLOWERS[element]
    if is_wind(tile):
        return wind
    if is_dragon(tile):
        return dragon
    return suited


def _meld_element(m: Meld) -> str | None:
    if m.kind == "pong":
        return "pung"
    if m.kind in ("kong", "added_kong"):
        return "exposed_kong"
    if m.kind == "concealed_kong":
        return "concealed_kong"
    return None  # a chi is worth nothing


def base_flowers(ctx: WinContext, groups: Sequence[Group]) -> int:
    """3 + each flower tile + each honour pung + each kong by kind (§2.6).

    A pung completed by the winning discard is worth the same exposed or
    concealed here (§2.6 prices pungs alike), so the question never arises.
    """
    total = BASE_FLOWERS + len(ctx.flowers)
    total += sum(element_flowers(g.tile, "pung") for g in groups if g.kind == "pung")
    for m in ctx.melds:
        element = _meld_element(m)
        if element is not None:
            total += element_flowers(m.tile, element)
    return total


# ---------------------------------------------------------------------------
# Valuing a reading.


@dataclass(frozen=True)
class Valuation:
    value: int  # final flowers (荒番 included)
    patterns: tuple[str, ...]
    breakdown: tuple[tuple[str, int], ...]


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of the hand; empty when it is not a winning hand (§2.4)."""
    out = [Reading(ctx, groups) for groups in decompositions(ctx.hand_counts)]
    special = Reading(ctx, None)
    if not out and (_eight_flowers(special) or _honours_any(special)):
        out.append(special)
    return out


def value_of(reading: Reading) -> Valuation:
    """The flowers of one reading by the class rules of §2.6, then 荒番 (§2.7)."""
    applied = [p for p in PATTERNS if p.test(reading)]
    for klass in (1, 2):
        top = max((p for p in applied if p.klass == klass), key=lambda p: p.value, default=None)
        if top is not None:
            # only the highest of the class counts; the others are named with 0
            breakdown = [(p.id, p.value if p is top else 0) for p in applied]
            value = top.value
            break
    else:
        assert reading.groups is not None  # special shapes are always class 1 or 2
        base = base_flowers(reading.ctx, reading.groups)
        fan = sum(p.value for p in applied)
        breakdown = [(p.id, p.value) for p in applied] + [("base_flowers", base)]
        value = base * 2**fan
    if reading.ctx.huangfan:
        value *= 2
        breakdown.append(("huangfan", 2))
    return Valuation(value, tuple(p.id for p in applied), tuple(breakdown))


def best_valuation(ctx: WinContext) -> Valuation | None:
    """The highest-valued reading (ties: the one naming more patterns), or None."""
    options = [value_of(r) for r in readings(ctx)]
    if not options:
        return None
    return max(options, key=lambda v: (v.value, len(v.patterns), v.patterns))


# ---------------------------------------------------------------------------
# Payments (§2.8).


def related(claims: Sequence[tuple[int, int, int]], a: int, b: int) -> bool:
    """三口: one of a, b has claimed a discard of the other three times (either direction).

    Repeated entries for the same claimer and discarder add up.
    """
    for claimer, discarder in ((a, b), (b, a)):
        if sum(t for c, d, t in claims if c == claimer and d == discarder) >= 3:
            return True
    return False


def payments(ctx: WinContext, value: int, several_winners: bool = False) -> tuple[int, ...]:
    """What each seat gains or loses from this win alone (sums to zero)."""
    unit = value * ctx.base
    pay = [0] * ctx.players
    others = [s for s in range(ctx.players) if s != ctx.seat]
    if ctx.is_self_draw:
        for s in others:
            pay[s] = -unit * (3 if related(ctx.claims, s, ctx.seat) else 1)
    elif several_winners:
        # 一炮多响: only the discarder pays each winner, +1 unit if the two are related
        assert ctx.from_seat is not None
        pay[ctx.from_seat] = -unit * (2 if related(ctx.claims, ctx.from_seat, ctx.seat) else 1)
    else:
        # a discard (or the konger, robbed): 1 unit, and everyone related 1 more
        assert ctx.from_seat is not None
        pay[ctx.from_seat] = -unit
        for s in others:
            if related(ctx.claims, s, ctx.seat):
                pay[s] -= unit
    pay[ctx.seat] = -sum(pay)
    return tuple(pay)


def score(ctx: WinContext) -> ScoreResult:
    best = best_valuation(ctx)
    if best is None:
        return no_win("not_a_winning_hand", ctx.players)
    return ScoreResult(
        win=True,
        patterns=best.patterns,
        value=best.value,
        payments=payments(ctx, best.value, several_winners=ctx.multi_win),
        breakdown=best.breakdown,
    )


def settle_with_floor(
    per_winner_payments: Sequence[Sequence[int]],
    winners: Sequence[int],
    discarder: int | None,
    balances: Sequence[int],
) -> list[int]:
    """Apply the balance floor (§1.5, §2.8 last bullet) to one hand's wins.

    Each loser pays at most what is left of their balance. Winners are paid
    in order next > opposite > previous of the discarder (in the given order
    for a self-draw), each until the money runs out. Returns the final
    change of every seat; it still sums to zero.
    """
    n = len(balances)
    left = [max(0, b) for b in balances]
    final = [0] * n
    if discarder is None:
        order = list(range(len(winners)))
    else:
        order = sorted(range(len(winners)), key=lambda i: (winners[i] - discarder) % n)
    for i in order:
        winner = winners[i]
        for seat, owed in enumerate(per_winner_payments[i]):
            if owed >= 0 or seat == winner:
                continue
            paid = min(-owed, left[seat])
            left[seat] -= paid
            final[seat] -= paid
            final[winner] += paid
            left[winner] += paid
    return final


# ---------------------------------------------------------------------------
# Restrictions (§2.3): pure helpers the hand machine's `restriction` calls.


def forbidden_after_chi(hand_tiles_used: tuple[int, int], claimed: int) -> frozenset[Tile]:
    """R3: tiles the player may not discard right after chi of `claimed` with two hand tiles.

    The claimed tile itself, and the tile d ≠ t that makes a run with the
    two hand tiles (holding 5-6, chi 4 → also 7; holding 3-5, chi 4 → none).
    """
    a, b = sorted(hand_tiles_used)
    out = {claimed}
    if b - a == 1:
        for d in (a - 1, b + 1):
            if d != claimed and 0 <= d < HONOR and d // 9 == a // 9:
                out.add(d)
    return frozenset(out)


def _suited_suit(tile: Tile) -> int | None:
    return suit_of(tile) if is_suited(tile) else None


def chi_blocked_by_commitment(melds: Sequence[Meld], chi_suit: int) -> bool:
    """R4: a chi of suit `chi_suit` (0 m, 1 p, 2 s) is illegal beside any meld of another suited suit."""
    return any(_suited_suit(m.tile) not in (None, chi_suit) for m in melds)


def pong_blocked_by_commitment(melds: Sequence[Meld], tile: Tile) -> bool:
    """R4: a pong or any kong of `tile` is illegal beside a chi of another suited suit.

    Honour pongs and kongs are never blocked.
    """
    suit = _suited_suit(tile)
    if suit is None:
        return False
    return any(m.kind == "chi" and suit_of(m.tile) != suit for m in melds)


# ---------------------------------------------------------------------------
# 荒番 (§2.7).


def huangfan_dice_increment(dice: tuple[int, int]) -> int:
    """How much a roll adds to the 荒番 counter before play."""
    a, b = dice
    if (a, b) in ((1, 1), (4, 4)):
        return 2
    if 1 in dice or 4 in dice or a == b:
        return 1
    return 0


def huangfan_cause(counter: int, dice: tuple[int, ...]) -> str | None:
    """Why a hand is a 荒番 hand, from the counter H it started with (the dice already added,
    §2.7): "dice" (this hand's roll alone), "drawn" (carried from drawn hands before), "both";
    None when it is not one."""
    if counter <= 0:
        return None
    rolled = huangfan_dice_increment((dice[0], dice[1])) if len(dice) == 2 else 0
    if rolled and counter > rolled:
        return "both"
    return "dice" if rolled else "drawn"


def huangfan_after_hand(counter: int, drawn: bool) -> int:
    """The counter carried to the next hand: +1 after a drawn hand, −1 after a win (not below 0)."""
    return counter + 1 if drawn else max(0, counter - 1)


def chi_leaves_a_discard(
    concealed: bytes, run: tuple[Tile, ...], claimed: Tile, forbidden: frozenset[Tile]
) -> bool:
    """Whether, after chi of `claimed` into `run`, some concealed tile may still be discarded.

    A chi must be followed by a discard (§2.2); when every tile left is one
    R3 forbids (holding 4 5 6 7 with 3 melds down, chi 4 with 5 6 leaves 4 7),
    the chi itself cannot be made.
    """
    left = bytearray(concealed)
    for x in run:
        if x != claimed:
            left[x] -= 1
    return any(n and t not in forbidden for t, n in enumerate(left))
