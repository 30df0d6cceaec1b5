"""The open game record (docs/record-format.md): export, verify, replay.

A hand record is one JSON document: the header (variant, options, seats, dealer, winds, dice),
the fairness block (the commitment shown before the deal and the salt and wall revealed after),
the ordered event list (deal, draws, flowers, the joker indicator, every player action and what
it did) and the result. A match record is the match header and its hand records.

Everything here is pure: `hand_record` builds a record from what a server stores (the seed or
salt, the setup and the action log), `replay_record` re-plays one through the engine and checks
every action was legal and every event and the result match (the import and the command line
share it), and `verify_record` checks the commitment and that every draw came from the revealed
wall in order. Problems raise `RecordError` naming the first one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from games.engine.actions import Action, apply, new_hand
from games.engine.errors import EngineError
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.engine.state import HandResult, HandState
from games.engine.tiles import is_flower, name, seat_wind
from games.engine.view import result_view
from games.engine.wall import commitment, deal_wall, parse_wall_text, wall_text

FORMAT = "mahjong-record"
VERSION = 1
MAX_BYTES = 1024 * 1024  # an upload or stdin over 1 MB is refused unread
MAX_DEPTH = 64  # a record nests about 8 levels; deeper is refused as bad_json, never recursed into
SCHEMA_PATH = Path(__file__).with_name("record.schema.json")
SALTED = "sha256-salt-wall"  # fairness.scheme of a hand dealt with a commitment
LEGACY = "legacy-seed"  # a hand dealt before commitments: the seed is revealed instead
SETUP_KEYS = ("dealer", "round_wind", "base", "options", "counters")
ADMIN_CLOSED = "admin_closed"  # result.by of a hand an admin ended mid-play: settled drawn, no payments

Event = dict[str, Any]


class RecordError(EngineError):
    """A record that cannot be read, replayed or verified; `message` names the first problem."""


@dataclass(frozen=True)
class Step:
    """One action of a replayed hand and the state after it."""

    seat: int
    action: Action
    actor: str
    state: HandState


@dataclass(frozen=True)
class ReplayedHand:
    record: dict[str, Any]
    start: HandState  # after the deal, before the first action
    steps: tuple[Step, ...]

    @property
    def final(self) -> HandState:
        return self.steps[-1].state if self.steps else self.start


# ---------------------------------------------------------------------------
# Export.


def hand_record(
    variant: str,
    seed: int,
    setup: dict[str, Any],
    actions: list[tuple[int, dict[str, Any], str]],
    players: list[str],
    meta: dict[str, Any] | None = None,
    settlement: dict[str, Any] | None = None,
    closed_by_admin: bool = False,
) -> dict[str, Any]:
    """The record of one finished hand from its stored log: `actions` are (seat, action JSON,
    actor) in order; `setup` is every new_hand keyword (a `salt` among them for committed hands).
    A hand an admin closed mid-play ends after its last action with the admin_closed result."""
    salt = setup.get("salt")
    deal_setup = {k: setup[k] for k in SETUP_KEYS if k in setup}
    state = new_hand(variant, seed, salt=salt, **deal_setup)
    _, dice, wall = deal_wall(get_ruleset(variant).wall_tiles(), seed, salt)
    events = deal_events(state, wall)
    for seat, action_json, actor in actions:
        action = Action.from_json(action_json)
        before = state
        state, engine_events = apply(state, seat, action)
        events.extend(step_events(before, state, seat, action, actor, engine_events))
    if state.phase != "over" and not closed_by_admin:
        raise RecordError("hand_not_over", "only a finished hand has a record")
    result = result_view(state.result) if state.result else _closed_result(state)
    if state.result is None:
        events.append({"type": "end", "drawn": True, "by": ADMIN_CLOSED})
    fairness: dict[str, Any] = {"scheme": SALTED if salt else LEGACY, "wall": wall_text(wall)}
    if salt:
        fairness.update(commitment=state.commitment, salt=salt)
    else:
        fairness.update(commitment=None, seed=str(seed))
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "kind": "hand",
        "meta": meta or {},
        "variant": variant,
        "options": dict(state.options),
        "setup": deal_setup,
        "players": [
            {"seat": s, "name": players[s] if s < len(players) else "?", "wind": _seat_wind(state, s)}
            for s in range(state.num_players)
        ],
        "dealer": state.dealer,
        "round_wind": name(state.round_wind),
        "dice": list(dice),
        "fairness": fairness,
        "events": events,
        "result": result,
    }
    if settlement is not None:
        record["settlement"] = settlement
    return record


def _closed_result(state: HandState) -> dict[str, Any]:
    closed = HandResult(by=ADMIN_CLOSED, payments=(0,) * state.num_players, next_dealer=state.dealer)
    return result_view(closed)


def match_record(header: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": "match", "match": header, "hands": hands}


def _seat_wind(state: HandState, seat: int) -> str:
    return name(seat_wind(seat, state.dealer, state.num_players))


def deal_events(state: HandState, wall: tuple[int, ...]) -> list[Event]:
    """The deal: 13 tiles each from the front of the wall (the dealer's first), then every tile
    taken while dealing (flower replacements, the dealer's first draw), the joker indicator."""
    n = state.num_players
    hands = [[name(t) for t in wall[(s - state.dealer) % n * 13 :][:13]] for s in range(n)]
    deal: Event = {"type": "deal", "dealer": state.dealer, "hands": hands, "huangfan": state.huangfan}
    events: list[Event] = [deal]
    for s in range(n):
        events.extend({"type": "flower", "seat": s, "tile": t} for t in hands[s] if t.endswith("f"))
    if state.indicator is not None:
        events.append(
            {
                "type": "joker_indicator",
                "tile": name(state.indicator),
                "dice": list(state.joker_dice or ()),
                "jokers": [name(t) for t in state.jokers],
            }
        )
    events.extend(_deal_takes(state, hands))
    return events


def _deal_takes(state: HandState, hands: list[list[str]]) -> Iterator[Event]:
    """The tiles taken while dealing, by whom: flower replacements from the back, the dealer first
    and each seat one per flower (a replacement flower asks for one more), then the dealer's
    first draw from the front and its own replacements. (The indicator was taken out of the
    wall, so the state's wall is one shorter than the dealt one: its tail is still the end.)"""
    n = state.num_players
    back = [state.wall[i] for i in range(len(state.wall) - 1, state.tail - 1, -1)]
    taken = 0
    for i in range(n):
        seat = (state.dealer + i) % n
        need = sum(1 for t in hands[seat] if t.endswith("f"))
        while need and taken < len(back):
            t = back[taken]
            taken += 1
            need += 1 if is_flower(t) else 0
            need -= 1
            yield from _take_events(seat, t, "back")
    for t in state.wall[13 * n : state.head]:
        yield from _take_events(state.dealer, t, "front")
    for t in back[taken:]:
        yield from _take_events(state.dealer, t, "back")


def _take_events(seat: int, t: int, end: str) -> Iterator[Event]:
    yield {"type": "draw", "seat": seat, "tile": name(t), "end": end}
    if is_flower(t):
        yield {"type": "flower", "seat": seat, "tile": name(t)}


def step_events(
    before: HandState, after: HandState, seat: int, action: Action, actor: str, engine_events: list[Event]
) -> list[Event]:
    """One action: what the player did, what the engine said it did, the melds it made, then the
    tiles it took from the wall (a draw, a flower replacement, a kong replacement)."""
    events: list[Event] = [{"type": "action", "seat": seat, "actor": actor, "action": action.to_json()}]
    events.extend({"type": "engine", "event": e} for e in engine_events)
    for s in range(after.num_players):
        old, new = before.players[s].melds, after.players[s].melds
        for i, meld in enumerate(new):
            if i < len(old) and old[i] == meld:
                continue
            out: Event = {"type": "meld", "seat": s, **meld.to_json()}
            if meld.claimed is not None:
                out["claimed"] = name(meld.claimed)
            events.append(out)
    tail = before.tail + len(after.wall) - len(before.wall)  # 开局换牌 puts tiles back in the wall
    # a pre-hand exchange takes its tiles for the seat that made it, whoever holds the turn
    taker = seat if before.phase == "choose" else None
    events.extend(_takes(before.head, tail, after, before, taker))
    if after.result is not None:
        events.append({"type": "end", "drawn": after.result.drawn, "by": after.result.by})
    return events


def _takes(
    head: int, tail: int, state: HandState, before: HandState, taker: int | None = None
) -> Iterator[Event]:
    """Tiles taken from the front (wall[head:state.head]) and the back (wall[state.tail:tail],
    last first) into a hand: each a draw event, a flower also a flower event."""
    if taker is None:
        taker = _taker(state, before)
    for t in state.wall[head : state.head]:
        yield from _take_events(taker, t, "front")
    for t in reversed(state.wall[state.tail : tail]):
        yield from _take_events(taker, t, "back")


def _taker(state: HandState, before: HandState) -> int:
    """Who took the tiles: the seat that now holds a new drawn tile or new flowers, else the turn."""
    for s, p in enumerate(state.players):
        old = before.players[s]
        if p.drawn is not None and (old.drawn != p.drawn or old.draw_count != p.draw_count):
            return s
        if p.flowers != old.flowers:
            return s
    return state.turn


# ---------------------------------------------------------------------------
# Reading: size, JSON, version, schema.


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def parse_record(raw: bytes | str, max_hands: int | None = None) -> dict[str, Any]:
    """The record in `raw` if it is at most 1 MB of JSON, nested at most MAX_DEPTH levels, of
    this format's version and schema; `max_hands`: refuse a match of more hands, unreplayed."""
    data = raw.encode("utf-8") if isinstance(raw, str) else raw
    if len(data) > MAX_BYTES:
        size = f"the record is {len(data):,} bytes; at most {MAX_BYTES:,} (1 MB) are read"
        raise RecordError("too_large", size)
    try:
        record = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError("bad_json", f"the record is not JSON: {e}") from None
    except RecursionError:  # (the decoder recurses: a 200,000-deep array)
        raise RecordError("bad_json", f"the record nests deeper than {MAX_DEPTH} levels") from None
    if nesting(record) > MAX_DEPTH:  # the schema check and every reader after it recurse too
        raise RecordError("bad_json", f"the record nests deeper than {MAX_DEPTH} levels")
    hands = record.get("hands") if isinstance(record, dict) else None
    if max_hands is not None and isinstance(hands, list) and len(hands) > max_hands:
        message = f"the record has {len(hands)} hands; at most {max_hands} are opened"
        raise RecordError("too_many_hands", message)
    check_record(record)
    return record


def nesting(value: Any) -> int:
    """How deeply `value` nests (a scalar: 0), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def check_record(record: Any) -> None:
    """Format and version first (so an older or newer file is named as such), then the schema."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("wrong_format", f"not a game record: 'format' must be {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(
            "wrong_version",
            f"record version {record.get('version')!r} is not supported; this site reads version {VERSION}",
        )
    error = jsonschema.exceptions.best_match(_validator().iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise RecordError("schema", f"the record does not match the schema at {where}: {error.message}")


def hand_records(record: dict[str, Any]) -> list[dict[str, Any]]:
    return record["hands"] if record["kind"] == "match" else [record]


# ---------------------------------------------------------------------------
# Replay and verify.


def redeal(record: dict[str, Any]) -> tuple[HandState, tuple[int, ...]]:
    """The hand dealt again from the record's revealed salt (or a legacy seed), after checking
    the commitment, that the wall is the variant's full set, and that the salt deals that wall."""
    variant = record["variant"]
    if variant not in VARIANT_IDS:
        raise RecordError("wrong_variant", f"unknown variant {variant!r}")
    fair = record["fairness"]
    rules = get_ruleset(variant)
    wall = parse_wall_text(fair["wall"])
    if Counter(wall) != Counter(rules.wall_tiles()):
        raise RecordError("broken_commitment", f"the revealed wall is not the full {variant} tile set")
    if fair["scheme"] == SALTED:
        if commitment(fair["salt"], fair["wall"]) != fair["commitment"]:
            message = "sha256(salt:wall) is not the commitment shown before the deal"
            raise RecordError("broken_commitment", message)
        seed, salt = 0, fair["salt"]
    else:
        seed, salt = int(fair["seed"]), None
    try:
        state = new_hand(variant, seed, salt=salt, **record["setup"])
    except EngineError as e:
        raise RecordError("bad_setup", f"the hand cannot be dealt: {e.message}") from None
    except (TypeError, ValueError, KeyError, IndexError) as e:
        raise RecordError("bad_setup", f"the hand cannot be dealt: {e}") from None
    _, dice, dealt = deal_wall(rules.wall_tiles(), seed, salt)
    if dealt != wall:
        raise RecordError("broken_commitment", "the revealed wall is not the wall the revealed salt deals")
    if list(dice) != record["dice"]:
        raise RecordError("wrong_dice", f"the dice are {list(dice)}, not {record['dice']}")
    return state, dealt


def replay_record(record: dict[str, Any]) -> ReplayedHand:
    """Re-play one hand record: every action must be legal and every event and the result must be
    what the engine makes of them. Raises RecordError naming the first problem."""
    state, wall = redeal(record)
    start = state
    expected = deal_events(state, wall)
    steps: list[Step] = []
    actions = [e for e in record["events"] if e["type"] == "action"]
    for n, event in enumerate(actions, 1):
        try:
            action = Action.from_json(event["action"])
            before = state
            state, engine_events = apply(state, event["seat"], action)
        except EngineError as e:
            message = f"action {n} ({_describe(event)}) is not legal: {e.message}"
            raise RecordError("illegal_action", message) from None
        except (TypeError, ValueError, KeyError, IndexError) as e:  # odd options the schema let through
            message = f"action {n} ({_describe(event)}) cannot be applied: {e}"
            raise RecordError("illegal_action", message) from None
        expected.extend(step_events(before, state, event["seat"], action, event["actor"], engine_events))
        steps.append(Step(event["seat"], action, event["actor"], state))
    if state.result is None and record["result"].get("by") == ADMIN_CLOSED:
        result = _closed_result(state)  # an admin ended it mid-play
        expected.append({"type": "end", "drawn": True, "by": ADMIN_CLOSED})
    elif state.result is None:
        raise RecordError("wrong_result", "the hand does not end after the recorded actions")
    else:
        result = result_view(state.result)
    if json.loads(json.dumps(result)) != record["result"]:
        difference = _first_difference(result, record["result"])
        raise RecordError("wrong_result", f"the recorded result is not the engine's: {difference}")
    _compare_events(expected, record["events"])
    return ReplayedHand(record=record, start=start, steps=tuple(steps))


def verify_record(record: dict[str, Any]) -> dict[str, Any]:
    """The fairness check: the commitment opens to the revealed salt and wall, the salt deals
    that wall and those dice, and every draw of the record is the wall's next tile in order."""
    replayed = replay_record(record)
    draws = sum(1 for e in record["events"] if e["type"] == "draw")
    fair = record["fairness"]
    return {
        "ok": True,
        "scheme": fair["scheme"],
        "commitment": fair.get("commitment"),
        "draws": draws,
        "actions": len(replayed.steps),
    }


def _compare_events(expected: list[Event], recorded: list[Event]) -> None:
    for i, (want, got) in enumerate(zip(expected, recorded, strict=False)):
        if json.loads(json.dumps(want)) != got:
            what = "draw" if "draw" in (want["type"], got.get("type")) else "event"
            raise RecordError(
                "wrong_draw" if what == "draw" else "wrong_event",
                f"event {i} is {json.dumps(got, ensure_ascii=False)} but the wall and the actions give "
                f"{json.dumps(want, ensure_ascii=False)}",
            )
    if len(expected) != len(recorded):
        message = f"the record has {len(recorded)} events; the replay makes {len(expected)}"
        raise RecordError("wrong_event", message)


def _first_difference(want: dict[str, Any], got: Any) -> str:
    if not isinstance(got, dict):
        return "the result is missing"
    for key in want:
        if want[key] != got.get(key):
            return f"{key} is {json.dumps(got.get(key))}, the engine says {json.dumps(want[key])}"
    return "extra keys"


def _describe(event: Event) -> str:
    action = event.get("action") or {}
    parts = [f"seat {event.get('seat')}", str(action.get("type"))]
    parts += [str(action[k]) for k in ("tile", "tiles", "kind") if action.get(k)]
    return " ".join(parts)
