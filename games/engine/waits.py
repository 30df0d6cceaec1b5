"""Waits help for one seat: which tiles complete its hand, how many of each it has not seen, and
why a completed shape would still not be a legal win.

Everything here is computed from what that seat may see. The state is first *blinded*
(`blind`): the wall's tiles and the other seats' concealed tiles are replaced by nothing before
any rule is asked, so no answer can depend on them (tests/engine/test_waits.py checks it by
changing hidden tiles). Only the rulesets' quick tests of whether a hand may wait at all
(`may_wait`, `discards_that_may_wait`) come first, on the seat's own tiles, melds and flowers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.actions import win_context
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState, evolve, memo
from games.engine.tiles import KINDS, Tile, name


@dataclass(frozen=True)
class Wait:
    """A tile that completes the hand and `unseen`: the copies the seat has not seen.

    When the shape completes but the rules refuse the win, the reason code: `refused` when it
    could not be won at all (then `discard_refused` says the same), `discard_refused` when only
    a discard of it could not be won (a lock, the one-flower minimum…) — it may still be drawn.
    """

    tile: Tile
    unseen: int
    refused: str = ""
    discard_refused: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tile": name(self.tile), "unseen": self.unseen}
        if self.refused:
            out["refused"] = self.refused
        if self.discard_refused:
            out["discard_refused"] = self.discard_refused
        return out


def blind(state: HandState, seat: int) -> HandState:
    """The state as `seat` knows it: the wall (its length kept: the count is public) and every
    other seat's concealed tiles erased."""
    erased = _erased(state)
    players = tuple(p if s == seat else erased[s] for s, p in enumerate(state.players))
    return evolve(state, wall=erased[-1], players=players)


def _erased(state: HandState) -> tuple[Any, ...]:
    """Each seat with its concealed tiles erased, then the wall erased: the same pieces for every
    seat's `blind`, so made once per state (a server blinds each state for every seat)."""
    cache = memo(state)
    known = cache.get("erased")
    if known is None:
        hidden = bytes(KINDS)
        players = tuple(evolve(p, concealed=hidden, drawn=None) for p in state.players)
        cache["erased"] = known = (*players, (0,) * len(state.wall))
    return known


def seen_by(state: HandState, seat: int) -> list[int]:
    """Copies of each kind face up to `seat`: its own hand and concealed kongs, every river tile
    not taken into a meld, every exposed meld, and the joker indicator."""
    seen = list(_face_up(state))
    p = state.players[seat]
    for m in p.melds:
        if m.kind == "concealed_kong":
            for t in m.tiles:
                if t < KINDS:
                    seen[t] += 1
    for t, n in enumerate(p.concealed[:KINDS]):
        seen[t] += n
    return seen


def _face_up(state: HandState) -> tuple[int, ...]:
    """Copies of each kind face up to everybody: the rivers' tiles not taken into a meld, the
    exposed melds and the joker indicator. The same for every seat, so counted once per state
    (a server asks for each seat's waits help at every version)."""
    cache = memo(state)
    known = cache.get("face_up")
    if known is not None:
        return known
    seen = [0] * KINDS
    for p in state.players:
        claimed = p.claimed_discards
        for i, t in enumerate(p.discards):
            if t < KINDS and i not in claimed:
                seen[t] += 1
        for m in p.melds:
            if m.kind != "concealed_kong":
                for t in m.tiles:
                    if t < KINDS:
                        seen[t] += 1
    if state.indicator is not None and state.indicator < KINDS:
        seen[state.indicator] += 1
    cache["face_up"] = counted = tuple(seen)
    return counted


def waits_for(state: HandState, seat: int) -> list[Wait]:
    """The waits of `seat`'s concealed part as it is (13, 10, 7… tiles: between turns)."""
    concealed = state.players[seat].concealed
    if not get_ruleset(state.variant).may_wait(state, seat, concealed):  # (its own tiles only)
        return []  # most seats most of the time: nothing to blind or ask
    known = blind(state, seat)  # (seen_by reads only what the seat sees: counted on `state`, once)
    return _waits(known, seat, concealed, seen_by(state, seat))


