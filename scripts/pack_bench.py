"""CPU of a snapshot's bytes (games.table.packing): packing the snapshot a change announces, and
taking it in in another process (`snapshots.keep` of the bytes alone), with the rows and states
pickled as they are (SNAPSHOT_PLAIN_PACKING=0, as before) against as plain values, in one
process, passes alternating.

    .venv/bin/python scripts/pack_bench.py [--calls 100] [--passes 10] [--database mahjong_packbench]

The snapshots are real ones: those of a shanghai table of four players after each of its first
60 hand actions, played by `scripts/service_bench.py`'s bench on a fresh PostgreSQL database
(dropped and made again). One call packs (or takes in) all 60; the figures are per snapshot.
The script first checks that both forms unpack to the same rows, users and states.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_passes import alternate, bench_arguments, print_medians  # noqa: E402  (the scripts' folder is on the path above)

ACTIONS = 60


def main(argv: list[str] | None = None) -> int:
    args = bench_arguments(__doc__, calls=100, database="mahjong_packbench").parse_args(argv)
    import service_bench

    service_bench.setup(args.database)
    bench = service_bench.Bench(args.database)
    from games.table import packing, snapshots

    kept = []
    for count in range(1, ACTIONS + 1):
        bench.run(count)
        snapshot = snapshots.newest(bench.table_id)
        assert snapshot is not None and snapshot.hand is not None
        kept.append(snapshot)

    def packed(plain: bool) -> list[bytes]:
        packing.PLAIN = plain
        return [snapshots.pack(s.table, s.seats, s.hand, s.states, False) for s in kept]

    blobs = {plain: packed(plain) for plain in (False, True)}
    for before, after in zip(blobs[False], blobs[True], strict=True):
        assert _unpacked(snapshots.unpack(before)) == _unpacked(snapshots.unpack(after))
    print(f"{len(kept)} snapshots, the same rows, users and states in both forms;", end=" ")
    print(f"bytes {_mean(blobs[False]):.0f} as they are, {_mean(blobs[True]):.0f} as plain values")

    table_id = bench.table_id

    def pack(plain: bool) -> Callable[[], object]:
        return lambda: packed(plain)

    def take_in(plain: bool) -> Callable[[], object]:
        def once() -> None:
            for blob in blobs[plain]:
                snapshots.forget(table_id)  # (as a process that holds no newer one)
                snapshots.keep(blob)

        return once

    ways = {
        "pack, as they are": pack(False),
        "pack, plain": pack(True),
        "take in, as they are": take_in(False),
        "take in, plain": take_in(True),
    }
    times = alternate(ways, args.passes, args.calls)
    print_medians({name: [t / len(kept) for t in per] for name, per in times.items()}, "snapshot")
    return 0


def _mean(blobs: list[bytes]) -> float:
    return sum(map(len, blobs)) / len(blobs)


def _unpacked(unpacked: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a snapshot's rows, users and states hold, to compare (the rows' model state apart)."""
    table, seats, hand, states = unpacked
    rows = [_fields(row) for row in (table, *seats, hand)]
    users = [_user(seat.user) if seat.user_id is not None else None for seat in seats]
    owner = _user(table.owner) if table.owner_id is not None else None
    return rows, users, owner, {key: _state(state) for key, state in states.items()}


def _fields(row: Any) -> dict[str, Any]:
    return {name: value for name, value in vars(row).items() if name != "_state"}


def _user(user: Any) -> tuple[Any, ...]:
    profile = getattr(user, "profile", None)
    return _fields(user), _fields(profile) if profile is not None else None


def _state(state: Any) -> Any:
    """A state's attributes, its players' and their melds', with their types."""
    fields = dict(vars(state))
    fields["players"] = [
        (type(p), dict(vars(p)), [(type(m), vars(m)) for m in p.melds]) for p in state.players
    ]
    return type(state), fields


if __name__ == "__main__":
    raise SystemExit(main())
