"""CPU of a player's JSON frame, per viewer, as a table socket builds it (docs/benchmarks.md).

    .venv/bin/python scripts/frame_bench.py [--tree PATH] [--versions 300] [--passes 15]
        [--waits-of PATH]

Plays one shanghai table with service_bench's four players until it has `--versions` of its
versions kept as snapshots, then builds every player's frame of each version in order (the
render context, `news.seen`, the JSON view and its encoding), `--passes` times, with every
kept answer dropped before each pass (the per-process caches and what the engine keeps on its
states), and prints the best pass's CPU time per frame. `--tree`: the checkout whose code is
measured (default: this one), so two versions of the code can be compared with one script.
`--waits-of PATH`: the same frames built in the same process, passes alternating between this
tree's waits help and PATH's `games/engine/waits.py` (the best pass of each printed): two
versions of that module compared without two processes' drift.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any


def measured_tree(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--passes", type=int, default=15)
    parser.add_argument("--database", default="")
    parser.add_argument("--waits-of", default="")
    args = parser.parse_args(argv)
    tree = Path(args.tree).resolve()
    sys.path[:0] = [str(tree), str(tree / "scripts")]  # that checkout's code, not this one's
    os.chdir(tree)
    args.database = args.database or f"mahjong_frame_bench_{tree.name}"
    return args


def versions_played(bench: Any, count: int) -> list[Any]:
    """Snapshots of `count` consecutive versions, one action apart."""
    from games.models import Table
    from games.table import snapshots

    bench.run(20)  # past the deal
    kept: list[Any] = []
    while len(kept) < count:
        bench.run(bench.actions + 1)
        revision = Table.objects.values_list("revision", flat=True).get(pk=bench.table_id)
        snapshot = snapshots.at(bench.table_id, revision)
        if snapshot is not None:
            kept.append(snapshot)
    return kept


def forget(kept: list[Any]) -> None:
    """Every kept answer dropped: the per-process caches, and what states keep on themselves."""
    from common import caches

    caches.clear_all()
    for snapshot in kept:
        for state in snapshot.states.values():
            state.__dict__.pop("_memo", None)
            for player in state.players:
                player.__dict__.pop("_memo", None)


def frames_pass(kept: list[Any], users: list[Any]) -> float:
    """CPU seconds to build every player's frame of every version, in order."""
    from games.rendering.presenters import json_view, snapshot_context
    from games.sockets import news
    from games.sockets.lean import json_text

    started = time.process_time()
    for snapshot in kept:
        for user in users:
            context = snapshot_context(snapshot, user)
            assert context is not None
            news.seen(context)
            view, legal = json_view(context), context["legal"]
            json_text({"type": "state", "version": context["table"]["version"], "view": view, "legal": legal})
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    args = measured_tree(argv)
    import service_bench

    service_bench.setup(args.database)
    bench = service_bench.Bench(args.database)
    kept = versions_played(bench, args.versions)
    if args.waits_of:
        return compare_waits(args, kept, bench.users)
    best = float("inf")
    for _ in range(args.passes):
        forget(kept)
        best = min(best, frames_pass(kept, bench.users))
    per_frame = 1e6 * best / (len(kept) * len(bench.users))
    print(
        f"{Path(args.tree).resolve().name}: {per_frame:.1f} µs CPU per player's JSON frame "
        f"(best of {args.passes} passes over {len(kept)} versions × {len(bench.users)} players)"
    )
    return 0


def compare_waits(args: argparse.Namespace, kept: list[Any], users: list[Any]) -> int:
    """Passes alternating between this tree's waits help and `--waits-of`'s, in one process."""
    import importlib.util

    from games.engine import view
    from games.engine import waits as own

    path = Path(args.waits_of).resolve() / "games" / "engine" / "waits.py"
    spec = importlib.util.spec_from_file_location("waits_compared", path)
    assert spec is not None and spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    sys.modules["waits_compared"] = other  # (its dataclasses look their module up)
    spec.loader.exec_module(other)
    best = {"waits of " + args.waits_of: float("inf"), "own waits": float("inf")}
    for _ in range(args.passes):
        for label, module in zip(best, (other, own), strict=True):
            view.waits_json = module.waits_json  # type: ignore[assignment]
            forget(kept)
            best[label] = min(best[label], frames_pass(kept, users))
    view.waits_json = own.waits_json
    frames = len(kept) * len(users)
    print(", ".join(f"{label}: {1e6 * cpu / frames:.1f} µs" for label, cpu in best.items()), "per frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
