"""CPU of a hand action's one statement built on a snapshot (games.table.rows.statement_if_current):
every parameter through its field's `get_db_prep_save` chain (as before) against the fields'
shortcuts (`common.row_values.preparer`), in one process, passes alternating.

    .venv/bin/python scripts/prep_bench.py [--calls 5000] [--passes 10] [--database mahjong_prepbench]

The statements are real ones: every hand action of a shanghai table of four players, 60 actions
played by `scripts/service_bench.py`'s bench on a fresh PostgreSQL database (dropped and made
again), each built again from the arguments it was built from.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_passes import alternate, bench_arguments, print_medians  # noqa: E402  (the scripts' folder is on the path above)


def main(argv: list[str] | None = None) -> int:
    args = bench_arguments(__doc__, calls=5000, database="mahjong_prepbench").parse_args(argv)
    import service_bench

    service_bench.setup(args.database)
    from common import row_values
    from games.table import store

    seen: list[tuple[Any, ...]] = []
    build = store.statement_if_current

    def recorded(*given: Any) -> Any:
        seen.append(given)
        return build(*given)

    store.statement_if_current = recorded  # type: ignore[assignment]
    bench = service_bench.Bench(args.database)
    bench.run(60)
    store.statement_if_current = build  # type: ignore[assignment]
    assert seen, "no hand action was made on a snapshot"

    def every_statement(shortcuts: bool) -> Any:
        def once() -> None:
            row_values.SHORTCUTS = shortcuts
            for given in seen:
                build(*given)

        return once

    def sent(shortcuts: bool) -> list[Any]:
        """The statements' text and parameters (a JSON wrapper by its object, a datetime by its
        type: an insert stamps its row's creation anew)."""
        row_values.SHORTCUTS = shortcuts
        return [(sql, [_compared(v) for v in values]) for sql, values in (build(*given) for given in seen)]

    assert sent(True) == sent(False)  # the same text and parameters
    times = alternate(
        {"fields' chains": every_statement(False), "shortcuts": every_statement(True)},
        args.passes,
        max(1, args.calls // len(seen)),
    )
    print(f"{len(seen)} statements per call")
    print_medians({way: [t / len(seen) for t in figures] for way, figures in times.items()}, "statement")
    return 0


def _compared(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return datetime.datetime
    return (type(value), getattr(value, "obj", value))


if __name__ == "__main__":
    raise SystemExit(main())
