"""common/row_values.py: a field's shortcut sends the database what its own chain would."""

from __future__ import annotations

import warnings

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils import timezone

from common.row_values import preparer
from games.models import Hand, HandAction, Seat, Table


def _sent(value: object) -> object:
    """A parameter as the database receives it: its type, and a JSON wrapper's object."""
    return (type(value), getattr(value, "obj", value))


def _samples(field: object) -> list[object]:
    aware, naive = timezone.now(), timezone.now().replace(tzinfo=None)
    common: list[object] = [None, 0, 7, True, "7", "名字", aware, {"a": [1]}, [1, "b"]]
    if isinstance(field, models.DateTimeField):
        return [None, aware, naive, aware.astimezone(timezone.get_fixed_timezone(480))]
    return common


@pytest.mark.parametrize("model", [Table, Seat, Hand, HandAction])
def test_every_field_prepares_values_as_its_own_chain_does(db: None, model: type) -> None:
    for field in model._meta.concrete_fields:
        prepare = preparer(field, connection)
        for value in _samples(field):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (a naive datetime's warning, either way)
                try:
                    expected = _sent(field.get_db_prep_save(value, connection))
                except (TypeError, ValueError, ValidationError) as error:
                    with pytest.raises(type(error)):
                        prepare(value)
                    continue
                assert _sent(prepare(value)) == expected, (field.name, value)


def test_a_field_class_that_changes_a_step_keeps_its_chain(db: None) -> None:
    class Doubled(models.IntegerField):
        def get_prep_value(self, value: object) -> object:
            return None if value is None else 2 * int(value)  # type: ignore[call-overload]

    field = Doubled()
    field.set_attributes_from_name("doubled")
    assert preparer(field, connection)(21) == 42


@pytest.mark.parametrize("name, value", [("revision", 7), ("variant", "shanghai"), ("notices", {"1": "x"})])
def test_a_plain_value_skips_the_chain_unless_the_shortcuts_are_off(
    db: None, monkeypatch: pytest.MonkeyPatch, name: str, value: object
) -> None:
    from common import row_values

    field = Table._meta.get_field(name)
    prepare = preparer(field, connection)
    with monkeypatch.context() as patched:
        patched.setattr(type(field), "get_prep_value", _refused)
        prepare(value)  # (no step of the chain ran)
        monkeypatch.setattr(row_values, "SHORTCUTS", False)
        with pytest.raises(AssertionError, match="the chain"):
            preparer(field, connection)(value)


def _refused(*_args: object) -> object:
    raise AssertionError("the chain ran")
