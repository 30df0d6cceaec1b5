"""A Shanghai seat's view late in a hand, facing one threatening player and two quiet ones: the
position the expert's defence tests put it in."""

from __future__ import annotations

from games.engine.bots import PlayerView
from games.engine.bots.seen import OtherSeat
from games.engine.tiles import counts_of, parse, tile


def quiet_seats(discards: str = "1z2z3z") -> tuple[OtherSeat, ...]:
    """Seats 2 and 3, no melds, a few honours thrown."""
    return tuple(OtherSeat(s, tuple(parse(discards)), (), 0, 0, False, hand_count=13) for s in (2, 3))


def view_facing(hand: str, threat: OtherSeat, quiet: tuple[OtherSeat, ...]) -> PlayerView:
    """Seat 0's view at its turn with 30 tiles left: `hand` concealed, the others' discards and
    melds seen (the unseen counts follow from them)."""
    counts = counts_of(parse(hand))
    seen = bytearray(counts)
    for o in (threat, *quiet):
        for t in o.discards:
            seen[t] += 1
        for m in o.melds:
            for t in m.tiles:
                seen[t] += 1
    return PlayerView(
        variant="shanghai",
        phase="turn",
        me=0,
        players=4,
        dealer=1,
        round_wind=tile("1z"),
        wall_left=30,
        hand=counts,
        drawn=None,
        melds=(),
        flowers=(),
        discarded_joker=False,
        jokers=(),
        others=(threat, *quiet),
        unseen=bytes(max(0, 4 - c) for c in seen),
        last_discard=None,
    )
