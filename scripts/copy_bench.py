"""CPU of the private copy a hand action made on a snapshot works on (games.table.unlocked):
the snapshot's bytes unpacked again (`snapshots.unpack_rows`, as before) against its kept rows
copied (`snapshots.private_rows`), in one process, passes alternating.

    .venv/bin/python scripts/copy_bench.py [--calls 3000] [--passes 10] [--database mahjong_copybench]

The snapshot is a real one: a shanghai table of four players 30 actions into a hand, played by
`scripts/service_bench.py`'s bench on a fresh PostgreSQL database (dropped and made again).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_passes import alternate, bench_arguments, print_medians  # noqa: E402  (the scripts' folder is on the path above)


def main(argv: list[str] | None = None) -> int:
    args = bench_arguments(__doc__, calls=3000, database="mahjong_copybench").parse_args(argv)
    import service_bench

    service_bench.setup(args.database)
    bench = service_bench.Bench(args.database)
    bench.run(30)
    from games.table import snapshots

    snapshot = snapshots.newest(bench.table_id)
    assert snapshot is not None and snapshot.hand is not None
    ways: dict[str, Callable[[], object]] = {
        "unpacked": lambda: snapshots.unpack_rows(snapshot.blob),
        "copied": lambda: snapshots.private_rows(snapshot),
    }
    times = alternate(ways, args.passes, args.calls)
    print_medians(times, "copy")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
