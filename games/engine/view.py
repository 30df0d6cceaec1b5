"""What one viewer may see of a hand: the only way state leaves the engine.

`view_for(state, seat)` is a JSON-able dict for the player in `seat`, or for
a spectator when seat is None. It never holds another player's concealed
tiles, another player's concealed-kong tiles (yihua hides them), anyone's
pending claim options, or the wall — only counts. Once the hand is over,
every hand is opened (the settlement shows them to all).
"""

from __future__ import annotations

from typing import Any

from games.engine.actions import legal_actions, seats_to_act
from games.engine.rulesets import get_ruleset
from games.engine.scoring.shanghai import huangfan_cause
from games.engine.state import HandResult, HandState, Meld, PlayerState, memo
from games.engine.tiles import format_tiles, name, names, seat_wind, tiles_of
from games.engine.waits import waits_json


def _meld_view(m: Meld, visible: bool) -> dict[str, Any]:
    if m.kind == "concealed_kong" and not visible:
        return {"kind": m.kind, "tiles": None, "count": 4}
    out = m.to_json()
    if m.claimed is not None:
        out["claimed"] = name(m.claimed)
    return out


def _hand_tiles(p: PlayerState) -> list[str]:
    """The concealed hand sorted by suit, the just-drawn tile last (shown apart)."""
    tiles = tiles_of(p.concealed)
    if p.drawn is not None:
        tiles.remove(p.drawn)
        tiles.append(p.drawn)
    return names(tiles)


def _blind(state: HandState) -> bool:
    """Pre-hand choices made before anyone takes their tiles (tianjin 坐庄/拉庄): nothing dealt shows."""
    return state.phase == "choose" and get_ruleset(state.variant).blind_choices


def _seat_view(state: HandState, seat: int, viewer: int | None) -> dict[str, Any]:
    """`seat` as `viewer` sees it. Made once per player state and what else it shows: a seat's
    view changes only when its own state does (the engine keeps an unchanged seat's
    PlayerState from one state to the next), and every version is rendered for every viewer,
    so the three seats that did not move are not built again. Shared: read, never changed."""
    p = state.players[seat]
    opened = state.phase == "over"
    mine = viewer == seat and not _blind(state)
    forbidden = mine and bool(p.forbidden) and state.phase == "turn" and state.turn == seat
    key = ("seat_view", seat, mine, opened, forbidden, state.dealer, state.num_players)
    cache = memo(p)  # (dropped with every change to the seat: `evolve`)
    view = cache.get(key)
    if view is None:
        view = cache[key] = _seat_view_of(state, p, seat, mine or opened, opened, forbidden)
    return view


def _seat_view_of(
    state: HandState, p: PlayerState, seat: int, shown: bool, opened: bool, forbidden: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": seat,
        "wind": name(seat_wind(seat, state.dealer, state.num_players)),
        "dealer": seat == state.dealer,
        "hand_count": p.hand_size,
        "melds": [_meld_view(m, shown) for m in p.melds],
        "flowers": format_tiles(p.flowers),
        "discards": names(p.discards),
        "claimed_discards": sorted(p.claimed_discards),
        "ready": p.ready,
        "discarded_joker": p.discarded_joker,
    }
    if shown:
        out["hand"] = _hand_tiles(p)
        out["drawn"] = name(p.drawn) if p.drawn is not None and not opened else None
    if forbidden:
        out["forbidden"] = [name(t) for t in sorted(p.forbidden)]
    return out


def _result_view(result: HandResult) -> dict[str, Any]:
    return {
        "winners": list(result.winners),
        "drawn": result.drawn,
        "by": result.by,
        "from": result.from_seat,
        "win_tile": name(result.win_tile) if result.win_tile is not None else None,
        "scores": [{"seat": w, **s.to_json()} for w, s in zip(result.winners, result.scores, strict=False)],
        "extras": [{"reason": r, "payments": list(p)} for r, p in result.extras],
        "payments": list(result.payments),
        "next_dealer": result.next_dealer,
    }


result_view = _result_view  # the result as every view shows it; records carry the same (record.py)


def view_for(
    state: HandState, seat: int | None, public: dict[str, Any] | None = None, hints: bool = True
) -> dict[str, Any]:
    """The hand as `seat` sees it (None: a spectator's public view).

    A player's view is the public view with their own seat opened: pass `public` (this state's
    `view_for(state, None)`, read only) to build it from that instead of from scratch — a
    server renders each version for every viewer, and the public part is the same for all.
    `hints=False` leaves out the waits help (the `waits` and `discard_waits` keys): a bot reads
    none of it, and finding every discard's waits was a fifth of a Cantonese bot's decision.
    """
    viewer = seat if seat is not None and 0 <= seat < state.num_players else None
    if public is None:
        public = _public_view(state)
    if viewer is None:
        return public
    out = dict(public)
    seats = list(public["seats"])
    seats[viewer] = _seat_view(state, viewer, viewer)
    out["seats"] = seats
    out["me"] = viewer
    # whether the viewer is being waited for; never who else is (claim privacy)
    out["my_move"] = viewer in seats_to_act(state)
    if hints and state.phase != "over" and not _blind(state):  # the waits help, from what this seat sees
        out.update(waits_json(state, viewer))
    return out


def _public_view(state: HandState) -> dict[str, Any]:
    """What everybody may see: the spectator's view, no seat opened (all of them once it is over)."""
    blind = _blind(state)
    out: dict[str, Any] = {
        "variant": state.variant,
        "phase": state.phase,
        "dealer": state.dealer,
        "round_wind": name(state.round_wind),
        "dice": list(state.dice),
        "wall_left": state.wall_left,
        "turn": state.turn if state.phase == "turn" else None,
        "seats": [_seat_view(state, s, None) for s in range(state.num_players)],
        "jokers": [] if blind else [name(t) for t in state.jokers],
        "indicator": name(state.indicator) if state.indicator is not None and not blind else None,
        "huangfan": state.huangfan,
        # why (the dice or drawn hands before): the board names the cause, not just "荒番"
        "huangfan_cause": huangfan_cause(dict(state.counters).get("huangfan", 0), state.dice)
        if state.huangfan
        else None,
        "commitment": state.commitment or None,  # never the salt or the wall (docs/fairness.md)
        "me": None,
        "my_move": False,
    }
    if state.window is not None:
        out["last_discard"] = {
            "seat": state.window.seat,
            "tile": name(state.window.tile),
            "kind": state.window.kind,
        }
    elif state.last_discard is not None:
        out["last_discard"] = {
            "seat": state.last_discard[0],
            "tile": name(state.last_discard[1]),
            "kind": "discard",
        }
    if state.phase != "choose":  # pre-hand choices are shown all at once, after everyone chose
        out["choices"] = {k: list(v) if isinstance(v, tuple) else v for k, v in state.choices}
    if state.result is not None:
        out["result"] = _result_view(state.result)
    return out


def legal_json(state: HandState, seat: int | None) -> list[dict[str, Any]]:
    """The viewer's legal hand actions in the JSON protocol's form."""
    if seat is None:
        return []
    return [a.to_json() for a in legal_actions(state, seat)]
