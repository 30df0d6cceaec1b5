"""二人麻将 scoring (RULES §6.3) and the shape helpers its play needs (§6.2).

The Chinese Official (国标) fan table decides the value, through the PyPI
package `pymahjonggb` (imported as `MahjongGB`, a C++ implementation of the
table with its counting principles). Flowers count 1 fan each (the library adds
them itself: `flowerCount` → 花牌 × n). The library applies no 8-fan minimum
(`calculate_fan` only reports fans; 起和 is left to its callers), which is what
§6.3 wants: no minimum. Value = fan total capped at the table option `cap`
(default 13). The loser pays value × 3 × base stake for a self-draw or a robbed
kong (seed 004 §三: "自摸：(基本分)×3方×底分", "搶杠,記分按自摸計") and value ×
base for a discard win; the table option `self_draw_multiplier` (1–3, default
3) replaces the 3.

Library conventions checked against its source and by tests: tiles W1–W9
characters, B1–B9 dots, T1–T9 bamboo, F1–F4 E S W N, J1 中 red, J2 发 green,
J3 白 white; a pack is (CHI|PENG|GANG, tile — a chow's middle tile —, offer)
with offer 0 = concealed (only a concealed kong) and 1–3 = claimed (for a chow:
which of its three tiles was claimed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from MahjongGB import MahjongFanCalculator, MahjongShanten

from games.engine import patterns as catalogue
from games.engine.errors import EngineError
from games.engine.patterns import two_player as catalogue_tp
from games.engine.scoring.context import ScoreResult, WinContext, no_win
from games.engine.state import Meld
from games.engine.tiles import EAST, GREEN, HONOR, KINDS, RED, WHITE, Tile, counts_of, format_tiles

DEFAULT_CAP = 13  # seed: "每1番为1分, 13分封顶"
DEFAULT_SELF_DRAW_MULTIPLIER = 3  # seed 004 §三: "自摸：(基本分)×3方×底分"
MAX_SELF_DRAW_MULTIPLIER = 3  # a house rule may soften it (1: every win pays alike), not raise it
# The 72-tile set (§6.1): 万 1m–9m and the seven honours (flowers aside).
SET_KINDS: tuple[Tile, ...] = (*range(0, 9), *range(HONOR, KINDS))
NOT_WIN = "ERROR_NOT_WIN"

# ---------------------------------------------------------------------------
# Our tiles and melds in the library's terms.

_SUIT_LETTERS = "WBT"  # our suits m, p, s → the library's characters, dots, bamboo
_DRAGON_NAMES = {RED: "J1", GREEN: "J2", WHITE: "J3"}  # not in our 5z 6z 7z order!


def gb_tile(t: Tile) -> str:
    """Our tile id → the library's tile code ('W5', 'F1', 'J3' …)."""
    if t < HONOR:
        return f"{_SUIT_LETTERS[t // 9]}{t % 9 + 1}"
    if t < WHITE:
        return f"F{t - EAST + 1}"
    return _DRAGON_NAMES[t]


def gb_pack(meld: Meld) -> tuple[str, str, int]:
    """A declared meld as the library's pack tuple.

    Any claimed pack is offered by the only opponent, who is always the
    previous player (上家, the library's offer 1 = left). For a chow the offer
    says which of its tiles was claimed; when the record does not say (the
    CLI), the first: it only has to be non-zero to mark the chow as melded.
    """
    tiles = sorted(meld.tiles)
    if meld.kind == "chi":
        offer = tiles.index(meld.claimed) + 1 if meld.claimed in tiles else 1
        return ("CHI", gb_tile(tiles[1]), offer)
    if meld.kind == "pong":
        return ("PENG", gb_tile(tiles[0]), 1)
    return ("GANG", gb_tile(tiles[0]), 0 if meld.kind == "concealed_kong" else 1)


def _packs(melds: Sequence[Meld]) -> tuple[tuple[str, str, int], ...]:
    return tuple(gb_pack(m) for m in melds)


def _hand(counts: Sequence[int]) -> tuple[str, ...]:
    return tuple(gb_tile(t) for t in range(KINDS) for _ in range(counts[t]))


# ---------------------------------------------------------------------------
# The fan table: one entry per fan the library can name, with the pattern id
# our score CLI reports (docs/rules/two_player.md lists them).


