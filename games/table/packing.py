"""A snapshot's rows and hand states as plain values, the way its bytes carry them.

A snapshot (games.table.snapshots) travels between server processes as a pickle. Pickling an
object of a class writes the class's module and name, and both ends look the class up again
each time — on the 2-core test machine about 2 µs per class per pickle each way, for `datetime`, its time
zone, the status enumerations and the engine's state classes: more than the values themselves.
So a row travels as its field values with an aware UTC datetime as its ten bytes and an
enumeration as its value (what a row read from the database holds: a plain string), and the
newest hand state as nested tuples of its fields (the state, its players, their melds); the
bytes then name no class at all in the common case. Anything else (a datetime in another zone,
a claim window, a hand's result) is pickled as it is, inside the plain values.

Also here: `own`, the private copy of a JSON field's value that a change made on a kept
snapshot works on.

`PLAIN` (on unless SNAPSHOT_PLAIN_PACKING=0) chooses how a process packs; every process reads
both forms (docs/benchmarks.md, "Cost per action: the snapshot's packing").
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import operator
import os
import pickle
from typing import Any, TypeVar

from django.db.models import DateTimeField, Model
from django.db.models.base import ModelState

from common.row_shape import values_reader
from games.engine.state import MEMO, HandState, Meld, PlayerState

PLAIN = os.environ.get("SNAPSHOT_PLAIN_PACKING", "1") != "0"

M = TypeVar("M", bound=Model)
StateKey = tuple[int, int]  # (hand id, actions applied)

_UTC = datetime.UTC
_DATETIME = datetime.datetime
_PROTOCOL = pickle.HIGHEST_PROTOCOL


class _Fields:
    """A model's concrete fields as a snapshot packs them: names, one reader for all, and which
    of them may hold a datetime or an enumeration."""

    def __init__(self, model: type[Model]) -> None:
        fields = model._meta.concrete_fields
        self.names = tuple(f.attname for f in fields)
        self.read = values_reader(self.names)
        self.times = tuple(i for i, f in enumerate(fields) if isinstance(f, DateTimeField))
        self.choices = tuple(i for i, f in enumerate(fields) if f.choices)


_FIELDS: dict[type[Model], _Fields] = {}


def _fields(model: type[Model]) -> _Fields:
    known = _FIELDS.get(model)
    if known is None:
        known = _FIELDS[model] = _Fields(model)
    return known


def row_values(row: Model) -> tuple[Any, ...] | list[Any]:
    """A row's field values as its snapshot carries them (one C call reads them all)."""
    fields = _fields(type(row))
    values = fields.read(row)
    if not PLAIN:
        return values
    plain = list(values)
    for i in fields.times:
        value = plain[i]
        if type(value) is _DATETIME and value.tzinfo is _UTC:
            plain[i] = value.__reduce_ex__(_PROTOCOL)[1][0]  # (its pickle state: ten bytes, fold included)
    for i in fields.choices:
        value = plain[i]
        if isinstance(value, enum.Enum):
            plain[i] = value.value
    return plain


def row(model: type[M], values: tuple[Any, ...] | list[Any] | dict[str, Any]) -> M:
    """A model instance from its field values (`row_values`'s, or a dict of them), built the way
    unpickling builds one (no `__init__`: these models have no init signals)."""
    instance = model.__new__(model)
    if isinstance(values, dict):
        instance.__dict__.update(values)
    else:
        fields = _fields(model)
        if fields.times:
            values = list(values)
            for i in fields.times:
                value = values[i]
                if type(value) is bytes:
                    values[i] = _DATETIME(value, _UTC)
        instance.__dict__.update(zip(fields.names, values, strict=True))
    instance._state = saved_state("default")
    return instance


def saved_state(db: str) -> ModelState:
    """The model state of a row read from `db` (not being added), with empty caches."""
    state = ModelState()
    state.adding = False
    state.db = db
    return state


# --- a private copy of a JSON field's value ---


_SCALARS = (str, int, float, bool, type(None))


def own(value: Any) -> Any:
    """A copy of a JSON field's value nobody else holds: a flat dict or list copied as it is,
    a nest of plain dicts and lists copied level by level, anything else through pickle (as
    unpacking a snapshot copied it). (Each check runs in C: a generator over the values, and
    a hand's `setup` — two dicts inside — through pickle, were 2 % of daphne's CPU under load.)"""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, dict) and _SCALAR_TYPES.issuperset(map(type, value.values())):
        return dict(value)
    if isinstance(value, list) and _SCALAR_TYPES.issuperset(map(type, value)):
        return list(value)
    seen: set[int] = set()
    copied = _nest_copy(value, seen)
    if copied is _NOT_PLAIN:
        return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own value
    return copied


