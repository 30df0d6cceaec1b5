"""The repository stands alone: nothing in it reads or links the rule-book folder beside it."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Built from parts, so that this file does not name the folder it forbids.
_FOLDER = "sha" + "red"
FORBIDDEN = (f"../{_FOLDER}", f"{_FOLDER}/rules", f"{_FOLDER}/seeds")


def _tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in out.stdout.splitlines()]


def test_no_file_refers_outside_the_repository() -> None:
    offenders = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # tile art, sounds, compiled messages
        offenders += [f"{path.relative_to(ROOT)}: {s}" for s in FORBIDDEN if s in text]
    assert not offenders, offenders
