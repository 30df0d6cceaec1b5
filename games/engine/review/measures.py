"""The exact measures of one alternative, from what the seat saw: shanten after it, effective
tiles (unseen copies that lower the shanten), the waits with their unseen counts once ready (by
the variant's own shape test, special shapes included), and the danger of the tile it throws.

Everything here reads the seat's `PlayerView` and the *blinded* state (`waits.blind`: the wall
and the other hands erased), never the hand's real state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.actions import Action
from games.engine.bots.defence import Threat, risk
from games.engine.bots.seen import PlayerView
from games.engine.bots.shape import distance
from games.engine.review.evaluator import after_claim, claimed_meld, effective_tiles, own_kong
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState, Meld
from games.engine.tiles import KINDS, Tile, name


@dataclass(frozen=True)
class Shape:
    """A 3k+1-tile hand's measures."""

    shanten: int
    effective: int
    waits: tuple[tuple[Tile, int], ...]  # (tile, unseen copies) when ready


def exact_waits(known: HandState, seat: int, counts: bytes, melds: tuple[Meld, ...]) -> list[Tile]:
    """Kinds that complete `counts` (with `melds`) by the variant's own shape test."""
    rules = get_ruleset(known.variant)
    state = known.with_player(seat, concealed=counts, melds=melds, drawn=None)
    out = []
    for t in sorted(rules.wait_candidates(state, seat, counts)):
        with_t = bytearray(counts)
        with_t[t] += 1
        if with_t[t] <= 4 and rules.is_winning_shape(state, seat, bytes(with_t)):
            out.append(t)
    return out


def shape(view: PlayerView, known: HandState, seat: int, counts: bytes, melds: tuple[Meld, ...]) -> Shape:
    waits = exact_waits(known, seat, counts, melds)
    if waits:
        ws = tuple((w, view.unseen[w]) for w in waits)
        return Shape(0, sum(n for _, n in ws), ws)
    sh = distance(counts, len(melds), view.jokers)
    count, _kinds = effective_tiles(counts, len(melds), view.jokers, view.unseen)
    return Shape(max(sh, 1), count, ())


def _without(counts: bytes, t: Tile) -> bytes:
    c = bytearray(counts)
    c[t] -= 1
    return bytes(c)


def _best_follow_up(
    view: PlayerView, known: HandState, seat: int, counts: bytes, melds: tuple[Meld, ...]
) -> tuple[Tile, Shape]:
    """After a chi or pong: the discard that leaves the lowest shanten, then the most effective tiles."""
    best: tuple[Tile, Shape] | None = None
    for t in range(KINDS):
        if counts[t] and not (t in view.jokers and len([x for x in range(KINDS) if counts[x]]) > 1):
            s = shape(view, known, seat, _without(counts, t), melds)
            if best is None or (s.shanten, -s.effective) < (best[1].shanten, -best[1].effective):
                best = (t, s)
    assert best is not None
    return best


def label(a: Action) -> str:
    """A short English name of an action ('discard 3m', 'pong 5p', 'chi 345p', 'pass')."""
    if a.type == "discard":
        return f"discard {name(a.tile)}" + (" + ready" if a.ready else "")  # type: ignore[arg-type]
    if a.type == "chi":
        return "chi " + "".join(str(t % 9 + 1) for t in a.tiles) + "mps"[a.tiles[0] // 9]
    if a.type in ("pong", "cuopai"):
        return f"{a.type} {name(a.tile)}"  # type: ignore[arg-type]
    if a.type == "kong":
        return f"{a.kind} kong {name(a.tile)}"  # type: ignore[arg-type]
    if a.type == "choose":
        return {"zuozhuang": ("no 坐庄", "坐庄"), "lazhuang": ("no 拉庄", "拉一庄", "拉两庄")}[a.kind][
            a.value
        ]
    if a.type == "exchange":
        return "exchange " + ("".join(name(t) for t in a.tiles) if a.tiles else "nothing")
    return a.type


def measure(
    view: PlayerView, known: HandState, seat: int, a: Action, ts: list[Threat], discard_wins: bool
) -> dict[str, Any]:
    """The measures of one alternative as JSON (value added by the caller)."""
    out: dict[str, Any] = {"action": a.to_json(), "label": label(a)}
    thrown: Tile | None = None
    s: Shape | None = None
    if a.type == "discard":
        assert a.tile is not None
        thrown = a.tile
        s = shape(view, known, seat, _without(view.hand, a.tile), view.melds)
    elif a.type == "pass" and view.phase == "claim":
        s = shape(view, known, seat, view.hand, view.melds)
    elif a.type in ("chi", "pong"):
        melds = (*view.melds, claimed_meld(view, a))
        thrown, s = _best_follow_up(view, known, seat, after_claim(view.hand, a), melds)
        out["then_discard"] = name(thrown)
    elif a.type == "kong":
        if view.phase == "claim":
            c, melds = after_claim(view.hand, a), (*view.melds, claimed_meld(view, a))
        else:
            c, melds = own_kong(view, a)
        s = shape(view, known, seat, c, melds)
    elif a.type == "win":
        out.update(shanten=-1, effective=0, waits=[])
    if s is not None:
        out.update(
            shanten=s.shanten,
            effective=s.effective,
            waits=[{"tile": name(t), "unseen": n} for t, n in s.waits],
        )
    if thrown is not None and discard_wins:
        out["danger"] = round(risk(view, thrown, ts), 3) if ts else 0.0
    return out
