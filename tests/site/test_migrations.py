"""The migrations say what the schema is and match the models.

Nothing was deployed before the schema settled, so each app starts from one initial migration
(docs/operations.md, "Resetting a development database"); later migrations are named by what
they change (`makemigrations games -n club_membership`).
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "games")
# how the code was written, not what the schema is: work labels, merges, tracker numbers
WORK_LABEL = re.compile(r"\bh\d+[a-z]?\b|(^|_)h\d+|merge|issue|round_?\d|session|fixup|tmp", re.I)


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit:  # --check exits 1 when a migration is missing
        pytest.fail(f"the models changed without a migration:\n{out.getvalue()} ({exit})")


@pytest.mark.parametrize("app", APPS)
def test_migration_names_say_what_the_schema_is(app: str) -> None:
    names = sorted(p.stem for p in (ROOT / app / "migrations").glob("0*.py"))
    assert names and names[0] == "0001_initial"
    assert [n for n in names if WORK_LABEL.search(n.split("_", 1)[1])] == []
    numbers = [int(n.split("_", 1)[0]) for n in names]
    assert numbers == list(range(1, len(names) + 1)), "one migration per number: no parallel branches"
