"""The repository speaks of the product, not of how it was built.

A reader of the code, the tests, the docs, the templates, the static files or the migrations
cannot open a tracker entry or a work round, so a ticket number, a work label or a numbered item
of a work list says nothing to them (the patterns below): each is written as the reason itself.
This scan keeps them from coming back.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {
    ".venv",
    ".git",
    "node_modules",
    "staticfiles",
    "var",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
}
SUFFIXES = {".py", ".html", ".css", ".js", ".md", ".txt", ".toml", ".cfg", ".yaml", ".yml", ".po", ".sh"}
NAMES = {"Makefile", "Dockerfile", "run"}  # run: .ci/run
# Each pattern names what it catches; legitimate words (a Django session, a mahjong wind round,
# a replay step "#12") do not match.
WORK_RECORDS = {
    "tracker number": r"\b(issue|ticket|bug|pr|pull request)s?\s?#?\d+",
    "work label": r"\bh\d{2}[a-c]?\b",
    "numbered item of a work list": r"\bitems?\s\d+(\s*(and|,)\s*\d+)*\b",
    # (a tournament's "round 1" is the product; "work round 3" or "(round three)" is history)
    "numbered work round or session": (
        r"\bwork\sround\s(one|two|three|four|\d+)\b|\(round\s(one|two|three|four|\d+)\)|\bsession\s\d+\b"
    ),
    "a round of work": r"\b(first|second|third|fourth|fifth|next|last)\s(work\s)?round\sof\s(work|review)",
}
PATTERN = re.compile("|".join(f"(?P<p{i}>{p})" for i, p in enumerate(WORK_RECORDS.values())), re.I)


def _files() -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]  # never into the virtualenv (a symlink too)
        out += [Path(folder, f) for f in files if Path(f).suffix in SUFFIXES or f in NAMES]
    return sorted(out)


def _finding(match: re.Match[str]) -> str:
    label = list(WORK_RECORDS)[int(next(k for k, v in match.groupdict().items() if v)[1:])]
    return f"{label}: {match.group(0)!r}"


def test_no_file_records_a_tracker_number_or_a_work_label() -> None:
    this = Path(__file__).resolve()
    files = _files()
    assert len(files) > 300 and ROOT / "games" / "migrations" / "0001_initial.py" in files
    found = []
    for path in files:
        if path == this:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number} {_finding(m)}" for m in PATTERN.finditer(line)]
    assert found == [], "write the reason instead:\n" + "\n".join(found)


def test_no_file_name_records_a_work_label() -> None:
    names = [str(p.relative_to(ROOT)) for p in _files() if PATTERN.search(p.stem.replace("_", " "))]
    names += [str(p.relative_to(ROOT)) for p in _files() if re.search(r"issue\d|(^|_)h\d{2}", p.stem, re.I)]
    assert names == []
