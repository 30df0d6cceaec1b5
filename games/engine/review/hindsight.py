"""Hindsight, kept apart and labelled: what would actually have happened, read from the wall
revealed after the hand. Never used by the graded recommendation (core.review_decision sees
only the seat's view); this module alone reads the real later states.

For each graded discard where the recommendation differed: the recommended hand is played on
with the seat's own later draws, as they came in the game, until the seat next claimed a tile or
the hand ended — each draw kept or thrown to stay as close to winning as possible (lowest
shanten, then most effective tiles as the seat saw them at the decision) — and the turn on which
it would have been ready or complete is set beside the turn the played hand was ready.
"""

from __future__ import annotations

from typing import Any

from games.engine.bots.seen import PlayerView
from games.engine.bots.shape import distance, improving
from games.engine.record import ReplayedHand
from games.engine.tiles import KINDS, Tile, name, tile
from games.engine.view import view_for

LABEL = "hindsight: uses the wall revealed after the hand; not part of the grade"


def _draws_after(replayed: ReplayedHand, step: int, seat: int) -> list[tuple[int, Tile]]:
    """(turn, tile) of each later draw of `seat` until it next claims or the hand ends."""
    out = []
    states = [s.state for s in replayed.steps]
    prev = states[step]
    melds = len(prev.players[seat].melds)
    for st in states[step + 1 :]:
        p, q = st.players[seat], prev.players[seat]
        if len(p.melds) != melds and not any(m.kind.endswith("kong") for m in p.melds[melds:]):
            break
        if p.draw_count > q.draw_count and p.drawn is not None:
            out.append((p.discard_count + 1, p.drawn))
        melds = len(p.melds)
        prev = st
    return out


def _ready_turn(replayed: ReplayedHand, step: int, seat: int) -> int | None:
    """The first turn after `step` on which the played hand was ready (after its discard)."""
    for s in replayed.steps[step:]:
        p = s.state.players[seat]
        if s.seat == seat and p.hand_size % 3 == 1:
            jokers = s.state.jokers
            if distance(p.concealed, len(p.melds), jokers) <= 0:
                return p.discard_count
    return None


Reached = tuple[int, Tile] | None  # (turn, the draw that did it); tile -1: ready before any draw


def _play_on(
    hand: bytes, melds: int, jokers: tuple[Tile, ...], unseen: bytes, draws: list[tuple[int, Tile]]
) -> tuple[Reached, Reached]:
    """(turn ready, turn complete, the draw that made it) for a 13-tile hand and its draws."""
    c = bytearray(hand)
    ready: tuple[int, Tile] | None = None
    if distance(bytes(c), melds, jokers) == 0:
        ready = (0, -1)
    for turn, t in draws:
        c[t] += 1
        if distance(bytes(c), melds, jokers) < 0:
            return ready, (turn, t)
        best: tuple[tuple[int, int], Tile] | None = None
        for d in range(KINDS):
            if c[d]:
                c[d] -= 1
                key = (distance(bytes(c), melds, jokers), -improving(bytes(c), melds, jokers, unseen)[0])
                c[d] += 1
                if best is None or key < best[0]:
                    best = (key, d)
        assert best is not None
        c[best[1]] -= 1
        if ready is None and best[0][0] == 0:
            ready = (turn, t)
    return ready, None


def hindsight(replayed: ReplayedHand, seat: int, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    states = [replayed.start] + [s.state for s in replayed.steps]
    items = []
    for d in decisions:
        played, rec = d["played"], d["recommended"]
        if d["agrees"] or played["type"] != "discard" or rec["type"] != "discard" or not d["loss"]:
            continue
        step = d["step"]
        before = states[step]
        p = before.players[seat]
        c = bytearray(p.concealed)
        c[tile(rec["tile"])] -= 1
        unseen = PlayerView.of(view_for(before, seat)).unseen  # ranks the kept tiles only
        draws = _draws_after(replayed, step, seat)
        ready, won = _play_on(bytes(c), len(p.melds), before.jokers, unseen, draws)
        actual = _ready_turn(replayed, step, seat)
        items.append(
            {
                "index": d["index"],
                "kept": played["tile"],
                "discarded_instead": rec["tile"],
                "draws": [{"turn": turn, "tile": name(t)} for turn, t in draws],
                "ready_turn": ready[0] if ready and ready[1] >= 0 else (d["turn"] if ready else None),
                "complete_turn": won[0] if won else None,
                "played_ready_turn": actual,
                "text": {
                    "en": _text(played["tile"], ready, won, actual, "en"),
                    "zh": _text(played["tile"], ready, won, actual, "zh"),
                },
            }
        )
    return {"label": LABEL, "items": items}


def _text(kept: str, ready: Reached, won: Reached, actual: int | None, lang: str) -> str:
    if lang == "en":
        if won:
            what = f"keeping {kept}, your turn-{won[0]} draw {name(won[1])} would have completed the hand"
        elif ready and ready[1] >= 0:
            what = f"keeping {kept}, your turn-{ready[0]} draw {name(ready[1])} would have made you ready"
        elif ready:
            what = f"keeping {kept} would have made you ready at once"
        else:
            what = f"keeping {kept}, your later draws would not have made you ready"
        return what + (
            f"; in the game you were ready on turn {actual}."
            if actual
            else "; in the game you never got ready."
        )
    if won:
        what = f"留着{kept}，第{won[0]}巡摸到的{name(won[1])}就能和牌"
    elif ready and ready[1] >= 0:
        what = f"留着{kept}，第{ready[0]}巡摸到的{name(ready[1])}就能听牌"
    elif ready:
        what = f"留着{kept}就立即听牌"
    else:
        what = f"留着{kept}，之后摸的牌也不能听牌"
    return what + (f"；实战中第{actual}巡听牌。" if actual else "；实战中没有听牌。")
