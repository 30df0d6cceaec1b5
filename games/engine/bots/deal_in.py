"""How likely a discard wins for an opponent, and what that costs: read from the table only.

The features are what a player sees — per opponent, melds laid and tiles thrown (how likely
they are ready); per tile, whether they threw it or let it pass since their last turn, whether
the tiles three ranks away are in their river (a two-sided wait on it would include them),
its rank, how many copies are still unseen, and whether their melds point at one suit. The
probabilities behind them (`DEAL_IN_TABLES`) were counted on four strong bots playing each
other (scripts/deal_in_tables.py), where every hidden hand is known afterwards.
"""

from __future__ import annotations

from games.engine.bots.seen import OtherSeat, PlayerView
from games.engine.tiles import HONOR, Tile


def opened(o: OtherSeat) -> int:
    return min(len(o.melds) + o.hidden_kongs, 3)


def ready_key(o: OtherSeat) -> tuple[int, int]:
    """(melds laid, capped at 3; tiles thrown in fours, capped at 3)."""
    return opened(o), min(len(o.discards) // 4, 3)


def passed(view: PlayerView, o: OtherSeat) -> frozenset[Tile]:
    """Tiles `o` let go since their last turn: their own last discard and the last discards of
    the seats between them and this one in turn order (a player who takes every win they are
    offered is not waiting on those — without calls in between, the table's order)."""
    out = set()
    if o.discards:
        out.add(o.discards[-1])
    by_seat = {s.seat: s for s in view.others}
    s = (o.seat + 1) % view.players
    while s != view.me:
        between = by_seat[s]
        if between.discards:
            out.add(between.discards[-1])
        s = (s + 1) % view.players
    return frozenset(out)


def one_suit(o: OtherSeat) -> int | None:
    suits = {t // 9 for m in o.melds for t in m.tiles if t < HONOR}
    return next(iter(suits)) if len(o.melds) >= 2 and len(suits) == 1 else None


def tile_key(
    view: PlayerView, o: OtherSeat, t: Tile, let_go: frozenset[Tile], suit: int | None
) -> tuple[int, int, int, int]:
    """(thrown: 0 let go since their turn, 1 in their river, 2 neither; rank class; unseen
    copies capped at 3; one-suit: 0 no signal, 1 in their suit or an honour, 2 another suit)."""
    thrown = 0 if t in let_go else 1 if t in o.discards else 2
    if t >= HONOR:
        rank = 0
    else:
        r = t % 9
        sides = [t - 3] if r >= 3 else []
        if r <= 5:
            sides.append(t + 3)
        covered = sum(1 for x in sides if x in o.discards)
        # 1: 1/9, 2: 2/8, 3: 3/7, 4: 4–6, each by how many of its suji sides they threw
        base = (1, 2, 3, 4, 4, 4, 3, 2, 1)[r]
        rank = base * 3 + (2 if covered == len(sides) else 1 if covered else 0)
    unseen = min(view.unseen[t], 3)
    signal = 0 if suit is None else 1 if t >= HONOR or t // 9 == suit else 2
    return thrown, rank, unseen, signal


def visible_base(o: OtherSeat) -> int:
    """The part of a Shanghai-style base (3 + flowers + honour pungs and kongs) the table shows."""
    base = 3 + o.flowers
    for m in o.melds:
        t = m.tiles[0]
        if t >= HONOR and m.is_pung_like:
            dragon = t >= HONOR + 4
            base += (2 if dragon else 1) + (1 if len(m.tiles) == 4 else 0)
        elif len(m.tiles) == 4:
            base += 1
    return base


def own_base(view: PlayerView) -> int:
    """This seat's own visible base (3 + flowers + honour pungs laid), as `visible_base`."""
    base = 3 + len(view.flowers)
    for m in view.melds:
        t = m.tiles[0] if m.tiles else 0
        if t >= HONOR and m.is_pung_like:
            base += 2 if t >= HONOR + 4 else 1
    return base