@dataclass(frozen=True)
class Fan:
    name_zh: str  # exactly as the library names it
    id: str
    value: int  # official value of one occurrence


# Built from the pattern catalogue (games/engine/patterns/two_player.py): the one
# place of ids, names and values, which the rules pages and the settlement share.
FANS: tuple[Fan, ...] = tuple(
    Fan(name, pid, catalogue.value("two_player", pid)) for name, pid in catalogue_tp.LIBRARY_NAMES.items()
)
FANS_BY_NAME: dict[str, Fan] = {f.name_zh: f for f in FANS}


def fan_id(name_zh: str, name_en: str) -> str:
    """Our id for a fan the library names; a fan missing from FANS (a newer
    library) still gets a stable id from its English name rather than failing."""
    fan = FANS_BY_NAME.get(name_zh)
    if fan is not None:
        return fan.id
    return "gb_" + re.sub(r"[^a-z0-9]+", "_", name_en.lower()).strip("_")


# ---------------------------------------------------------------------------
# Scoring one win.


def cap_of(options: Mapping[str, Any]) -> int:
    cap = options.get("cap", DEFAULT_CAP)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise EngineError("bad_option", "the two_player option 'cap' must be a whole number ≥ 1")
    return cap


def self_draw_multiplier_of(options: Mapping[str, Any]) -> int:
    """How many times the value a self-drawn (or robbing-kong) win pays: the house rule, 1–3."""
    m = options.get("self_draw_multiplier", DEFAULT_SELF_DRAW_MULTIPLIER)
    if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= MAX_SELF_DRAW_MULTIPLIER:
        raise EngineError(
            "bad_option",
            "the two_player option 'self_draw_multiplier' must be a whole number "
            f"1–{MAX_SELF_DRAW_MULTIPLIER}",
        )
    return m


def _require_tile_set(ctx: WinContext) -> None:
    strays = sorted({t for t in ctx.all_tiles if t not in SET_KINDS})
    if strays:
        raise EngineError(
            "bad_input",
            f"two_player is played with 万 (m), winds and dragons only, not {format_tiles(strays)}",
        )


def is_fourth_tile(ctx: WinContext) -> bool:
    """和绝张: the other three tiles of the winning kind are already visible.

    Live play knows the discards and sets `ctx.fourth_tile`; the CLI cannot
    express them, so from the case alone a 4th tile is one whose three others
    lie in the winner's own exposed melds. Robbing a kong never counts (the
    official table: 抢杠和不计和绝张).
    """
    if ctx.by == "robbing_kong":
        return False
    shown = sum(m.tiles.count(ctx.win_tile) for m in ctx.melds if m.is_exposed)
    return ctx.fourth_tile or shown >= 3


def calculate_fans(
    melds: Sequence[Meld],
    rest: Sequence[int],
    win: Tile,
    *,
    flowers: int = 0,
    self_drawn: bool = True,
    fourth: bool = False,
    about_kong: bool = False,
    wall_last: bool = False,
    seat_wind: int = 0,
    prevalent_wind: int = 0,
) -> tuple[tuple[int, int, str, str], ...] | None:
    """The library's (fan value, count, 中文名, English name) list; None if no win."""
    try:
        return MahjongFanCalculator(
            pack=_packs(melds),
            hand=_hand(rest),
            winTile=gb_tile(win),
            flowerCount=flowers,
            isSelfDrawn=self_drawn,
            is4thTile=fourth,
            isAboutKong=about_kong,
            isWallLast=wall_last,
            seatWind=seat_wind,
            prevalentWind=prevalent_wind,
            verbose=True,
        )
    except TypeError as e:
        if str(e) == NOT_WIN:
            return None
        raise EngineError("bad_input", f"the fan calculator refused the hand: {e}") from None


def gb_fans(ctx: WinContext) -> tuple[tuple[str, int], ...] | None:
    """(id, fan) for every fan the official table gives this win; None if it is no win."""
    self_drawn = ctx.by == "self_draw"
    fans = calculate_fans(
        ctx.melds,
        counts_of(ctx.concealed),
        ctx.win_tile,
        flowers=len(ctx.flowers),
        self_drawn=self_drawn,
        fourth=is_fourth_tile(ctx),
        # 杠上开花 needs a kong replacement (a flower replacement is a plain
        # self-draw in the official table); 抢杠和 is the library's "about
        # kong" on a win that is not self-drawn.
        about_kong=(self_drawn and ctx.after_kong) or ctx.by == "robbing_kong",
        wall_last=ctx.last_tile,
        seat_wind=(ctx.seat - ctx.dealer) % ctx.players,
        prevalent_wind=ctx.round_wind - EAST,
    )
    if fans is None:
        return None
    return tuple((fan_id(zh, en), point * count) for point, count, zh, en in fans)


