"""The five variants, by id."""

from __future__ import annotations

from importlib import import_module

from games.engine.errors import EngineError
from games.engine.rulesets.base import MAX_BASE, Ruleset

VARIANT_IDS = ("shanghai", "yihua", "cantonese", "tianjin", "two_player")
_cache: dict[str, Ruleset] = {}


def get_ruleset(variant: str) -> Ruleset:
    """The Ruleset for a variant id (module rulesets/<id>.py, class `RULESET`)."""
    if variant not in VARIANT_IDS:
        raise EngineError("unknown_variant", f"unknown variant {variant!r}; one of {', '.join(VARIANT_IDS)}")
    if variant not in _cache:
        _cache[variant] = import_module(f"games.engine.rulesets.{variant}").RULESET
    return _cache[variant]


__all__ = ["MAX_BASE", "VARIANT_IDS", "Ruleset", "get_ruleset"]
