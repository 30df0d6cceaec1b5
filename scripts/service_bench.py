"""CPU per hand action in the service layer, and per viewer for its frame, on one thread.

    make bench-service            # 600 actions on a fresh PostgreSQL database `mahjong_svcbench`
    PROFILE=1 make bench-service  # the same under pyinstrument (the tree is printed)

Four players at one shanghai table (no pause, no undo window, so every action is applied at
once); each action is one `commands.perform`, and before it the four viewers' frames are built
the way the sockets build them (`snapshot_context` + the JSON encoding). It isolates what the
load test mixes together (docs/benchmarks.md, "Live play"): the figures are CPU time of this
process (`time.process_time`), the database round trips excluded; and, when PostgreSQL runs on
this machine, the CPU its backends serving the bench's database spent during the `perform` calls
(`/proc/<pid>/schedstat`), per action.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


def setup(database: str) -> None:
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f'DROP DATABASE IF EXISTS "{database}"'],
        check=True,
    )
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f'CREATE DATABASE "{database}"'], check=True
    )
    os.environ.update(
        DJANGO_SETTINGS_MODULE="mahjong_site.settings",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{database}",
        DEBUG="0",
        REDIS_URL="",
    )
    os.environ.setdefault("SECRET_KEY", "service-bench-" + "x" * 40)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def backends_cpu_s(database: str) -> float | None:
    """CPU seconds used so far by the PostgreSQL backends of `database` on this machine (None:
    none visible, e.g. PostgreSQL elsewhere)."""
    total, seen = 0, False
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if command.startswith("postgres:") and f" {database} " in command:
                total += int((entry / "schedstat").read_text().split()[0])
                seen = True
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
    return total / 1e9 if seen else None


class Bench:
    def __init__(
        self, database: str = "", spectators: int = 0, html: bool = False, share: bool = True
    ) -> None:
        from django.contrib.auth.models import User

        from accounts.models import Profile
        from common import broadcaster

        broadcaster.start_own_loop()  # announcements handed to a loop, as in daphne
        self.users = [User.objects.create_user(username=f"bench{i}") for i in range(4)]
        for user in self.users:
            Profile.objects.get_or_create(user=user)
        self.rng = random.Random(1)
        self.table_id = self.new_table()
        self.database = database
        self.perform_s = self.render_s = self.spectators_s = self.backends_s = 0.0
        self.actions = self.frames = self.statements = 0
        self.spectators, self.html, self.share = spectators, html, share

    def new_table(self) -> int:
        from games.table import commands, opening

        table = opening.create_table(self.users[0], "shanghai", undo_ms=0, min_pause_ms=0)
        for index, user in enumerate(self.users):
            commands.sit(table.pk, user, index)
        commands.set_stake(table.pk, self.users[0], 1)
        for user in self.users[1:]:
            commands.accept_stake(table.pk, user)
        commands.start_hand(table.pk, self.users[0])
        return table.pk

    def frames_of(self, version: int, revision: int) -> list[dict[str, Any]]:
        """The four viewers' frames as the sockets build them: from the snapshot the change kept
        in this process (keyed by revision, as the announcement is), else from the database."""
        from games.rendering.presenters import json_view, snapshot_context, table_context
        from games.table import snapshots

        snapshot = snapshots.at(self.table_id, revision)
        out = []
        for user in self.users:
            context = snapshot_context(snapshot, user) if snapshot is not None else None
            if context is None:
                context = table_context(self.table_id, user, True)
            out.append(
                {"type": "state", "version": version, "view": json_view(context), "legal": context["legal"]}
            )
        return out

    def spectator_frames(self, version: int, revision: int) -> None:
        """The anonymous spectators' frames as their sockets build them: one shared render per
        version (games.sockets.shared), or (`share` off) one each; JSON or the HTML page."""
        from games.rendering.fragments import render_table_html
        from games.rendering.presenters import json_view, snapshot_context
        from games.sockets import shared
        from games.sockets.lean import json_text
        from games.table import snapshots

        snapshot = snapshots.at(self.table_id, revision)
        if snapshot is None:
            return
        for _ in range(self.spectators):
            context = shared.anonymous_context(snapshot) if self.share else snapshot_context(snapshot, None)
            assert context is not None

            def build(context: dict[str, Any] = context) -> str:
                if self.html:
                    return render_table_html(context, "zh-hans")
                view, legal = json_view(context), context["legal"]
                return json_text({"type": "state", "version": version, "view": view, "legal": legal})

            if self.share:
                shared.frame_text(context, not self.html, "zh-hans", build)
            else:
                build()

    def count(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Counts the statements `perform` sends (its transaction's BEGIN and COMMIT are two more)."""
        self.statements += 1
        return execute(sql, params, many, context)

    def run(self, count: int) -> None:
        import orjson
        from api_player import choose
        from django.db import connection

        from games.models import Table
        from games.table import commands

        table = Table.objects.get(pk=self.table_id)
        version, revision = table.version, table.revision
        while self.actions < count:
            started = time.process_time()
            frames = self.frames_of(version, revision)
            for frame in frames:
                orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS)
            self.render_s += time.process_time() - started
            self.frames += len(frames)
            started = time.process_time()
            self.spectator_frames(version, revision)
            self.spectators_s += time.process_time() - started
            picked = next(
                ((seat, a) for seat, f in enumerate(frames) if (a := choose(f, self.rng, seat)) is not None),
                None,
            )
            if picked is None or picked[1]["type"] == "continue":  # the hand is over: a new table
                self.table_id = self.new_table()
                table = Table.objects.get(pk=self.table_id)
                version, revision = table.version, table.revision
                continue
            backends = backends_cpu_s(self.database)  # (read outside this process's timing)
            started = time.process_time()
            with connection.execute_wrapper(self.count):
                table = commands.perform(self.table_id, self.users[picked[0]], version, picked[1])
            self.perform_s += time.process_time() - started
            version, revision = table.version, table.revision
            if backends is not None:
                self.backends_s += (backends_cpu_s(self.database) or backends) - backends
            self.actions += 1


