"""The pattern catalogue (games/engine/patterns): every example hand scores its pattern
with the value the rules page shows, and the scoring modules use the catalogue's values."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import patterns
from games.engine.rulesets import get_ruleset
from games.engine.scoring import cantonese, shanghai, tianjin, two_player, yihua
from games.engine.scoring.context import WinContext

CASES = [
    (variant, p.id) for variant in patterns.VARIANTS for p in patterns.catalogue(variant) if not p.impossible
]


def score_example(variant: str, pattern_id: str) -> tuple[WinContext, dict[str, int], tuple[str, ...]]:
    data = {"variant": variant, **patterns.examples(variant)[pattern_id]}
    ctx = WinContext.from_json(data)
    result = get_ruleset(variant).score(ctx)
    assert result.win, f"{variant} {pattern_id}: example refused ({result.reason})"
    return ctx, dict(result.breakdown), result.patterns


@pytest.mark.parametrize(("variant", "pattern_id"), CASES)
def test_example_hand_scores_its_pattern_with_the_value_shown(variant: str, pattern_id: str) -> None:
    ctx, breakdown, found = score_example(variant, pattern_id)
    entry = patterns.pattern(variant, pattern_id)
    assert entry is not None
    assert pattern_id in found
    assert breakdown[pattern_id] == entry.scored_value(ctx.base)


@pytest.mark.parametrize("variant", patterns.VARIANTS)
def test_every_possible_pattern_has_an_example_and_no_example_is_stray(variant: str) -> None:
    ids = {p.id for p in patterns.catalogue(variant)}
    possible = {p.id for p in patterns.catalogue(variant) if not p.impossible}
    assert set(patterns.examples(variant)) == possible
    assert possible <= ids
    assert len(ids) == len(patterns.catalogue(variant)), "duplicate pattern ids"


@pytest.mark.parametrize("variant", patterns.VARIANTS)
def test_every_pattern_has_both_names_a_summary_and_a_known_group(variant: str) -> None:
    group_ids = {g.id for g in patterns.groups(variant)}
    for p in patterns.catalogue(variant):
        assert p.name_zh and p.name_en and p.summary_zh and p.summary_en, p.id
        assert p.group in group_ids, p.id


def _scoring_ids(module: object) -> set[str]:
    out: set[str] = set()
    for value in vars(module).values():
        items = value if isinstance(value, tuple | list) else (value,)
        out |= {p.id for p in items if hasattr(p, "id") and hasattr(p, "name_zh")}
    return out


@pytest.mark.parametrize(
    ("variant", "module"),
    [("shanghai", shanghai), ("yihua", yihua), ("cantonese", cantonese), ("tianjin", tianjin)],
)
def test_scoring_modules_take_names_and_values_from_the_catalogue(variant: str, module: object) -> None:
    ids = _scoring_ids(module)
    assert ids
    for pid in ids:
        entry = patterns.pattern(variant, pid)
        assert entry is not None, f"{variant} scores {pid}, which the catalogue lacks"
        rule = next(
            p
            for v in vars(module).values()
            for p in (v if isinstance(v, tuple | list) else (v,))
            if getattr(p, "id", None) == pid and hasattr(p, "name_zh")
        )
        assert rule.name_zh == entry.name_zh
        assert getattr(rule, "value", getattr(rule, "fan", getattr(rule, "factor", None))) == entry.value


def test_two_player_fan_table_is_the_catalogue() -> None:
    for fan in two_player.FANS:
        entry = patterns.pattern("two_player", fan.id)
        assert entry is not None and fan.value == entry.value
    assert {f.id for f in two_player.FANS} == {p.id for p in patterns.catalogue("two_player")}


def test_yihua_cap_is_the_eight_flowers_value() -> None:
    assert yihua.cap(2) == patterns.pattern("yihua", "eight_flowers").scored_value(2) == 20


def test_cantonese_raisers_raise_to_the_minimum_the_catalogue_shows() -> None:
    for rule in cantonese.RAISERS:
        assert patterns.value("cantonese", rule.id) == cantonese.MINIMUM


def test_unknown_lookups() -> None:
    assert patterns.pattern("shanghai", "nope") is None
    assert patterns.pattern("nope", "chicken") is None
    with pytest.raises(KeyError):
        patterns.catalogue("nope")


DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
UNIT_TEXT = {
    "flowers": "{} flowers",
    "fan": "{} fan",
    "minimum": "at least {} fan",
    "factor": "×{}",
    "base": "{} × base",
}


@pytest.mark.parametrize("variant", patterns.VARIANTS)
def test_rule_book_tables_match_the_catalogue(variant: str) -> None:
    text = (DOCS / f"{variant}.md").read_text(encoding="utf-8")
    rows = {
        cells[0].strip("` "): [c.strip() for c in cells[1:]]
        for line in text.splitlines()
        if line.startswith("| `") and line.count("|") >= 6
        for cells in (line.strip("|").split("|"),)
    }
    for p in patterns.catalogue(variant):
        assert p.id in rows, f"docs/rules/{variant}.md has no row for {p.id}"
        zh, en, value = rows[p.id][:3]
        assert (zh, en) == (p.name_zh, p.name_en), p.id
        assert value.startswith(UNIT_TEXT[p.unit].format(p.value)), p.id
