"""一花起胡 scoring (RULES §3.4–§3.8) and the pure helpers its restrictions need (§3.3).

Score = (b + flowers × b/2) × 2^fan, capped at 10 × b, where b is the base
stake (底数, even). A win on a discard needs at least one flower or one fan
(一花起胡); a self-draw or robbing a kong needs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from games.engine import patterns as catalogue
from games.engine.errors import EngineError
from games.engine.hand import Group, decompositions, is_seven_pairs
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.scoring.shanghai import forbidden_after_chi
from games.engine.state import Meld
from games.engine.tiles import Tile, is_honour, is_suited, suit_of

CAP_FACTOR = catalogue.value("yihua", "eight_flowers")  # (b + 3 × b/2) × 4 = 10 × b (§3.7)
FALSE_WIN_FACTOR = 2  # Y4: 2 × base stake

# ---------------------------------------------------------------------------
# One reading of a winning hand.


@dataclass(frozen=True)
class Reading:
    """The hand read as a normal shape (`groups`) or as seven pairs (groups None)."""

    ctx: WinContext
    groups: tuple[Group, ...] | None

    @property
    def seven_pairs(self) -> bool:
        return self.groups is None

    @cached_property
    def suits(self) -> frozenset[int]:
        return frozenset(suit_of(t) for t in self.ctx.all_tiles if is_suited(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(t) for t in self.ctx.all_tiles)


# ---------------------------------------------------------------------------
# Flowers (§3.5).

# (honour, suited) flowers of each element
_ELEMENT_FLOWERS: dict[str, tuple[int, int]] = {
    "exposed_pung": (1, 0),
    "concealed_pung": (2, 0),
    "exposed_kong": (3, 1),
    "concealed_kong": (4, 2),
}
_MELD_ELEMENT = {
    "pong": "exposed_pung",
    "kong": "exposed_kong",
    "added_kong": "exposed_kong",
    "concealed_kong": "concealed_kong",
}


def element_flowers(tile: Tile, element: str) -> int:
    honour, suited = _ELEMENT_FLOWERS[element]
    return honour if is_honour(tile) else suited


def _pung_element(ctx: WinContext, g: Group) -> str:
    # Decision (§3.5): a pung completed by the winning discard counts as
    # exposed. Only honour pungs are worth flowers, and an honour winning tile
    # can only sit in its pung or the pair, so the pung of that kind is it.
    if ctx.by == "discard" and g.tile == ctx.win_tile:
        return "exposed_pung"
    return "concealed_pung"


def flowers_of(reading: Reading) -> int:
    ctx = reading.ctx
    total = len(ctx.flowers)
    for g in reading.groups or ():
        if g.kind == "pung":
            total += element_flowers(g.tile, _pung_element(ctx, g))
    for m in ctx.melds:
        if m.kind in _MELD_ELEMENT:
            total += element_flowers(m.tile, _MELD_ELEMENT[m.kind])
    return total


# ---------------------------------------------------------------------------
# Fan (§3.6): one small named unit each, with its fan on it.


@dataclass(frozen=True)
class Pattern:
    id: str
    name_zh: str
    fan: int
    test: Callable[[Reading], bool]


def _mixed_one_suit(r: Reading) -> bool:
    return len(r.suits) == 1 and r.has_honours


def _all_pungs(r: Reading) -> bool:
    if r.groups is None:
        return False
    return all(g.kind in ("pung", "pair") for g in r.groups) and all(m.is_pung_like for m in r.ctx.melds)


def _kong_bloom(r: Reading) -> bool:
    # won on a replacement tile (after a kong or a flower), hence a self-draw
    return r.ctx.is_self_draw and (r.ctx.after_kong or r.ctx.after_flower)


def _single_wait(r: Reading) -> bool:
    # Decision (§3.6): all four melds declared, the single concealed tile paired
    ctx = r.ctx
    return len(ctx.melds) == 4 and ctx.concealed == (ctx.win_tile,)


def _pure_one_suit(r: Reading) -> bool:
    return len(r.suits) == 1 and not r.has_honours


def _seven_pairs(r: Reading) -> bool:
    return r.seven_pairs


def _rule(pattern_id: str, test: Callable[[Reading], bool]) -> Pattern:
    """A pattern of the catalogue (games/engine/patterns: the one place of names and values) with its test."""
    entry = catalogue.pattern("yihua", pattern_id)
    assert entry is not None, pattern_id
    return Pattern(entry.id, entry.name_zh, entry.value, test)


PATTERNS: tuple[Pattern, ...] = (
    _rule("mixed_one_suit", _mixed_one_suit),
    _rule("all_pungs", _all_pungs),
    _rule("kong_bloom", _kong_bloom),
    _rule("single_wait", _single_wait),
    _rule("pure_one_suit", _pure_one_suit),
    _rule("seven_pairs", _seven_pairs),
)
CHICKEN = "chicken"  # 鸡胡: named when no fan applies
FLOWERS = "flowers"  # the breakdown entry that counts flowers, not fan

# ---------------------------------------------------------------------------
# Score (§3.7).


def check_base(base: int) -> None:
    """The base stake must be even (flower value b/2); anything else is bad input."""
    if base <= 0 or base % 2:
        raise EngineError("bad_input", f"yihua needs an even base stake (底数), got {base}")


def cap(base: int) -> int:
    return CAP_FACTOR * base


def raw_score(base: int, flowers: int, fan: int) -> int:
    """(b + flowers × b/2) × 2^fan, capped at 10 × b."""
    return min((base + flowers * base // 2) * 2**fan, cap(base))


@dataclass(frozen=True)
class Valuation:
    value: int  # the score, capped
    flowers: int
    fan: int
    patterns: tuple[str, ...]
    breakdown: tuple[tuple[str, int], ...]

    @property
    def meets_minimum(self) -> bool:
        """一花起胡: at least one flower or one fan."""
        return self.flowers >= 1 or self.fan >= 1


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (§3.4); empty when it is not a winning hand."""
    out = [Reading(ctx, groups) for groups in decompositions(ctx.hand_counts)]
    # seven pairs: fully concealed (no meld at all), pairs may repeat
    if not ctx.melds and is_seven_pairs(ctx.hand_counts):
        out.append(Reading(ctx, None))
    return out


