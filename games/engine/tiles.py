"""Tile ids and the notation of RULES §0.

A tile kind is a small int: 0–8 characters 1m–9m, 9–17 dots 1p–9p, 18–26
bamboo 1s–9s, 27–33 honours 1z–7z (E S W N, white, green, red), 34–41
flowers 1f–8f. Hands are kept as 34-byte count vectors (`bytes`), which are
immutable, hashable and slice into per-suit table keys cheaply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from games.engine.errors import EngineError

Tile = int

SUITS = "mpsz"
MAN, PIN, SOU, HONOR = 0, 9, 18, 27
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
# The winds' names by notation code, in both languages (boards, lobby, admin, history).
WIND_ZH = {"1z": "东", "2z": "南", "3z": "西", "4z": "北"}
WIND_EN = {"1z": "East", "2z": "South", "3z": "West", "4z": "North"}
DRAGONS = (WHITE, GREEN, RED)
FLOWER_BASE = 34
FLOWERS = tuple(range(34, 42))
KINDS = 34  # non-flower kinds
ALL_KINDS = 42

_GROUP = re.compile(r"([1-9]+)([mpszf])")


def suit_of(tile: Tile) -> int:
    """0 man, 1 pin, 2 sou, 3 honour, 4 flower."""
    return 4 if tile >= FLOWER_BASE else tile // 9


def rank_of(tile: Tile) -> int:
    """1-based number within its suit (honours 1–7, flowers 1–8)."""
    return tile - FLOWER_BASE + 1 if tile >= FLOWER_BASE else tile % 9 + 1


def is_suited(tile: Tile) -> bool:
    return tile < HONOR


def is_honour(tile: Tile) -> bool:
    return HONOR <= tile < FLOWER_BASE


def is_flower(tile: Tile) -> bool:
    return tile >= FLOWER_BASE


def is_terminal(tile: Tile) -> bool:
    return tile < HONOR and tile % 9 in (0, 8)


def is_wind(tile: Tile) -> bool:
    return EAST <= tile <= NORTH


def is_dragon(tile: Tile) -> bool:
    return WHITE <= tile <= RED


def tile(text: str) -> Tile:
    """One tile from its two-character name, e.g. '5p'."""
    tiles = parse(text)
    if len(tiles) != 1:
        raise EngineError("bad_tiles", f"expected one tile, got {text!r}")
    return tiles[0]


def parse(text: str) -> list[Tile]:
    """'123m55p1f' → [0, 1, 2, 13, 13, 34]. Raises EngineError('bad_tiles')."""
    if not isinstance(text, str):
        raise EngineError("bad_tiles", f"tiles must be a string, got {type(text).__name__}")
    compact = text.replace(" ", "")
    if _GROUP.sub("", compact):
        raise EngineError("bad_tiles", f"cannot read tiles {text!r}: use e.g. '123m55p1z1f'")
    out: list[Tile] = []
    for digits, suit in _GROUP.findall(compact):
        for d in digits:
            n = int(d)
            if suit == "z" and n > 7:
                raise EngineError("bad_tiles", f"no honour {n}z in {text!r} (1z–7z)")
            if suit == "f" and n > 8:
                raise EngineError("bad_tiles", f"no flower {n}f in {text!r} (1f–8f)")
            if suit == "f":
                out.append(FLOWER_BASE + n - 1)
            else:
                out.append("mpsz".index(suit) * 9 + n - 1)
    return out


def _name(t: Tile) -> str:
    return f"{rank_of(t)}{'mpszf'[suit_of(t)]}"


_NAMES = tuple(_name(t) for t in range(ALL_KINDS))  # every view names each tile it shows


def name(t: Tile) -> str:
    return _NAMES[t] if 0 <= t < ALL_KINDS else _name(t)


def names(tiles: Iterable[Tile]) -> list[str]:
    """`name` of each tile (a view names every river's tiles at every action)."""
    return [_NAMES[t] if 0 <= t < ALL_KINDS else _name(t) for t in tiles]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Inverse of parse: consecutive tiles of one suit share the suit letter."""
    if type(tiles) is tuple:
        return _format_tuple(tiles)
    return _format(tiles)


@lru_cache(maxsize=4096)  # melds and flowers: every view names the same ones again
def _format_tuple(tiles: tuple[Tile, ...]) -> str:
    return _format(tiles)


def _format(tiles: Iterable[Tile]) -> str:
    out: list[str] = []
    run_suit = ""
    for t in tiles:
        s = "mpszf"[suit_of(t)]
        if out and s != run_suit:
            out.append(run_suit)
        out.append(str(rank_of(t)))
        run_suit = s
    if out:
        out.append(run_suit)
    return "".join(out)


def counts_of(tiles: Iterable[Tile]) -> bytes:
    """34-kind count vector of non-flower tiles."""
    c = bytearray(KINDS)
    for t in tiles:
        c[t] += 1
    return bytes(c)


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    """Sorted tile list from a count vector."""
    return [t for t in range(len(counts)) for _ in range(counts[t])]


def add(counts: bytes, t: Tile, n: int = 1) -> bytes:
    c = bytearray(counts)
    c[t] += n
    return bytes(c)


def remove(counts: bytes, t: Tile, n: int = 1) -> bytes:
    if counts[t] < n:
        raise EngineError("tile_not_in_hand", f"{name(t)} is not in the hand")
    c = bytearray(counts)
    c[t] -= n
    return bytes(c)


def next_in_cycle(t: Tile) -> Tile:
    """The kind after t for joker indicators (RULES §5.3).

    Suited n → n+1 with 9 → 1; winds E→S→W→N→E; dragons 中→发→白→中
    (7z→6z→5z→7z): the kind after red is green, after white is red.
    """
    if t >= FLOWER_BASE:
        raise EngineError("bad_tiles", "flowers have no successor: they are never jokers")
    if t < HONOR:
        return t - t % 9 + (t % 9 + 1) % 9
    if t <= NORTH:
        return EAST + (t - EAST + 1) % 4
    return {RED: GREEN, GREEN: WHITE, WHITE: RED}[t]


def seat_wind(seat: int, dealer: int, players: int) -> Tile:
    return EAST + (seat - dealer) % players
