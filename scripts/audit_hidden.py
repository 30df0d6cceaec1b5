#!/usr/bin/env python3
"""Hidden-information audit: N full hands of every variant, every frame to every viewer checked
for other seats' concealed tiles and for the deal's secrets (the salt, the wall in dealing order,
the next live tiles in order) until the hand is over (docs/fairness.md); and per discard, what a
seat that cannot claim and the spectators see with a claim window open and without one (it must be
the same, timing aside).

    .venv/bin/python scripts/audit_hidden.py [--hands 3] [-k shanghai] [-k claim_window]

Runs tests/load/test_hidden_audit.py (the checks are in tests/load/audit.py, the claim windows
in tests/load/claims.py) with AUDIT_HANDS=N against the configured database and channel layer
(DATABASE_URL / REDIS_URL as for the tests).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=3, help="hands per variant")
    parser.add_argument("-k", default="", help="pytest -k expression, e.g. a variant id")
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "pytest", "-q", "tests/load/test_hidden_audit.py"]
    if args.k:
        command += ["-k", args.k]
    env = {**os.environ, "AUDIT_HANDS": str(args.hands)}
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
