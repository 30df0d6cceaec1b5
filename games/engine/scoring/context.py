"""What scoring needs to know about one win, and what it answers.

`WinContext` mirrors the score CLI's input (RULES §7) field by field, so the
CLI and the live engine score through the same function: the CLI builds it
from JSON (`WinContext.from_json`), the hand machine builds it from the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.errors import EngineError
from games.engine.state import MELD_KINDS, Meld
from games.engine.tiles import EAST, KINDS, Tile, counts_of, format_tiles, is_flower, parse, tile

VARIANTS = ("shanghai", "yihua", "cantonese", "tianjin", "two_player")
WIN_METHODS = ("self_draw", "discard", "robbing_kong")

_KNOWN_KEYS = {
    "id",
    "variant",
    "seat",
    "dealer",
    "players",
    "concealed",
    "melds",
    "flowers",
    "win_tile",
    "by",
    "from",
    "after_kong",
    "after_flower",
    "kong_from",
    "triple_win",
    "last_tile",
    "first_turn",
    "round_wind",
    "base",
    "jokers",
    "claims",
    "huangfan",
    "zuozhuang",
    "lazhuang",
    "discarded_joker",
    "expect",
    "balances",
    "options",
}


@dataclass(frozen=True)
class ScoreResult:
    win: bool
    reason: str = ""
    patterns: tuple[str, ...] = ()
    value: int = 0
    payments: tuple[int, ...] = ()
    # pattern id → its value in the variant's unit (fan, flowers, multiplier)
    breakdown: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"win": self.win}
        if not self.win:
            out["reason"] = self.reason
        out.update(patterns=list(self.patterns), value=self.value, payments=list(self.payments))
        if self.breakdown:
            out["breakdown"] = [[k, v] for k, v in self.breakdown]
        return out


def no_win(reason: str, players: int = 4) -> ScoreResult:
    return ScoreResult(win=False, reason=reason, payments=(0,) * players)


@dataclass(frozen=True)
class WinContext:
    variant: str
    concealed: tuple[Tile, ...]  # without the winning tile
    win_tile: Tile
    seat: int = 0
    dealer: int = 0
    players: int = 4
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    by: str = "self_draw"
    from_seat: int | None = None
    after_kong: bool = False
    after_flower: bool = False
    kong_from: int | None = None
    triple_win: bool = False
    last_tile: bool = False
    first_turn: bool = False
    round_wind: Tile = EAST
    base: int = 1
    jokers: tuple[Tile, ...] = ()
    claims: tuple[tuple[int, int, int], ...] = ()
    huangfan: bool = False
    zuozhuang: bool = False
    lazhuang: tuple[int, ...] = ()
    discarded_joker: bool = False
    # Live play only (the CLI cannot express history): who is liable (包) for
    # this win, as (kind, seat), decided by the hand machine from the history.
    liability: tuple[str, int] | None = None
    # Live play only: the other three tiles of win_tile's kind are already visible on
    # the table (discards, melds) — 和绝张 of the official table (two_player).
    fourth_tile: bool = False
    # Live play only: this winner is one of several on one discard (一炮多响);
    # shanghai §2.8 then has only the discarder pay.
    multi_win: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    # -- derived views -----------------------------------------------------
    @property
    def hand_tiles(self) -> tuple[Tile, ...]:
        """The concealed part with the winning tile: what must form the shape."""
        return (*self.concealed, self.win_tile)

    @property
    def hand_counts(self) -> bytes:
        return counts_of(self.hand_tiles)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile of the 14 (declared melds with a kong's 4th tile included)."""
        out = list(self.hand_tiles)
        for m in self.melds:
            out.extend(m.tiles)
        return tuple(out)

    @property
    def is_self_draw(self) -> bool:
        return self.by == "self_draw"

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    @property
    def seat_wind(self) -> Tile:
        return EAST + (self.seat - self.dealer) % self.players

    # -- the CLI's JSON ----------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> WinContext:
        """Validate the score CLI's input; raise EngineError('bad_input', …) with a clear message."""
        if not isinstance(data, dict):
            raise EngineError("bad_input", "the input must be one JSON object")
        unknown = set(data) - _KNOWN_KEYS
        if unknown:
            raise EngineError("bad_input", f"unknown keys: {', '.join(sorted(unknown))}")
        variant = data.get("variant")
        if variant not in VARIANTS:
            raise EngineError("bad_input", f"'variant' must be one of {', '.join(VARIANTS)}")
        default_players = 2 if variant == "two_player" else 4
        players = _int(data, "players", default_players, 2, 4)
        if players != default_players:
            raise EngineError("bad_input", f"{variant} is played by {default_players} players")
        seat = _int(data, "seat", 0, 0, players - 1)
        dealer = _int(data, "dealer", 0, 0, players - 1)
        for key in ("concealed", "win_tile"):
            if key not in data:
                raise EngineError("bad_input", f"'{key}' is required")
        concealed = tuple(_tiles(data, "concealed"))
        if any(is_flower(t) for t in concealed):
            raise EngineError("bad_input", "flowers go in 'flowers', not in 'concealed'")
        win_tile = _one_tile(data, "win_tile")
        if is_flower(win_tile):
            raise EngineError("bad_input", "'win_tile' cannot be a flower")
        melds = tuple(_meld(m, i, players) for i, m in enumerate(_list(data, "melds")))
        flowers = tuple(_tiles(data, "flowers")) if data.get("flowers") else ()
        if not all(is_flower(t) for t in flowers) or len(set(flowers)) != len(flowers):
            raise EngineError("bad_input", "'flowers' must be distinct flower tiles 1f–8f")
        by = data.get("by", "self_draw")
        if by not in WIN_METHODS:
            raise EngineError("bad_input", f"'by' must be one of {', '.join(WIN_METHODS)}")
        from_seat = data.get("from")
        if by != "self_draw":
            from_seat = _int(data, "from", None, 0, players - 1)
            if from_seat is None:
                raise EngineError("bad_input", f"'from' (the discarder) is required when 'by' is {by}")
            if from_seat == seat:
                raise EngineError("bad_input", "'from' cannot be the winner's own seat")
        elif from_seat is not None:
            from_seat = _int(data, "from", None, 0, players - 1)
        size = len(concealed) + 1 + 3 * len(melds)
        if size != 14 and not (variant == "shanghai" and len(flowers) == 8):
            raise EngineError(
                "bad_input",
                f"the hand has {size} tiles counting each meld as 3 and the winning tile; a win needs 14",
            )
        counts = bytearray(KINDS)
        for t in (*concealed, win_tile, *(t for m in melds for t in m.tiles)):
            counts[t] += 1
        over = [format_tiles([t]) for t in range(KINDS) if counts[t] > 4]
        if over:
            raise EngineError("bad_input", f"more than four of {', '.join(over)}")
        jokers = tuple(_tiles(data, "jokers")) if data.get("jokers") else ()
        if jokers and (len(jokers) != 2 or jokers[0] == jokers[1] or any(is_flower(t) for t in jokers)):
            raise EngineError("bad_input", "'jokers' must name the two joker kinds, e.g. '3p4p'")
        claims = tuple(_claim(c, players) for c in _list(data, "claims"))
        lazhuang = tuple(_list(data, "lazhuang"))
        if lazhuang and (len(lazhuang) != players or not all(v in (0, 1, 2) for v in lazhuang)):
            raise EngineError("bad_input", "'lazhuang' must give 0, 1 or 2 for every seat")
        round_wind = _one_tile(data, "round_wind") if "round_wind" in data else EAST
        if not 27 <= round_wind <= 30:
            raise EngineError("bad_input", "'round_wind' must be a wind, 1z–4z")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise EngineError("bad_input", "'options' must be an object of house rules, e.g. {\"cap\": 13}")
        return cls(
            variant=variant,
            concealed=concealed,
            win_tile=win_tile,
            seat=seat,
            dealer=dealer,
            players=players,
            melds=melds,
            flowers=flowers,
            by=by,
            from_seat=from_seat,
            after_kong=_bool(data, "after_kong"),
            after_flower=_bool(data, "after_flower"),
            kong_from=_int(data, "kong_from", None, 0, players - 1),
            triple_win=_bool(data, "triple_win"),
            last_tile=_bool(data, "last_tile"),
            first_turn=_bool(data, "first_turn"),
            round_wind=round_wind,
            base=_int(data, "base", 1, 1, 10**9),
            jokers=jokers,
            claims=claims,
            huangfan=_bool(data, "huangfan"),
            zuozhuang=_bool(data, "zuozhuang"),
            lazhuang=lazhuang,
            discarded_joker=_bool(data, "discarded_joker"),
            options=dict(options),
        )