_SCALAR_TYPES = frozenset(_SCALARS)
_NOT_PLAIN = object()


def _nest_copy(value: Any, seen: set[int]) -> Any:
    """A copy of plain dicts and lists of plain values, or `_NOT_PLAIN` for anything else and
    for a dict or list met twice (pickle's copy keeps the two one object)."""
    kind = type(value)
    if kind in _SCALAR_TYPES:
        return value
    if kind is not dict and kind is not list or id(value) in seen:
        return _NOT_PLAIN
    seen.add(id(value))
    items = value.items() if kind is dict else enumerate(value)
    copy: Any = {} if kind is dict else [None] * len(value)
    for key, item in items:
        copied = _nest_copy(item, seen)
        if copied is _NOT_PLAIN:
            return _NOT_PLAIN
        copy[key] = copied
    return copy


# --- hand states ---------------------------------------------------------------------------


def _names(cls: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_STATE, _PLAYER, _MELD = _names(HandState), _names(PlayerState), _names(Meld)
_read_state, _read_player, _read_meld = (operator.attrgetter(*n) for n in (_STATE, _PLAYER, _MELD))
_PLAYERS, _MELDS = _STATE.index("players"), _PLAYER.index("melds")
_PLAIN_TAG = "plain"  # (the states' bytes of the plain form are a tuple; the other form's a dict)


def states_bytes(states: dict[StateKey, HandState]) -> bytes:
    """The states as a snapshot carries them."""
    if PLAIN:
        plain = [(key, _plain_state(state)) for key, state in states.items()]
        if all(values is not None for _key, values in plain):
            return pickle.dumps((_PLAIN_TAG, plain), protocol=pickle.HIGHEST_PROTOCOL)
    return pickle.dumps(states, protocol=pickle.HIGHEST_PROTOCOL)


def states_from(blob: bytes) -> dict[StateKey, HandState]:
    """`states_bytes` read back, in either form: new states nobody else holds."""
    loaded = pickle.loads(blob)  # noqa: S301 - our own processes' bytes, never a client's
    if isinstance(loaded, dict):
        return loaded
    _tag, plain = loaded
    return {key: _state_from(values) for key, values in plain}


def _plain_state(state: HandState) -> tuple[Any, ...] | None:
    """The state's fields, its players' and their melds' as nested tuples; None for a state
    with anything else in its object (a subclass, an attribute that is not a field)."""
    if type(state) is not HandState or not _only_fields(state, _STATE):
        return None
    players = []
    for player in state.players:
        values = _plain_player(player)
        if values is None:
            return None
        players.append(values)
    values = list(_read_state(state))
    values[_PLAYERS] = tuple(players)
    return tuple(values)


def _plain_player(player: PlayerState) -> tuple[Any, ...] | None:
    if type(player) is not PlayerState or not _only_fields(player, _PLAYER):
        return None
    values = _read_player(player)
    if not player.melds:
        return values
    if any(type(meld) is not Meld or len(meld.__dict__) != len(_MELD) for meld in player.melds):
        return None
    listed = list(values)
    listed[_MELDS] = tuple(_read_meld(meld) for meld in player.melds)
    return tuple(listed)


def _only_fields(obj: Any, names: tuple[str, ...]) -> bool:
    """Its attributes are its fields (and the memo a state's functions keep on it, which stays
    in this process, as `HandState.__getstate__` leaves it out)."""
    attributes = obj.__dict__
    return len(attributes) - (MEMO in attributes) == len(names)


def _state_from(values: tuple[Any, ...]) -> HandState:
    attributes = dict(zip(_STATE, values, strict=True))
    attributes["players"] = tuple([_player_from(player) for player in values[_PLAYERS]])
    return _built(HandState, attributes)


def _player_from(values: tuple[Any, ...]) -> PlayerState:
    attributes = dict(zip(_PLAYER, values, strict=True))
    melds = values[_MELDS]
    if melds:
        attributes["melds"] = tuple([_built(Meld, dict(zip(_MELD, meld, strict=True))) for meld in melds])
    return _built(PlayerState, attributes)


T = TypeVar("T")
_new = object.__new__
_set = object.__setattr__  # (past a frozen dataclass's own __setattr__, which refuses)


def _built(cls: type[T], attributes: dict[str, Any]) -> T:
    """An instance of a frozen dataclass with these attributes (its dict), as unpickling makes one."""
    obj = _new(cls)
    _set(obj, "__dict__", attributes)
    return obj
