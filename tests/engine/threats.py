"""A Shanghai seat's view late in a hand, facing one threatening player and two quiet ones: the
position the expert's defence tests put it in."""

from __future__ import annotations

import random

from games.engine.actions import apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import PlayerView, decide
from games.engine.bots.seen import OtherSeat
from games.engine.state import HandState
from games.engine.tiles import counts_of, parse, tile


def quiet_seats(discards: str = "1z2z3z") -> tuple[OtherSeat, ...]:
    """Seats 2 and 3, no melds, a few honours thrown."""
    return tuple(OtherSeat(s, tuple(parse(discards)), (), 0, 0, False, hand_count=13) for s in (2, 3))


def view_facing(hand: str, threat: OtherSeat, quiet: tuple[OtherSeat, ...]) -> PlayerView:
    """Seat 0's Shanghai view at its turn with 30 tiles left, facing `threat` and `quiet`."""
    return turn_view("shanghai", hand, (threat, *quiet), wall_left=30, dealer=1)


def turn_view(
    variant: str, hand: str, others: tuple[OtherSeat, ...], wall_left: int, dealer: int = 0
) -> PlayerView:
    """Seat 0's view at its turn: `hand` concealed, the others' discards and melds seen (the
    unseen counts follow from them)."""
    counts = counts_of(parse(hand))
    seen = bytearray(counts)
    for o in others:
        for t in o.discards:
            seen[t] += 1
        for m in o.melds:
            for t in m.tiles:
                seen[t] += 1
    return PlayerView(
        variant=variant,
        phase="turn",
        me=0,
        players=len(others) + 1,
        dealer=dealer,
        round_wind=tile("1z"),
        wall_left=wall_left,
        hand=counts,
        drawn=None,
        melds=(),
        flowers=(),
        discarded_joker=False,
        jokers=(),
        others=others,
        unseen=bytes(max(0, 4 - c) for c in seen),
        last_discard=None,
    )


def strong_turns(variant: str, seed: int, every: int) -> list[tuple[HandState, int]]:
    """States of a hand of four strong bots where a seat is to discard, every `every` steps."""
    state = new_hand(variant, seed, base=2)
    rng = random.Random(seed)
    out = []
    while state.phase != "over":
        seat = seats_to_act(state)[0]
        if state.phase == "turn" and state.step % every == 0:
            out.append((state, seat))
        state, _ = apply(state, seat, decide("strong", state, seat, rng))
    return out


def strong_claim_windows(variant: str, seeds: range, deal_from: int = 0) -> list[tuple[HandState, int]]:
    """Every claim window with a chi or pong on offer in hands strong bots play: hand `seed` dealt
    with `deal_from + seed`, its bots' ties broken by `Random(seed)`."""
    found = []
    for seed in seeds:
        state = new_hand(variant, deal_from + seed, base=2)
        rng = random.Random(seed)
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if state.phase == "claim" and any(a.type in ("chi", "pong") for a in legal):
                found.append((state, seat))
            state, _ = apply(state, seat, decide("strong", state, seat, rng))
    return found
