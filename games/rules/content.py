"""The rules pages' prose, in 简体中文 and English, read from games/rules/text/ (docs/rules/ is the
full rule book).

The prose lives in text files, one per page and language (`<variant>.zh.md`, `<variant>.en.md`,
`common.<lang>.md`), so that it is edited as text: one paragraph per line under `## <part>`
headings. The pattern tables are not there: they come from the engine's catalogue
(games/engine/patterns). What is there is what a player reads around them — overview, flow of a
hand, restrictions, how values become payments, the house rules, the decisions — and the intro of
the worked settlement example, whose hand is below (it is the engine's input, not prose) and whose
numbers the rules view computes with the engine's own scorer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TEXT_DIR = Path(__file__).resolve().parent / "text"
LANGUAGES = ("zh", "en")


@dataclass(frozen=True)
class Text:
    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class VariantText:
    overview: tuple[Text, ...]
    flow: tuple[Text, ...]
    restrictions: tuple[Text, ...]
    scoring: tuple[Text, ...]  # how patterns become a value, and the value payments
    worked_case: dict[str, Any] = field(default_factory=dict)  # the score CLI's input
    worked_intro: Text = Text("", "")


@dataclass(frozen=True)
class Decision:
    """A choice the original rule page leaves open: its number in docs/rules/<variant>.md, the
    page's words it interprets (empty where the page says nothing), what the site does and why."""

    number: int
    seed: str
    text: Text


# The worked settlement example of each variant: a winning hand as the score CLI reads it.
WORKED_CASES: dict[str, dict[str, Any]] = {
    "shanghai": {
        "concealed": "111m333p555s777z9m",
        "win_tile": "9m",
        "seat": 1,
        "dealer": 0,
        "flowers": "1f2f",
        "base": 10,
        "claims": [[1, 2, 3]],  # South claimed West's discards three times: 三口
    },
    "yihua": {
        "concealed": "123m456m789m111z5z",
        "win_tile": "5z",
        "seat": 2,
        "dealer": 0,
        "flowers": "3f",
        "base": 2,
        "by": "discard",
        "from": 0,
    },
    "cantonese": {"concealed": "123m456m555z789m5m", "win_tile": "5m", "seat": 1, "dealer": 0, "base": 5},
    "tianjin": {
        "concealed": "123m456m789m222z5s",
        "win_tile": "5s",
        "seat": 2,
        "dealer": 0,
        "jokers": "3p4p",
        "zuozhuang": True,
        "lazhuang": [0, 0, 1, 0],
        "base": 1,
    },
    "two_player": {
        "concealed": "111m345m678m99m6z6z",
        "win_tile": "6z",
        "seat": 1,
        "dealer": 0,
        "players": 2,
        "base": 2,
    },
}


# --- reading the text files -----------------------------------------------------------------


def _parts(path: Path) -> dict[str, list[str]]:
    """The paragraphs under each `## <part>` heading; `### <n>` and `> seed` lines are kept as
    written for the decisions. A `# title` line and `<!-- -->` comment lines are for the reader."""
    parts: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("<!--") or line.startswith("# "):
            continue
        if line.startswith("## "):
            current = parts.setdefault(line[3:].strip(), [])
        elif current is None:
            raise ValueError(f"{path.name}: text before the first '## ' heading: {line[:40]}")
        else:
            current.append(line)
    return parts


def _read(name: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    zh, en = (_parts(TEXT_DIR / f"{name}.{lang}.md") for lang in LANGUAGES)
    if zh.keys() != en.keys():
        raise ValueError(f"{name}: the two languages have different parts: {sorted(zh)} / {sorted(en)}")
    return zh, en


def _pairs(name: str, part: str, zh: list[str], en: list[str]) -> tuple[Text, ...]:
    if len(zh) != len(en):
        raise ValueError(f"{name} '{part}': {len(zh)} paragraphs in Chinese, {len(en)} in English")
    return tuple(Text(z, e) for z, e in zip(zh, en, strict=True))


def _options(zh: list[str], en: list[str]) -> dict[str, Text]:
    def by_key(lines: list[str]) -> dict[str, str]:
        return dict(line.split(": ", 1) for line in lines)

    zh_map, en_map = by_key(zh), by_key(en)
    if list(zh_map) != list(en_map):
        differ = zh_map.keys() ^ en_map.keys()
        raise ValueError(f"common 'options': the languages list different keys: {differ}")
    return {key: Text(zh_map[key], en_map[key]) for key in zh_map}


def _decisions(name: str, lines: list[str]) -> list[tuple[int, str, str]]:
    """(number, seed, text) of each `### <n>` block: an optional `> seed` line, then the text."""
    out: list[tuple[int, str, str]] = []
    number, seed = 0, ""
    for line in lines:
        if line.startswith("### "):
            number, seed = int(line[4:]), ""
        elif line.startswith("> "):
            seed = line[2:]
        elif number:
            out.append((number, seed, line))
            number = 0
        else:
            raise ValueError(f"{name} 'decisions': text outside a '### <n>' block: {line[:40]}")
    return out


def read_variant(variant: str) -> tuple[VariantText, tuple[Decision, ...]]:
    zh, en = _read(variant)
    parts = ("overview", "flow", "restrictions", "scoring")
    lists = {part: _pairs(variant, part, zh[part], en[part]) for part in parts}
    (intro,) = _pairs(variant, "worked example", zh["worked example"], en["worked example"])
    text = VariantText(**lists, worked_case=WORKED_CASES[variant], worked_intro=intro)
    zh_d, en_d = _decisions(variant, zh["decisions"]), _decisions(variant, en["decisions"])
    if [d[:2] for d in zh_d] != [d[:2] for d in en_d]:
        raise ValueError(f"{variant} 'decisions': the languages differ in numbers or quoted words")
    decisions = tuple(
        Decision(n, seed, Text(z, e)) for (n, seed, z), (_n, _s, e) in zip(zh_d, en_d, strict=True)
    )
    return text, decisions


_common_zh, _common_en = _read("common")

# the flow every variant shares (the index page)
COMMON_FLOW: tuple[Text, ...] = _pairs(
    "common", "common flow", _common_zh["common flow"], _common_en["common flow"]
)

# house rules: what each option of Ruleset.default_options means
OPTION_TEXT: dict[str, Text] = _options(_common_zh["options"], _common_en["options"])

_loaded = {variant: read_variant(variant) for variant in WORKED_CASES}

VARIANTS: dict[str, VariantText] = {variant: text for variant, (text, _d) in _loaded.items()}

# where the original rule page is silent or unclear, what the site chose and why (the same numbers
# as the Decisions of docs/rules/<variant>.md; `seed` quotes the page as written)
DECISIONS: dict[str, tuple[Decision, ...]] = {variant: d for variant, (_t, d) in _loaded.items()}
