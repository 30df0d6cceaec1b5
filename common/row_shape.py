"""A row's fields as a change compares them (games.table.rows): what it held before a command
ran, against what it holds after, to write only what changed."""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable
from typing import Any

import orjson
from django.db.models import JSONField, Model


def values_reader(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """Reads these attributes of a row as a tuple: from the row's dict in one C call (a foreign
    key's id through its descriptor is a Python call); a deferred field, missing from the dict,
    through its descriptor, which loads it."""
    if len(names) == 1:
        (name,) = names
        return lambda row: (getattr(row, name),)
    items, attributes = operator.itemgetter(*names), operator.attrgetter(*names)

    def values(row: Any) -> tuple[Any, ...]:
        try:
            return items(row.__dict__)
        except KeyError:
            return attributes(row)

    return values


class RowShape:
    """A model's fields as a change compares them: all read in one call, and the JSON ones
    frozen to canonical bytes (commands change their dicts and lists in place). This runs three
    times per row per change; a per-field deep copy was a third of a hand action's CPU."""

    def __init__(self, model: type[Model]) -> None:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.names = tuple(f.attname for f in fields)
        self._read = values_reader(self.names)
        self._json = tuple(i for i, f in enumerate(fields) if isinstance(f, JSONField))

    def values(self, row: Any) -> tuple[Any, ...]:
        values = self._read(row)
        if not self._json:
            return values
        out = list(values)
        for i in self._json:
            out[i] = frozen(out[i])
        return tuple(out)


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def frozen(value: Any) -> Any:
    """A JSON field's value as it can be compared later, however it is changed in place."""
    if not isinstance(value, dict | list):
        return value
    try:
        return orjson.dumps(value, option=_CANONICAL)
    except TypeError:  # (not JSON: a test's odd value) a copy compares as well, only slower
        return copy.deepcopy(value)
