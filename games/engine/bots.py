"""Bot policies. Both only ever choose from `legal_actions`.

baseline: takes every win; otherwise discards to the lowest shanten (ties:
the most isolated tile), claims only when the claim lowers its shanten, and
declares kongs that keep its shanten.
random: a uniformly random legal action (for fuzzing the machine).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.actions import Action, legal_actions
from games.engine.hand import shanten
from games.engine.state import HandState, PlayerState
from games.engine.tiles import HONOR, KINDS, Tile

Bot = Callable[[HandState, int, random.Random], Action]


def random_bot(state: HandState, seat: int, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state, seat))


def _plain(state: HandState, counts: bytes) -> tuple[bytes, int]:
    """Counts without the joker kinds, and the number of jokers."""
    if not state.jokers:
        return counts, 0
    c = bytearray(counts)
    jokers = 0
    for t in state.jokers:
        jokers += c[t]
        c[t] = 0
    return bytes(c), jokers


def _shanten(state: HandState, counts: bytes, melds: int) -> int:
    plain, jokers = _plain(state, counts)
    return shanten(plain, jokers, max(0, 4 - melds))


def _isolation(counts: bytes, t: Tile) -> int:
    """Higher = more useless: honours and terminals alone first."""
    if counts[t] >= 2:
        return 0
    if t >= HONOR:
        return 6
    r = t % 9
    lo, hi = max(t - r, t - 2), min(t - r + 8, t + 2)
    near = sum(counts[lo : hi + 1]) - counts[t]  # neighbours within two, same suit
    return 4 - min(near, 3) + (1 if r in (0, 8) else 0)


def _best_discard(state: HandState, p: PlayerState, discards: list[Action]) -> tuple[Action, int]:
    """The discard that keeps the lowest shanten; among those, the most isolated tile.

    The 14-tile hand's shanten is the best any discard can keep (throwing a tile away
    is free in the count), so candidates are tried from the most isolated down and the
    first that keeps it wins: usually one or two shanten calls instead of one per kind.
    """
    c = bytearray(p.concealed)
    target = _shanten(state, p.concealed, len(p.melds))

    def rank(a: Action) -> tuple[int, int, int]:
        t = a.tile
        assert t is not None
        joker = 1 if t in state.jokers else 0  # never throw a joker (小相公)
        return (joker, -_isolation(p.concealed, t), 0 if a.ready else 1)

    ordered = sorted(discards, key=rank)
    best: tuple[int, Action] | None = None
    seen: dict[Tile, int] = {}
    for a in ordered:
        t = a.tile
        assert t is not None
        if t not in seen:
            c[t] -= 1
            seen[t] = _shanten(state, bytes(c), len(p.melds)) + (10 if t in state.jokers else 0)
            c[t] += 1
        if best is None or seen[t] < best[0]:
            best = (seen[t], a)
        if seen[t] <= target:
            break
    assert best is not None
    return best[1], best[0]


def baseline_bot(state: HandState, seat: int, rng: random.Random) -> Action:
    legal = legal_actions(state, seat)
    for a in legal:
        if a.type == "win":
            return a
    if len(legal) == 1:
        return legal[0]
    if state.phase == "choose":
        return legal[0]
    p = state.players[seat]
    if state.phase == "claim":
        return _best_claim(state, p, legal)
    discards = [a for a in legal if a.type == "discard"]
    best, after = _best_discard(state, p, discards) if discards else (legal[0], 99)
    for a in legal:
        if a.type == "kong" and a.tile is not None and a.tile not in state.jokers:
            c = bytearray(p.concealed)
            c[a.tile] -= 4 if a.kind == "concealed" else 1
            if _shanten(state, bytes(c), len(p.melds) + (1 if a.kind == "concealed" else 0)) <= after:
                return a
    return best


def _best_claim(state: HandState, p: PlayerState, legal: list[Action]) -> Action:
    now = _shanten(state, p.concealed, len(p.melds))
    best: tuple[int, Action] | None = None
    for a in legal:
        if a.type not in ("chi", "pong", "kong") or a.tile is None:
            continue
        c = bytearray(p.concealed)
        used = (
            [x for x in a.tiles if x != a.tile]
            if a.type == "chi"
            else [a.tile] * (3 if a.type == "kong" else 2)
        )
        for x in used:
            c[x] -= 1
        melds = len(p.melds) + 1
        if a.type == "kong":
            after = _shanten(state, bytes(c), melds)
        else:
            after = min(
                _shanten(state, bytes(c[:t]) + bytes([c[t] - 1]) + bytes(c[t + 1 :]), melds)
                for t in range(KINDS)
                if c[t]
            )
        if after < now and (best is None or after < best[0]):
            best = (after, a)
    return best[1] if best else Action("pass")


BOTS: dict[str, Bot] = {"baseline": baseline_bot, "random": random_bot}
