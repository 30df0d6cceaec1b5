"""Immutable hand state: frozen dataclasses, changed only with dataclasses.replace."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.engine.tiles import Tile, format_tiles

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """dataclasses.replace for our frozen state, without re-running __init__.

    The hand machine makes thousands of small copies per hand; replace() costs
    ~20 µs on a 35-field dataclass, this ~1 µs. Field names are checked.
    """
    fields = obj.__dataclass_fields__  # type: ignore[attr-defined]
    for key in changes:
        if key not in fields:
            raise TypeError(f"{type(obj).__name__} has no field {key!r}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    new.__dict__.pop(MEMO, None)  # memoised answers belong to the old state only
    return new


# Key under which pure functions of a state memoise their answers on the state
# object itself (states are immutable, so an answer never goes stale).
MEMO = "_memo"


def memo(state: Any) -> dict:
    cache = state.__dict__.get(MEMO)
    if cache is None:
        cache = {}
        state.__dict__[MEMO] = cache
    return cache


def without_memo(fields: dict[str, Any]) -> dict[str, Any]:
    """A state's fields as pickled: its memoised answers stay in the process that computed them
    (a player's is its rendered views: a snapshot carries the newest state, whose unchanged
    seats are the ones the last version's frames were rendered from)."""
    return {k: v for k, v in fields.items() if k != MEMO} if MEMO in fields else fields


MELD_KINDS = ("chi", "pong", "kong", "added_kong", "concealed_kong")


@dataclass(frozen=True)
class Meld:
    """A declared meld. kind: chi | pong | kong (exposed, from a discard) |
    added_kong (上杠/加杠 onto an own pong) | concealed_kong (暗杠).

    `from_seat` is the discarder of the claimed tile (for an added kong: of the
    original pong's tile); None for a concealed kong. `claimed` is that tile.
    """

    kind: str
    tiles: tuple[Tile, ...]
    from_seat: int | None = None
    claimed: Tile | None = None

    @property
    def is_kong(self) -> bool:
        return self.kind in ("kong", "added_kong", "concealed_kong")

    @property
    def is_pung_like(self) -> bool:
        return self.kind != "chi"

    @property
    def is_exposed(self) -> bool:
        return self.kind != "concealed_kong"

    @property
    def tile(self) -> Tile:
        """The lowest tile (a pung's or kong's kind)."""
        return min(self.tiles)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": format_tiles(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


@dataclass(frozen=True)
class PlayerState:
    concealed: bytes  # 34 counts, jokers included under their own kinds
    drawn: Tile | None = None  # the tile just drawn (also counted in `concealed`)
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    discards: tuple[Tile, ...] = ()  # the river, in order (claimed tiles stay listed)
    claimed_discards: frozenset[int] = frozenset()  # indexes into `discards` taken by others
    discard_count: int = 0
    draw_count: int = 0
    # Restriction bookkeeping (which of these bind is the Ruleset's choice):
    pong_lock: frozenset[Tile] = frozenset()  # passed pongs, until own next discard (R1)
    win_lock: bool = False  # passed a discard win, until own next draw/claim (R2, Y2, 漏和)
    passed_win_tiles: frozenset[Tile] = frozenset()  # tiles of passed wins while locked
    passed_win_value: int = 0  # best value of a passed win while locked
    passed_win_fan: int = 0  # most 番 of a passed win while locked (Y2 加番 exception)
    forbidden: frozenset[Tile] = frozenset()  # may not discard now (R3 / Y3), with reason
    discarded_since_draw: frozenset[Tile] = frozenset()  # Y1 own-discard lock
    ready: bool = False  # 报听 declared (two_player)
    discarded_joker: bool = False  # 小相公 (tianjin)
    concealed_at_chi: int = 0  # concealed tiles held before the last chi (Y3 exception)

    @property
    def hand_size(self) -> int:
        return sum(self.concealed)

    def __getstate__(self) -> dict[str, Any]:
        return without_memo(self.__dict__)


@dataclass(frozen=True)
class ClaimWindow:
    """Open after a discard (kind 'discard') or an added kong (kind 'rob').

    options[s] are seat s's claim actions (without 'pass'); answers[s] is the
    action s chose, or None while s has not answered. Seats with no options
    have an empty tuple and never answer.
    """

    kind: str
    seat: int  # the discarder / konger
    tile: Tile
    options: tuple[tuple[Any, ...], ...]
    answers: tuple[Any, ...]

    def waiting_for(self) -> list[int]:
        return [s for s, opts in enumerate(self.options) if opts and self.answers[s] is None]


@dataclass(frozen=True)
class HandResult:
    """The end of a hand. winners empty → drawn (荒牌) unless `ended_by` says otherwise."""

    winners: tuple[int, ...] = ()
    by: str = ""  # self_draw | discard | robbing_kong | eight_flowers | "" (drawn)
    from_seat: int | None = None
    win_tile: Tile | None = None
    scores: tuple[Any, ...] = ()  # one ScoreResult per winner
    payments: tuple[int, ...] = ()  # summed over winners and extras, before the balance floor
    extras: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (reason, payments) e.g. 铲, kongs
    next_dealer: int = 0

    @property
    def drawn(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class HandState:
    variant: str
    seed: int
    num_players: int
    dealer: int
    round_wind: Tile
    base: int
    options: tuple[tuple[str, Any], ...]  # house rules, sorted (name, value) pairs
    wall: tuple[Tile, ...]
    head: int  # next draw from the front: wall[head]
    tail: int  # replacements from the back: wall[tail - 1]; live wall = wall[head:tail]
    dice: tuple[int, int]
    players: tuple[PlayerState, ...]
    phase: str  # choose | turn | claim | over
    turn: int
    turn_start: str = "deal"  # how the turn began: deal | draw | replacement | claim
    window: ClaimWindow | None = None
    jokers: tuple[Tile, ...] = ()
    indicator: Tile | None = None
    joker_dice: tuple[int, int] | None = None
    huangfan: bool = False  # shanghai 荒番 hand
    counters: tuple[tuple[str, int], ...] = ()  # table counters carried in (e.g. huangfan H)
    claim_counts: tuple[tuple[int, ...], ...] = ()  # [claimer][discarder] claims (三口)
    choices: tuple[tuple[str, Any], ...] = ()  # pre-hand choices (坐庄/拉庄), per key
    liabilities: tuple[tuple[str, int, int], ...] = ()  # (kind, liable seat, beneficiary)
    penalties: tuple[tuple[str, int, tuple[int, ...]], ...] = ()  # (reason, seat, payments)
    kong_payments: tuple[tuple[int, ...], ...] = ()  # paid when made (tianjin)
    last_kong_from: int | None = None  # discarder of an exposed kong's tile, this turn
    first_discards: tuple[Tile, ...] = ()  # the hand's first discards in order, until a claim (铲)
    last_discard: tuple[int, Tile] | None = None  # (seat, tile) still lying unclaimed in the river
    ready_order: tuple[int, ...] = ()  # seats in the order they declared 报听
    reserve_drawn: bool = False  # the one 海底捞月 reserve tile has been drawn
    result: HandResult | None = None
    step: int = 0  # actions applied so far
    commitment: str = ""  # sha256(salt:wall) of a salted deal (docs/fairness.md); "" for older hands

    def __getstate__(self) -> dict[str, Any]:
        return without_memo(self.__dict__)

    def option(self, name: str, default: Any = None) -> Any:
        for k, v in self.options:
            if k == name:
                return v
        return default

    def choice(self, name: str, default: Any = None) -> Any:
        for k, v in self.choices:
            if k == name:
                return v
        return default

    @property
    def wall_left(self) -> int:
        return self.tail - self.head

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def with_player(self, seat: int, **changes: Any) -> HandState:
        players = list(self.players)
        players[seat] = evolve(players[seat], **changes)
        return evolve(self, players=tuple(players))


def empty_claim_counts(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple((0,) * n for _ in range(n))


__all__ = ["MELD_KINDS", "ClaimWindow", "HandResult", "HandState", "Meld", "PlayerState", "evolve", "field"]
