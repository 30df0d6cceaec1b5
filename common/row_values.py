"""The values of a row's fields as the database is sent them, without Django's chain of calls.

`Field.get_db_prep_save` runs five to seven Python calls per value (the field's save step, its
value step, its prep step and its `to_python`, then the backend's adapter); for the plain values
of a hand action's statement (whole numbers, text, flags, aware datetimes, JSON dicts and lists)
everything but the backend's last step leaves the value as it is. `preparer` builds, once per
field and backend, a function that runs only that step for those types and the whole chain for
anything else (an expression, a naive datetime, a string for a number) and for a field class
that overrides a step. Used by common.rows; docs/benchmarks.md, "Cost per action: the hand
action's parameters without the fields' chains".
"""

from __future__ import annotations

import datetime
import functools
import os
from collections.abc import Callable
from typing import Any

from django.db.models import (
    BooleanField,
    CharField,
    DateTimeField,
    Field,
    ForeignKey,
    IntegerField,
    JSONField,
    Model,
    TextField,
)
from django.db.models.fields import AutoFieldMixin

# Off with ROW_PREP_SHORTCUTS=0: every value through its field's `get_db_prep_save`, as the ORM does.
SHORTCUTS = os.environ.get("ROW_PREP_SHORTCUTS", "1") != "0"


def db_values(model: type[Model], connection: Any, fields: list[Field], values: list[Any]) -> list[Any]:
    """`values` of these `fields` of `model` as `get_db_prep_save` gives them for `connection`."""
    prepare = preparers(model, connection)
    return [prepare[f.attname](value) for f, value in zip(fields, values, strict=True)]


_PREPARERS: dict[tuple[type[Model], type[Any], bool], dict[str, Callable[[Any], Any]]] = {}


def preparers(model: type[Model], connection: Any) -> dict[str, Callable[[Any], Any]]:
    """Each field's preparer (attname -> function), made once per model and backend."""
    key = (model, type(connection.ops), SHORTCUTS)  # (a bench turns the shortcuts off and on)
    made = _PREPARERS.get(key)
    if made is None:
        made = _PREPARERS[key] = {f.attname: preparer(f, connection) for f in model._meta.concrete_fields}
    return made


def preparer(field: Field, connection: Any) -> Callable[[Any], Any]:
    """`field.get_db_prep_save(value, connection)` as one function: for the plain values the hand
    action's statement sends (whole numbers, text, flags, aware datetimes, JSON dicts and lists),
    only the backend's last step of Django's chain of five to seven calls — which for these types
    is all the chain changes; anything else (an expression, a naive datetime, a string for a
    number, a field class that overrides a step) goes through the chain itself. The statement's
    parameters were ~3 % of daphne's CPU per hand action (docs/benchmarks.md, "Cost per action:
    the hand action's parameters without the fields' chains")."""
    full = functools.partial(field.get_db_prep_save, connection=connection)
    if not SHORTCUTS:
        return full
    if isinstance(field, ForeignKey):
        target = preparer(field.target_field, connection)

        def foreign(value: Any) -> Any:
            return None if value is None else target(value) if type(value) is int else full(value)

        return foreign
    shortcut = _shortcut(field, connection.ops)
    if shortcut is None:
        return full
    types, last = shortcut

    def prepared(value: Any) -> Any:
        if type(value) not in types:
            return full(value)
        try:
            return last(value)
        except _Naive:
            return full(value)

    return prepared


def _same(field: Field, cls: type[Field]) -> bool:
    """The field's class runs `cls`'s own steps of the chain (a subclass may change a value)."""
    return all(getattr(type(field), name) is getattr(cls, name) for name in _STEPS)


_STEPS = ("get_db_prep_save", "get_db_prep_value", "get_prep_value", "to_python")
_NONE = type(None)


def _shortcut(field: Field, ops: Any) -> tuple[frozenset[type[Any]], Callable[[Any], Any]] | None:
    """(the value types the shortcut takes, the backend's last step) for this field, or None."""
    if isinstance(field, AutoFieldMixin):
        if isinstance(field, IntegerField) and all(
            getattr(type(field), name) is getattr(cls, name)
            for name, cls in (
                ("get_db_prep_save", Field),
                ("get_db_prep_value", AutoFieldMixin),
                ("get_prep_value", IntegerField),
            )
        ):
            return frozenset({int}), ops.validate_autopk_value
        return None
    if isinstance(field, IntegerField) and _same(field, IntegerField):
        internal = field.get_internal_type()
        return frozenset({int, _NONE}), functools.partial(_integer, ops.adapt_integerfield_value, internal)
    if isinstance(field, BooleanField) and _same(field, BooleanField):
        return frozenset({bool, _NONE}), _itself
    if isinstance(field, TextField) and _same(field, TextField):
        return frozenset({str, _NONE}), _itself
    if isinstance(field, CharField) and _same(field, CharField):
        return frozenset({str, _NONE}), _itself
    if isinstance(field, DateTimeField) and _same(field, DateTimeField):
        return frozenset({datetime.datetime, _NONE}), functools.partial(_aware, ops.adapt_datetimefield_value)
    if isinstance(field, JSONField) and _same(field, JSONField):
        return frozenset({dict, list}), functools.partial(ops.adapt_json_value, encoder=field.encoder)
    return None


def _integer(adapt: Callable[[Any, str], Any], internal: str, value: Any) -> Any:
    return adapt(value, internal)


def _aware(adapt: Callable[[Any], Any], value: datetime.datetime | None) -> Any:
    """A datetime with its zone (or None) as the backend takes it; a naive one raises `_Naive`
    for the field's chain, which makes it aware (with a warning) first."""
    if value is not None and value.tzinfo is None:
        raise _Naive
    return adapt(value)


class _Naive(Exception):
    """A naive datetime: the field's own chain decides what it becomes."""


def _itself(value: Any) -> Any:
    return value
