"""Checks that must hold in every state (used by simulate and the property tests)."""

from __future__ import annotations

from collections import Counter

from games.engine.rulesets import get_ruleset
from games.engine.state import HandState


def violations(state: HandState) -> list[str]:
    """Every tile is in exactly one place; every hand has the right size."""
    out: list[str] = []
    rules = get_ruleset(state.variant)
    expected = Counter(rules.wall_tiles())
    seen: Counter[int] = Counter(state.wall[state.head : state.tail])
    if state.indicator is not None:
        seen[state.indicator] += 1
    for seat, p in enumerate(state.players):
        for t, c in enumerate(p.concealed):
            seen[t] += c
        for m in p.melds:
            seen.update(m.tiles)
            if m.claimed is not None:
                seen[m.claimed] -= 1  # the claimed tile is also listed in the discarder's river
        seen.update(p.flowers)
        seen.update(p.discards)
        size = p.hand_size + 3 * len(p.melds)
        robbed = state.window is not None and state.window.kind == "rob" and seat == state.window.seat
        acting = (state.phase == "turn" and seat == state.turn) or robbed  # a konger holds the 4th tile
        # the dealer holds 14 during choices made after the first draw (two_player 开局换牌)
        acting = acting or (
            state.phase == "choose" and seat == state.dealer and rules.dealer_draws_before_choices
        )
        if state.phase != "over" and size != (14 if acting else 13):
            out.append(f"seat {seat} holds {size} tiles (melds as 3) in phase {state.phase}")
        if p.drawn is not None and not p.concealed[p.drawn]:
            out.append(f"seat {seat}'s drawn tile is not in the hand")
    if seen != expected:
        diff = {t: seen[t] - expected[t] for t in set(seen) | set(expected) if seen[t] != expected[t]}
        out.append(f"tile counts differ from the set: {diff}")
    if not 0 <= state.head <= state.tail <= len(state.wall):
        out.append("wall pointers out of range")
    return out