def payments_for(ctx: WinContext, value: int) -> tuple[int, ...]:
    """The loser (the discarder, the konger, or on a self-draw the other seat) pays
    value × base stake, times the self-draw multiplier when the win is self-drawn
    or robs a kong (scored as a self-draw, seed 004 §三)."""
    multiplier = self_draw_multiplier_of(ctx.options)  # checked on every win, not only self-draws
    times = 1 if ctx.by == "discard" else multiplier
    amount = value * times * ctx.base
    loser = ctx.from_seat if ctx.from_seat is not None and ctx.by != "self_draw" else (ctx.seat + 1) % 2
    out = [0] * ctx.players
    out[ctx.seat] += amount
    out[loser] -= amount
    return tuple(out)


def score(ctx: WinContext) -> ScoreResult:
    _require_tile_set(ctx)
    cap = cap_of(ctx.options)
    breakdown = gb_fans(ctx)
    if breakdown is None:
        return no_win("not_a_winning_hand", ctx.players)
    total = sum(v for _, v in breakdown)
    value = min(total, cap)
    return ScoreResult(
        win=True,
        patterns=tuple(dict.fromkeys(pid for pid, _ in breakdown)),
        value=value,
        payments=payments_for(ctx, value),
        breakdown=breakdown,
    )


# ---------------------------------------------------------------------------
# Shapes for play: complete, waits, ready (报听, §6.2).


def _check_size(counts: Sequence[int], melds: Sequence[Meld], size: int) -> None:
    if sum(counts) + 3 * len(melds) != size:
        raise EngineError("bad_input", f"expected {size} tiles counting each meld as 3")


def is_complete(counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """Whether the concealed `counts` (14 − 3 × melds tiles) with these melds
    form any winning shape of the official table (four melds and a pair, seven
    pairs, thirteen orphans, knitted shapes)."""
    _check_size(counts, melds, 14)
    win = next(t for t in range(KINDS) if counts[t])  # the shape does not depend on which tile came last
    rest = bytearray(counts[:KINDS])
    rest[win] -= 1
    return calculate_fans(melds, rest, win) is not None


def waits(counts: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[Tile, ...]:
    """Kinds of the 72-tile set that would complete this 13-tile hand.

    A kind whose four tiles are all the player's own (hand and melds) is no
    wait: it can never come.
    """
    _check_size(counts, melds, 13)
    return _waits(bytes(counts[:KINDS]), tuple(melds))


# Every turn asks it of each discard's 13 tiles (may it declare 报听?), twice (the legal list, then
# the action's check against it), and the bots again: kept per hand, a pure function of it.
@lru_cache(maxsize=1 << 14)
def _waits(counts: bytes, melds: tuple[Meld, ...]) -> tuple[Tile, ...]:
    if MahjongShanten(pack=_packs(melds), hand=_hand(counts)) != 0:  # cheap filter first
        return ()
    own = bytearray(counts)
    for m in melds:
        for t in m.tiles:
            own[t] += 1
    out = []
    for t in SET_KINDS:
        if own[t] >= 4:
            continue
        with_t = bytearray(counts[:KINDS])
        with_t[t] += 1
        if is_complete(bytes(with_t), melds):
            out.append(t)
    return tuple(out)


def is_ready(counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """听牌: one tile from winning with a tile that can still come (§6.2)."""
    return bool(waits(counts, melds))


def ready_discards(counts: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[Tile, ...]:
    """Kinds whose discard leaves this 14-tile hand ready: the discards that
    may declare 报听."""
    _check_size(counts, melds, 14)
    out = []
    for t in range(KINDS):
        if counts[t]:
            rest = bytearray(counts[:KINDS])
            rest[t] -= 1
            if is_ready(bytes(rest), melds):
                out.append(t)
    return tuple(out)