def plain_static_files() -> None:
    """The pages' static URLs without the manifest: with DEBUG off the site reads the manifest
    `collectstatic` writes, which a fresh checkout does not have; the URL's form is not what is
    measured (a tile's URL is looked up once and kept)."""
    from django.conf import settings
    from django.test.utils import override_settings

    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    # (its setting_changed signal drops the storages already made)
    override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}).enable()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--database", default="mahjong_svcbench")
    parser.add_argument("--spectators", type=int, default=0, help="anonymous spectators' frames too")
    parser.add_argument("--html", action="store_true", help="the spectators' frames as HTML pages")
    parser.add_argument("--no-share", action="store_true", help="render every spectator's frame alone")
    args = parser.parse_args(argv)
    setup(args.database)
    if args.html:
        plain_static_files()
    bench = Bench(args.database, args.spectators, args.html, not args.no_share)
    bench.run(50)  # warm: imports, caches, the first tables
    bench.perform_s = bench.render_s = bench.spectators_s = bench.backends_s = 0.0
    bench.actions = bench.frames = bench.statements = 0
    profiler = None
    if os.environ.get("PROFILE"):
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)
        profiler.start()
    bench.run(args.actions)
    if profiler is not None:
        profiler.stop()
        print(profiler.output_text(color=False))
    perform_ms = 1000 * bench.perform_s / bench.actions
    frame_ms = 1000 * bench.render_s / bench.frames
    print(
        f"CPU per action: perform {perform_ms:.2f} ms; per viewer frame {frame_ms:.3f} ms "
        f"({bench.actions} actions); SQL statements per action {bench.statements / bench.actions:.2f}; "
        f"PostgreSQL backends {1000 * bench.backends_s / bench.actions:.3f} ms per action"
    )
    if args.spectators:
        per_action = 1000 * bench.spectators_s / bench.actions
        print(
            f"{args.spectators} anonymous spectators ({'HTML' if args.html else 'JSON'}, "
            f"{'shared' if bench.share else 'one render each'}): {per_action:.2f} ms CPU per action"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
