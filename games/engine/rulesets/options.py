"""House-rule options: the range of values each rule set admits.

A `Ruleset` declares each option twice, in two small tables: `default_options` (name → default;
the default's type is the option's type) and `option_ranges` (name → `OptionRange`). Every value
that reaches the engine was checked here first — by the API, the create form and `new_hand` —
and the engine must play any combination these ranges admit without raising (a property test,
tests/engine/test_option_space.py, plays hands over the whole space).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import EngineError

Value = bool | int | float


class OptionError(EngineError):
    """A house-rule option the rule set does not admit; `option` names it (None: the whole set)."""

    def __init__(self, option: str | None, message: str) -> None:
        super().__init__("bad_option", message)
        self.option = option


@dataclass(frozen=True)
class OptionRange:
    """The values an option admits: a closed range [minimum, maximum] or a list of choices."""

    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Value, ...] | None = None

    def describe(self) -> str:
        if self.choices is not None:
            return " or ".join(_show(c) for c in self.choices)
        return f"{_show(self.minimum)}–{_show(self.maximum)}"

    def admits(self, value: Value) -> bool:
        if self.choices is not None:
            return any(value == c and type(value) is type(c) for c in self.choices)
        if isinstance(value, float) and not math.isfinite(value):
            return False  # json.loads reads NaN and Infinity
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        return low <= value <= high


BOOL = OptionRange(choices=(False, True))
# RULES §1.8: the escape penalty is a table setting in multiples of the base stake. Below 1 an
# escape would be free; above 100 the penalty exceeds twice the 50 × base entry floor.
ESCAPE_PENALTY = OptionRange(1, 100)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _typed(name: str, default: Value, value: Any) -> Value:
    """`value` in the default's type (a whole number is accepted for a fractional option)."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise OptionError(name, f"option '{name}' must be true or false")
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise OptionError(name, f"option '{name}' must be a whole number")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise OptionError(name, f"option '{name}' must be a number")


def check_options(
    variant: str, defaults: Mapping[str, Value], ranges: Mapping[str, OptionRange], options: Any
) -> dict[str, Value]:
    """The options, typed, if every one is known and in its declared range; else OptionError."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise OptionError(None, "options must be an object")
    unknown = sorted(str(k) for k in options if k not in defaults)
    if unknown:
        raise OptionError(unknown[0], f"unknown options for {variant}: {', '.join(unknown)}")
    checked: dict[str, Value] = {}
    for name, value in options.items():
        typed = _typed(name, defaults[name], value)
        allowed = ranges[name]
        if not allowed.admits(typed):
            raise OptionError(name, f"option '{name}' must be {allowed.describe()}, not {_show(typed)}")
        checked[name] = typed
    return checked