def _int(data: dict, key: str, default: int | None, lo: int, hi: int) -> Any:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise EngineError("bad_input", f"'{key}' must be a whole number from {lo} to {hi}")
    return value


def _bool(data: dict, key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise EngineError("bad_input", f"'{key}' must be true or false")
    return value


def _list(data: dict, key: str) -> list:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise EngineError("bad_input", f"'{key}' must be a list")
    return value


def _tiles(data: dict, key: str) -> list[Tile]:
    try:
        return parse(data[key])
    except EngineError as e:
        raise EngineError("bad_input", f"'{key}': {e.message}") from None


def _one_tile(data: dict, key: str) -> Tile:
    try:
        return tile(data[key])
    except EngineError as e:
        raise EngineError("bad_input", f"'{key}': {e.message}") from None


def _meld(m: Any, i: int, players: int) -> Meld:
    where = f"melds[{i}]"
    if not isinstance(m, dict) or m.get("kind") not in MELD_KINDS or "tiles" not in m:
        raise EngineError(
            "bad_input", f"{where} must be {{'kind': one of {', '.join(MELD_KINDS)}, 'tiles': …}}"
        )
    try:
        tiles = tuple(parse(m["tiles"]))
    except EngineError as e:
        raise EngineError("bad_input", f"{where}: {e.message}") from None
    kind = m["kind"]
    if any(is_flower(t) for t in tiles):
        raise EngineError("bad_input", f"{where}: flowers cannot be melded")
    if kind == "chi":
        s = sorted(tiles)
        if len(s) != 3 or s[0] >= 27 or s[1] != s[0] + 1 or s[2] != s[0] + 2 or s[0] // 9 != s[2] // 9:
            raise EngineError("bad_input", f"{where}: a chi is three consecutive tiles of one suit")
    elif kind == "pong":
        if len(tiles) != 3 or len(set(tiles)) != 1:
            raise EngineError("bad_input", f"{where}: a pong is three identical tiles")
    elif len(tiles) != 4 or len(set(tiles)) != 1:
        raise EngineError("bad_input", f"{where}: a kong is four identical tiles")
    frm = m.get("from")
    if kind != "concealed_kong":
        if frm is not None and (isinstance(frm, bool) or not isinstance(frm, int) or not 0 <= frm < players):
            raise EngineError("bad_input", f"{where}: 'from' must be a seat 0–{players - 1}")
    else:
        frm = None
    return Meld(kind=kind, tiles=tuple(sorted(tiles)), from_seat=frm, claimed=None)


def _claim(c: Any, players: int) -> tuple[int, int, int]:
    if (
        not isinstance(c, list)
        or len(c) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in c)
        or not (0 <= c[0] < players and 0 <= c[1] < players and c[2] >= 0)
    ):
        raise EngineError("bad_input", "'claims' items are [claimer, discarder, times]")
    return (c[0], c[1], c[2])