def value_of(reading: Reading) -> Valuation:
    applied = [p for p in PATTERNS if p.test(reading)]
    fan = sum(p.fan for p in applied)
    flowers = flowers_of(reading)
    ids = [p.id for p in applied] or [CHICKEN]
    breakdown = [(p.id, p.fan) for p in applied] or [(CHICKEN, 0)]
    breakdown.append((FLOWERS, flowers))
    value = raw_score(reading.ctx.base, flowers, fan)
    return Valuation(value, flowers, fan, tuple(ids), tuple(breakdown))


def best_valuation(ctx: WinContext) -> Valuation | None:
    """The highest-scoring reading (ties: more fan, then more patterns), or None."""
    options = [value_of(r) for r in readings(ctx)]
    if not options:
        return None
    return max(options, key=lambda v: (v.value, v.fan, len(v.patterns), v.patterns))


# ---------------------------------------------------------------------------
# Payments (§3.8).


def payments(ctx: WinContext, value: int) -> tuple[int, ...]:
    pay = [0] * ctx.players
    if ctx.by == "self_draw":
        for s in range(ctx.players):
            if s != ctx.seat:
                pay[s] = -value
    elif ctx.by == "robbing_kong":
        # scored as a self-draw, but the konger alone pays for all three
        assert ctx.from_seat is not None
        pay[ctx.from_seat] = -value * (ctx.players - 1)
    else:
        assert ctx.from_seat is not None
        pay[ctx.from_seat] = -value
    pay[ctx.seat] = -sum(pay)
    return tuple(pay)


