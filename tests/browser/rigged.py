"""Start a server process with rigged deals (tests/browser/rigs.py):
`python -m tests.browser.rigged -m daphne …` or `python -m tests.browser.rigged manage.py run_clock`.
The engine's deal is replaced before Django imports anything that deals."""

from __future__ import annotations

import runpy
import sys

from tests.browser import rigs

if __name__ == "__main__":
    rigs.install()
    args = sys.argv[1:]
    if args[:1] == ["-m"]:
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