def discard_waits(state: HandState, seat: int) -> dict[Tile, list[Wait]]:
    """On `seat`'s turn: for each tile it could discard, the waits it would then have (only
    discards that leave it ready are listed; without refusal reasons — they show once it waits)."""
    concealed = state.players[seat].concealed
    asked = get_ruleset(state.variant).discards_that_may_wait(state, seat, concealed)  # (its own tiles only)
    if asked == []:
        return {}  # most turns: no discard leaves the hand ready
    known = blind(state, seat)
    seen = seen_by(state, seat)
    out: dict[Tile, list[Wait]] = {}
    for t in range(KINDS) if asked is None else asked:
        if concealed[t]:
            after = bytearray(concealed)
            after[t] -= 1
            waits = _waits(known, seat, bytes(after), seen, reasons=False)
            if waits:
                out[t] = waits
    return out


def _waits(
    known: HandState, seat: int, concealed: bytes, seen: list[int], reasons: bool = True
) -> list[Wait]:
    """`reasons`: also ask the rules whether each win would be allowed (scoring each: the
    discard → waits table skips it, it is built on every turn of every seat)."""
    rules = get_ruleset(known.variant)
    out = []
    for t in sorted(rules.wait_candidates(known, seat, concealed)):
        with_t = bytearray(concealed)
        with_t[t] += 1
        if with_t[t] > 4 or not rules.is_winning_shape(known, seat, bytes(with_t)):
            continue
        if not reasons:
            out.append(Wait(t, max(0, 4 - seen[t])))
            continue
        by_draw = _self_draw_refusal(known, seat, concealed, t)
        by_discard = _discard_refusal(known, seat, concealed, t)
        refused = by_draw if by_draw and (by_discard or not rules.win_on_discard) else ""
        out.append(Wait(t, max(0, 4 - seen[t]), refused, by_discard))
    return out


def _self_draw_refusal(known: HandState, seat: int, concealed: bytes, t: Tile) -> str:
    """Why drawing `t` would not be a win ('' if it would): each ruleset's win_check knows its
    minimums, locks and restrictions."""
    drawn = bytearray(concealed)
    drawn[t] += 1
    as_drawn = known.with_player(seat, concealed=bytes(drawn), drawn=t)
    score = get_ruleset(known.variant).win_check(as_drawn, seat, win_context(as_drawn, seat, t, "self_draw"))
    return "" if score.win else score.reason or "not_a_win"


def _discard_refusal(known: HandState, seat: int, concealed: bytes, t: Tile) -> str:
    """Why a discard of `t` by the next seat would not be a win ('' if it would, or when the
    variant never wins on a discard)."""
    rules = get_ruleset(known.variant)
    if not rules.win_on_discard:
        return ""
    before = known.with_player(seat, concealed=concealed, drawn=None)
    discarder = (seat + 1) % known.num_players
    score = rules.win_check(before, seat, win_context(before, seat, t, "discard", discarder))
    return "" if score.win else score.reason or "not_a_win"


def waits_json(state: HandState, seat: int) -> dict[str, Any]:
    """The JSON view's `hand` help: `waits` between turns, `discard_waits` on the seat's turn."""
    p = state.players[seat]
    if state.phase == "turn" and state.turn == seat and p.hand_size % 3 == 2:
        return {
            "waits": [],
            "discard_waits": [
                {"discard": name(t), "waits": [w.to_json() for w in ws]}
                for t, ws in discard_waits(state, seat).items()
            ],
        }
    if p.hand_size % 3 == 1:
        return {"waits": [w.to_json() for w in waits_for(state, seat)], "discard_waits": []}
    return {"waits": [], "discard_waits": []}