def eight_flowers_payments(seat: int, base: int, players: int = 4) -> tuple[int, ...]:
    """§3.7: all eight flowers end the hand; each other player pays the cap, win or not."""
    check_base(base)
    pay = [-cap(base)] * players
    pay[seat] = cap(base) * (players - 1)
    return tuple(pay)


def eight_flowers_result(seat: int, base: int, players: int = 4) -> ScoreResult:
    """§3.7: the settlement of a player holding all eight flowers (the hand ends at once)."""
    return ScoreResult(
        win=True,
        patterns=("eight_flowers",),
        value=cap(base),
        payments=eight_flowers_payments(seat, base, players),
        breakdown=(("eight_flowers", cap(base)),),
    )


def score(ctx: WinContext) -> ScoreResult:
    check_base(ctx.base)
    if len(ctx.flowers) == 8:
        # Decision: a hand holding all eight flowers has already ended (§3.7);
        # whatever its tiles, it is settled as eight flowers: the cap from each.
        return eight_flowers_result(ctx.seat, ctx.base, ctx.players)
    best = best_valuation(ctx)
    if best is None:
        return no_win("not_a_winning_hand", ctx.players)
    if ctx.by == "discard" and not best.meets_minimum:
        return no_win("one_flower_minimum", ctx.players)
    return ScoreResult(
        win=True,
        patterns=best.patterns,
        value=best.value,
        payments=payments(ctx, best.value),
        breakdown=best.breakdown,
    )


# ---------------------------------------------------------------------------
# Restrictions (§3.3): pure helpers the hand machine calls.


def own_discard_blocks(discarded_since_draw: frozenset[Tile], tile: Tile, scores_single_wait: bool) -> bool:
    """Y1: a discard win on `tile` is locked if the player discarded `tile` since their
    own last draw, unless the win scores single_wait (独吊)."""
    return tile in discarded_since_draw and not scores_single_wait


def fan_of(result: ScoreResult) -> int:
    """The 番 of a scored win: its patterns' fan, flowers not counted."""
    return sum(v for k, v in result.breakdown if k != FLOWERS)


def flowers_in(result: ScoreResult) -> int:
    """The flowers a scored win counts (§3.5: flower tiles and honour pungs/kongs)."""
    return sum(v for k, v in result.breakdown if k == FLOWERS)


def adds_fan(result: ScoreResult, passed_fan: int, base: int) -> bool:
    """Y2 exception (seed 001 §二.2): a player who passed a win may win on a later
    discard of the go-round only "有加番的情況下" — the new win carries more 番 than
    the passed one — and not "若此時是否加番已不影響到得分結果時(即不加番也可封頂)":
    the new win scored with only the passed win's 番 (its own flowers kept) must
    score less. More flowers alone never open the lock; a win at the cap with or
    without the extra 番 stays locked."""
    fan = fan_of(result)
    flowers = flowers_in(result)
    return fan > passed_fan and raw_score(base, flowers, fan) > raw_score(base, flowers, passed_fan)


def chi_discard_forbidden(
    hand_tiles_used: tuple[int, int], claimed: Tile, concealed_before: int
) -> frozenset[Tile]:
    """Y3 过牌: as shanghai R3, except that nothing is forbidden when the player
    held exactly 4 concealed tiles before the chi."""
    if concealed_before == 4:
        return frozenset()
    return forbidden_after_chi(hand_tiles_used, claimed)


def false_win_payments(seat: int, base: int, players: int = 4) -> tuple[int, ...]:
    """Y4 诈胡: the offender pays 2 × base; the other three share it equally.

    Decision: the offender loses the full 2 × base (RULES: "costs 2 × base
    stake"); the remainder of the division is dropped, so the payments may
    sum to less than zero by at most players − 2.
    """
    penalty = FALSE_WIN_FACTOR * base
    share = penalty // (players - 1)
    pay = [share] * players
    pay[seat] = -penalty
    return tuple(pay)


def single_wait_possible(melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
    """Whether a win on `tile` would score single_wait: four melds declared and
    `tile` pairs the one concealed tile (used by Y1)."""
    return len(melds) == 4 and tuple(concealed) == (tile,)
