"""CPU of a player's JSON frame, per viewer, as a table socket builds it (docs/benchmarks.md).

    .venv/bin/python scripts/frame_bench.py [--tree PATH] [--versions 300] [--passes 15]
        [--waits-of PATH] [--news]

Plays one shanghai table with service_bench's four players until it has `--versions` of its
versions kept as snapshots, then builds every player's frame of each version in order (the
render context, `news.seen`, the JSON view and its encoding), `--passes` times, with every
kept answer dropped before each pass (the per-process caches and what the engine keeps on its
states), and prints the best pass's CPU time per frame. `--tree`: the checkout whose code is
measured (default: this one), so two versions of the code can be compared with one script.
`--waits-of PATH`: the same frames built in the same process, passes alternating between this
tree's waits help and PATH's `games/engine/waits.py` (the best pass of each printed): two
versions of that module compared without two processes' drift.
`--news`: each player's frames as its socket sends them, the news rule applied (a frame that
tells the player nothing new is not sent), passes alternating between deciding that after
rendering the frame and before it, from the frame's head (the CPU per version, all four players).
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
    parser.add_argument("--news", action="store_true")
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
    from games.engine import hand

    caches.clear_all()
    getattr(hand, "forget_waits", lambda: None)()  # the waits kept per hand (older trees keep none)
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
    if args.news:
        return compare_news(args, kept, bench.users)
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


def sockets_pass(kept: list[Any], users: list[Any], head_first: bool) -> tuple[float, int]:
    """CPU seconds for every player's socket to go through every version in order, each frame
    sent only when it is news to its player, and how many were sent."""
    from games.rendering.heads import frame_head
    from games.rendering.presenters import context_for, json_view
    from games.sockets import news
    from games.sockets.lean import json_text
    from games.table.store import loaded_from

    shown: dict[int, Any] = {}
    frames = 0
    started = time.process_time()
    for snapshot in kept:
        ctx = loaded_from(snapshot)
        assert ctx is not None
        for user in users:
            if head_first:
                head = frame_head(ctx, user)
                seen = news.seen_of(head.version, head.paused, head.legal, head.pending)
                if not news.news(shown.get(user.pk), seen, head.moved_on):
                    continue
                context = context_for(ctx, user, head)
            else:
                context = context_for(ctx, user)
                seen = news.seen(context)
                if not news.news(shown.get(user.pk), seen, context["moved_on"]):
                    continue
            shown[user.pk] = seen
            frames += 1
            view, legal = json_view(context), context["legal"]
            json_text({"type": "state", "version": context["table"]["version"], "view": view, "legal": legal})
    return time.process_time() - started, frames


def compare_news(args: argparse.Namespace, kept: list[Any], users: list[Any]) -> int:
    """Passes alternating between rendering before the news rule decides and deciding first."""
    best = {"rendered, then decided": float("inf"), "decided from the head, then rendered": float("inf")}
    sent = 0
    for _ in range(args.passes):
        for label, head_first in zip(best, (False, True), strict=True):
            forget(kept)
            cpu, sent = sockets_pass(kept, users, head_first)
            best[label] = min(best[label], cpu)
    renders = len(kept) * len(users)
    print(
        f"{sent} of {renders} frames news to their player;",
        ", ".join(f"{label}: {1e6 * cpu / len(kept):.1f} µs" for label, cpu in best.items()),
        "per version",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
