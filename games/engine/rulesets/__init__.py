"""The five variants, by id."""

from __future__ import annotations

from importlib import import_module

from games.engine.errors import EngineError
from games.engine.rulesets.base import MAX_BASE, Ruleset

VARIANT_IDS = ("shanghai", "yihua", "cantonese", "tianjin", "two_player")
LOADED: dict[str, Ruleset] = {}  # variant id -> its Ruleset, once imported (a test may substitute one)


def get_ruleset(variant: str) -> Ruleset:
    """The Ruleset for a variant id (module rulesets/<id>.py, class `RULESET`)."""
    if variant not in VARIANT_IDS:
        raise EngineError("unknown_variant", f"unknown variant {variant!r}; one of {', '.join(VARIANT_IDS)}")
    if variant not in LOADED:
        LOADED[variant] = import_module(f"games.engine.rulesets.{variant}").RULESET
    return LOADED[variant]


__all__ = ["MAX_BASE", "VARIANT_IDS", "Ruleset", "get_ruleset"]
