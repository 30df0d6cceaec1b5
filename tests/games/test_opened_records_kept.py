"""An opened record is kept where every server process finds it: the review link on the opened
page may be served by another daphne behind the proxy than the one that received the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.review import uploaded

ROOT = Path(__file__).resolve().parents[2]
READ_IN_ANOTHER_PROCESS = """
import sys
from games.review import uploaded
try:
    raw, data, review = uploaded.kept(sys.argv[1], 0, 0)
except uploaded.RecordGone:
    print("gone")
else:
    print(raw.decode(), data is None, review is None)
"""


def read_elsewhere(database_url: str, digest: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url}
    command = [
        sys.executable,
        "manage.py",
        "shell",
        "-c",
        READ_IN_ANOTHER_PROCESS.replace("sys.argv[1]", repr(digest)),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]  # (after the shell's own greeting)


@pytest.mark.django_db(transaction=True)
def test_a_record_kept_by_one_process_is_found_by_another(test_database_url: str) -> None:
    digest = uploaded.remember(b'{"a record": 1}')
    assert read_elsewhere(test_database_url, digest) == '{"a record": 1} True True'
    uploaded.keep(digest, 0, 0, {"data": 1}, {"review": 2})
    assert read_elsewhere(test_database_url, digest) == '{"a record": 1} False False'
    assert read_elsewhere(test_database_url, "0" * 64) == "gone"
