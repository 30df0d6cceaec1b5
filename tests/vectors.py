"""The project's worked scoring cases (tests/engine/cases/<variant>.json), shared by the engine's tests.

The facts of the public rule book's worked cases carried over, plus our own; docs/rules/ is the rule
book they check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parent / "engine" / "cases"


def vector_cases(variant: str | None = None) -> list[dict[str, Any]]:
    """Every case of one variant's file (or of all files), each with its `expect`."""
    files = [VECTORS / f"{variant}.json"] if variant else sorted(VECTORS.glob("*.json"))
    cases: list[dict[str, Any]] = []
    for f in files:
        cases.extend(json.loads(f.read_text(encoding="utf-8")))
    return cases


def assert_matches(out: dict[str, Any], expect: dict[str, Any]) -> None:
    """RULES §7: win, payments and value equal; every id of patterns_include is among the patterns."""
    for key in ("win", "payments", "value"):
        if key in expect:
            assert out[key] == expect[key], (key, out)
    assert set(expect.get("patterns_include", [])) <= set(out.get("patterns", [])), out
