"""What a bot knows: a player's view (`view_for(state, seat)`) read back into tile counts.

A bot never gets the `HandState`; `PlayerView.of(view)` is built from the very dict a
player's browser receives, so a bot cannot see the wall or another hand even by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from games.engine.rulesets import get_ruleset
from games.engine.state import Meld
from games.engine.tiles import ALL_KINDS, KINDS, Tile, name, parse

# The view names tiles ('5p'); reading them back through a table is ~20× faster than parsing.
_BY_NAME: dict[str, Tile] = {name(t): t for t in range(ALL_KINDS)}


def tile(text: str) -> Tile:
    return _BY_NAME[text]


@lru_cache(maxsize=4096)
def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse(text)) if text else ()


@dataclass(frozen=True)
class OtherSeat:
    """One opponent as the table shows them."""

    seat: int
    discards: tuple[Tile, ...]  # every tile they discarded, claimed ones included (they let go of it)
    melds: tuple[Meld, ...]  # exposed melds; a hidden concealed kong has no tiles
    hidden_kongs: int
    flowers: int
    ready: bool
    hand_count: int = -1  # concealed tiles held (-1: not known, e.g. a hand-built view)
    flower_tiles: tuple[Tile, ...] = ()  # the flowers themselves (their scoring counts them)


@dataclass(frozen=True)
class PlayerView:
    variant: str
    phase: str
    me: int
    players: int
    dealer: int
    round_wind: Tile
    wall_left: int
    hand: bytes  # own concealed counts (jokers under their own kinds)
    drawn: Tile | None
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    discarded_joker: bool
    jokers: tuple[Tile, ...]
    others: tuple[OtherSeat, ...]
    unseen: bytes  # per kind: copies not visible to this player (4 − own − face up)
    last_discard: tuple[int, Tile, str] | None  # (seat, tile, kind) the claim window is about

    @classmethod
    def of(cls, view: dict[str, Any]) -> PlayerView:
        me = view["me"]
        if me is None:
            raise ValueError("a bot needs a player's view, not a spectator's")
        seats = view["seats"]
        mine = seats[me]
        # every decision reads the whole table back: the loops below are the cheap forms
        hand = bytearray(KINDS)
        own = mine.get("hand") or ()  # none while blind choices are open (tianjin)
        for t in map(_BY_NAME.__getitem__, own):
            hand[t] += 1
        seen = bytearray(hand)
        others = []
        for s in seats:
            melds = tuple(_meld(m["kind"], m["tiles"], m.get("from"), m.get("claimed")) for m in s["melds"])
            for m in melds:
                for t in m.tiles:
                    seen[t] += 1
            discards = tuple(map(_BY_NAME.__getitem__, s["discards"]))
            for t in discards:
                seen[t] += 1
            for i in s["claimed_discards"]:  # a claimed tile is counted in the claimer's meld
                if i < len(discards):
                    seen[discards[i]] -= 1
            if s["seat"] != me:
                flower_tiles = tiles(s["flowers"])
                others.append(
                    OtherSeat(
                        seat=s["seat"],
                        discards=discards,
                        melds=tuple(m for m in melds if m.tiles),
                        hidden_kongs=sum(1 for m in melds if not m.tiles),
                        flowers=len(flower_tiles),
                        ready=bool(s["ready"]),
                        hand_count=int(s["hand_count"]),
                        flower_tiles=flower_tiles,
                    )
                )
        if view.get("indicator"):
            seen[tile(view["indicator"])] += 1
        last = view.get("last_discard")
        return cls(
            variant=view["variant"],
            phase=view["phase"],
            me=me,
            players=len(seats),
            dealer=view["dealer"],
            round_wind=tile(view["round_wind"]),
            wall_left=view["wall_left"],
            hand=bytes(hand),
            drawn=tile(mine["drawn"]) if mine.get("drawn") else None,
            melds=tuple(_meld(m["kind"], m["tiles"], m.get("from"), m.get("claimed")) for m in mine["melds"]),
            flowers=tiles(mine["flowers"]),
            discarded_joker=bool(mine["discarded_joker"]),
            jokers=tuple(tile(n) for n in view["jokers"]),
            others=tuple(others),
            unseen=bytes(seen).translate(_UNSEEN),
            last_discard=(last["seat"], tile(last["tile"]), last["kind"]) if last else None,
        )


# copies seen → copies unseen (4 − seen, at least 0), for bytes.translate
_UNSEEN = bytes(max(0, 4 - c) for c in range(256))


@lru_cache(maxsize=4096)  # the same melds are read back at every decision of the hand
def _meld(kind: str, text: str | None, frm: int | None, claimed: str | None) -> Meld:
    """A meld of the view (its kind, tiles, discarder and claimed tile as the view names them)."""
    if text is None:  # another player's concealed kong (yihua hides it)
        return Meld(kind, ())
    return Meld(kind, tiles(text), frm, tile(claimed) if claimed else None)


@cache
def _set_counts(variant: str) -> bytes:
    c = bytearray(KINDS)
    for t in get_ruleset(variant).wall_tiles():
        if t < KINDS:
            c[t] += 1
    return bytes(c)


def unseen_pool(view: PlayerView) -> bytearray:
    """Copies of each kind this seat cannot see, within the variant's set (two-player plays
    without two suits: `view.unseen` counts 4 of every kind)."""
    full = _set_counts(view.variant)
    return bytearray(max(0, full[t] - (4 - view.unseen[t])) for t in range(KINDS))
