"""Where the browser tests leave their screenshots: one folder, $MAHJONG_SHOTS (default
/tmp/mahjong-shots), with a subfolder per page or feature — never inside the repository, so a
test run leaves the checkout clean and the pictures are easy to find and look at."""

from __future__ import annotations

import os
from pathlib import Path

SHOTS_ROOT = Path(os.environ.get("MAHJONG_SHOTS", "/tmp/mahjong-shots"))


def shots_dir(name: str = "") -> Path:
    """The folder for one feature's screenshots (Playwright makes it on the first picture)."""
    return SHOTS_ROOT / name if name else SHOTS_ROOT
