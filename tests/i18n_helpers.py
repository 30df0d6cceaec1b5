"""What an English page may not contain: Chinese that only a translation puts there.

The English UI names mahjong terms in both scripts on purpose ("Pong 碰", "Settlement 结算"), so
"no Chinese" is the wrong test. Instead: every run of Chinese characters that appears in a
translation (msgstr) of an English-only msgid, and in no msgid, is a Chinese-only phrase; an
English board showing one was rendered in the wrong language.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

PO = Path(__file__).resolve().parents[1] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")


def _entries() -> list[tuple[str, str]]:
    pairs, key, parts = [], None, {"msgid": "", "msgstr": ""}
    for line in PO.read_text(encoding="utf-8").splitlines() + [""]:
        m = re.match(r'^(msgid|msgstr(?:\[0\])?|msgid_plural) (".*")$', line)
        if m:
            key = "msgstr" if m.group(1).startswith("msgstr") else m.group(1)
            if key in parts:
                parts[key] += ast.literal_eval(m.group(2))
        elif line.startswith('"') and key in parts:
            parts[key] += ast.literal_eval(line)
        elif not line.strip():
            if parts["msgid"]:
                pairs.append((parts["msgid"], parts["msgstr"]))
            key, parts = None, {"msgid": "", "msgstr": ""}
    return pairs


def _always_bilingual() -> set[str]:
    """Terms every page shows in both scripts: the rule sets (上海麻将 Shanghai) and the
    patterns' own names (荒番, 清一色)."""
    from games.engine import patterns
    from games.rendering.labels import VARIANT_NAMES

    names = {zh for zh, _en in VARIANT_NAMES.values()}
    names |= {p.name_zh for v in patterns.VARIANTS for p in patterns.catalogue(v)}
    return names | {t.name_zh for t in patterns.TERMS.values()}


@cache
def chinese_only_phrases() -> frozenset[str]:
    entries = _entries()
    in_msgids = {run for msgid, _ in entries for run in CJK_RUN.findall(msgid)} | _always_bilingual()
    out = set()
    for msgid, msgstr in entries:
        if CJK_RUN.search(msgid):
            continue
        out |= {run for run in CJK_RUN.findall(msgstr) if not any(run in m for m in in_msgids)}
    return frozenset(out)


def chinese_only_in(text: str) -> list[str]:
    """The Chinese-only phrases found in `text` (empty for a page rendered in English)."""
    return sorted(p for p in chinese_only_phrases() if p in text)
