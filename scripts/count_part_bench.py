"""CPU of the hand's count in a hand action's one statement (games.table.rows): its part built
from a `Hand` instance made for it (as before) against from the key and the value alone
(`common.rows.RowSql.set_part`), in one process, passes alternating.

    .venv/bin/python scripts/count_part_bench.py [--calls 20000] [--passes 10]

No database is touched (the part's text and parameters only); DATABASE_URL names the backend.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_passes import alternate, bench_arguments, print_medians  # noqa: E402  (the scripts' folder is on the path above)


def main(argv: list[str] | None = None) -> int:
    parser = bench_arguments(__doc__, calls=20000)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    import django

    django.setup()
    from games.models import Hand
    from games.table.rows import HAND_ROWS

    ways: dict[str, Callable[[], object]] = {
        "a Hand instance": lambda: HAND_ROWS.update_part(Hand(pk=7, actions_count=42), ["actions_count"]),
        "set_part": lambda: HAND_ROWS.set_part(7, {"actions_count": 42}),
    }
    assert len({repr(way()) for way in ways.values()}) == 1  # (the same text and parameters)
    times = alternate(ways, args.passes, args.calls)
    print_medians(times, "part")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
