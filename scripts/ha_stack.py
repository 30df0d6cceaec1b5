"""The high-availability shape on this machine's loopback, no containers (scripts/ha_test.py).

Two Redis servers (a primary and its replica) watched by three Sentinels, a PostgreSQL primary
and a streaming replica (initdb + pg_basebackup in a temporary directory, with the installed
PostgreSQL binaries, run as the `postgres` user when started as root), N daphne processes and
one clock, all with production settings and the environment compose.yaml's `ha` profile gives
them: `REDIS_URL=sentinel://…/mahjong` and `DATABASE_REPLICA_URL`. Faults: `kill_redis_primary`
(kill -9; the Sentinels promote the replica), `stop_pg_replica` / `start_pg_replica`, and the
daphne kill and restart of lt_stack.Stack.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lt_stack import HOST, SERVER_ERROR_MARKERS, Stack, free_port, redis_cli, wait_port

MASTER = "mahjong"  # the Sentinel service name
DATABASE = "mahjong_ha"
# Ports: the first free ones of these ranges (another Redis may hold one on a shared machine), or
# exactly HA_REDIS_PORTS, HA_SENTINEL_PORTS, HA_PG_PORTS (comma-separated) when given.
REDIS_RANGE = (6480, 6490, 2)  # first, end, how many
SENTINEL_RANGE = (6490, 6500, 3)
PG_RANGE = (5440, 5450, 2)
REPLICA_MAX_LAG = 5  # seconds (the processes' setting): the replica is paused longer than this
# Sentinel: a primary silent for this long is down; quorum 2 of 3 agree before a failover.
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 5000


def _ports(name: str, span: tuple[int, int, int]) -> tuple[int, ...]:
    raw = os.environ.get(name, "")
    if raw:
        return tuple(int(p) for p in raw.split(","))
    first, end, count = span
    free = [port for port in range(first, end) if not port_busy(port)][:count]
    if len(free) < count:
        raise RuntimeError(f"fewer than {count} free ports in {first}–{end - 1} (set {name})")
    return tuple(free)


def pg_bin() -> Path:
    """The newest installed PostgreSQL's binaries (Debian: /usr/lib/postgresql/<major>/bin)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise RuntimeError("no PostgreSQL binaries (initdb) found: apt-get install postgresql")


def port_busy(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex((HOST, port)) == 0


@dataclass
class HAStack(Stack):
    """lt_stack.Stack with Redis behind Sentinels and PostgreSQL with a streaming replica."""

    redis_ports: tuple[int, ...] = field(default_factory=lambda: _ports("HA_REDIS_PORTS", REDIS_RANGE))
    sentinel_ports: tuple[int, ...] = field(
        default_factory=lambda: _ports("HA_SENTINEL_PORTS", SENTINEL_RANGE)
    )
    pg_ports: tuple[int, ...] = field(default_factory=lambda: _ports("HA_PG_PORTS", PG_RANGE))
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="mahjong-ha-")))
    redis_procs: dict[int, subprocess.Popen[bytes] | None] = field(default_factory=dict)
    sentinel_procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    as_postgres: bool = field(default_factory=lambda: os.geteuid() == 0)
    timings: dict[str, float] = field(default_factory=dict)  # seconds each part of start() took

    # --- addresses --------------------------------------------------------------------------

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@{HOST}:{self.pg_ports[0]}/{DATABASE}"

    @property
    def replica_url(self) -> str:
        return f"postgres://postgres@{HOST}:{self.pg_ports[1]}/{DATABASE}"

    @property
    def redis_url(self) -> str:
        sentinels = ",".join(f"{HOST}:{p}" for p in self.sentinel_ports)
        return f"sentinel://{sentinels}/{MASTER}"

    def env(self) -> dict[str, str]:
        env = super().env()
        env.update(
            DATABASE_REPLICA_URL=self.replica_url,
            REPLICA_MAX_LAG=str(REPLICA_MAX_LAG),
            REPLICA_CHECK_SECONDS="1",
        )
        env.pop("PGPASSWORD", None)  # this cluster trusts loopback
        return env

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> HAStack:
        busy = [p for p in (*self.redis_ports, *self.sentinel_ports, *self.pg_ports) if port_busy(p)]
        if busy:
            raise RuntimeError(
                f"ports {busy} are in use (HA_REDIS_PORTS, HA_SENTINEL_PORTS, HA_PG_PORTS move them)"
            )
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for old in self.log_dir.glob("*.log"):
            old.unlink()
        began = time.monotonic()

        def lap(what: str) -> None:
            nonlocal began
            self.timings[what] = round(time.monotonic() - began, 1)
            began = time.monotonic()

        self.start_postgres()
        lap("postgres")
        for port in self.redis_ports:
            self.start_redis_server(
                port, replica_of=None if port == self.redis_ports[0] else self.redis_ports[0]
            )
        self.start_sentinels()
        lap("redis")
        self.manage("migrate", "--noinput", "-v", "0")
        lap("migrate")
        self.manage("collectstatic", "--noinput", "-v", "0")
        lap("collectstatic")
        self.ports = [free_port() for _ in range(self.procs)]
        self.servers = [None] * self.procs
        for i in range(self.procs):
            self._spawn(i)
        if self.clock:
            self.clock_proc = self._popen("clock", [str(self._python()), "manage.py", "run_clock"])
        for i, port in enumerate(self.ports):
            wait_port(port, proc=self.servers[i])
        lap("daphne")
        return self

    def _python(self) -> Path:
        from lt_stack import BIN

        return BIN / "python"

    def stop(self, drop: bool = True) -> None:
        self.redis_port = 0  # (Stack.stop would shut it down: ours are below)
        with contextlib.suppress(Exception):
            super().stop(drop=False)
        for proc in [*self.sentinel_procs, *(p for p in self.redis_procs.values() if p is not None)]:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in [*self.sentinel_procs, *(p for p in self.redis_procs.values() if p is not None)]:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        for i in (1, 0):
            self.pg_ctl(i, "stop", "-m", "immediate", check=False)
        if drop:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- PostgreSQL -------------------------------------------------------------------------

    def _as_pg(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *argv] if self.as_postgres else argv

    def _pg_run(self, argv: list[str], check: bool = True) -> subprocess.CompletedProcess[str]:
        # run from the cluster directory: the postgres user may not enter the checkout's
        return subprocess.run(
            self._as_pg(argv), capture_output=True, text=True, timeout=120, check=check, cwd=self.tmp
        )

    def pg_dir(self, i: int) -> Path:
        return self.tmp / ("pg-primary" if i == 0 else "pg-replica")

    def pg_ctl(self, i: int, *args: str, check: bool = True) -> None:
        log = self.log_dir / f"postgres-{'primary' if i == 0 else 'replica'}.log"
        if self.as_postgres:
            log = self.tmp / log.name  # writable by postgres; copied to the log directory at the end
        self._pg_run(
            [str(pg_bin() / "pg_ctl"), "-D", str(self.pg_dir(i)), "-l", str(log), "-w", *args], check
        )

    def start_postgres(self) -> None:
        bin_dir = pg_bin()
        if self.as_postgres:
            shutil.chown(self.tmp, "postgres", "postgres")
        primary, replica = self.pg_dir(0), self.pg_dir(1)
        began = time.monotonic()
        self._pg_run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(primary),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",  # a test cluster: no waiting for the disk
            ]
        )
        settings = {
            "port": self.pg_ports[0],
            "listen_addresses": f"'{HOST}'",
            "unix_socket_directories": f"'{self.tmp}'",
            "max_connections": 200,  # ≥ 10 per daphne + the clock's + the checks
            "wal_level": "replica",
            "max_wal_senders": 5,
            "hot_standby": "on",
            "fsync": "off",  # a test cluster: speed over durability
            "synchronous_commit": "off",
            "full_page_writes": "off",
        }
        with open(primary / "postgresql.conf", "a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())
        self.pg_ctl(0, "start")
        self._psql(0, f'CREATE DATABASE "{DATABASE}"')
        self.timings["initdb+start"] = round(time.monotonic() - began, 1)
        self._pg_run(
            [
                str(bin_dir / "pg_basebackup"),
                *("-h", HOST, "-p", str(self.pg_ports[0]), "-U", "postgres"),
                *("-D", str(replica), "-R", "-X", "stream"),
                *("--checkpoint=fast", "--no-sync"),  # start at once; no waiting for the disk
            ]
        )
        with open(replica / "postgresql.conf", "a") as conf:
            conf.write(f"port = {self.pg_ports[1]}\n")
        self.pg_ctl(1, "start")

    def _psql(self, i: int, sql: str, db: str = "postgres") -> str:
        out = subprocess.run(
            ["psql", "-h", HOST, "-p", str(self.pg_ports[i]), "-U", "postgres", "-d", db, "-tAc", sql],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
            env={**os.environ, "PGPASSWORD": ""},
        )
        return out.stdout.strip()

    def replica_clients(self) -> int:
        """Client connections to the replica's copy of the site database (the daphne pools')."""
        sql = (
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        return int(self._psql(1, sql, DATABASE) or 0)

    def replica_streaming(self) -> bool:
        return self._psql(0, "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'") == "1"

    def pause_replay(self, paused: bool) -> None:
        """Pause (or resume) the replica's WAL replay: it falls behind while the tables write."""
        self._psql(1, f"SELECT pg_wal_replay_{'pause' if paused else 'resume'}()")

    def replica_lag(self) -> float:
        """Seconds the replica is behind, as the site's check measures it (db_router)."""
        sql = (
            "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
            "ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) END"
        )
        return float(self._psql(1, sql) or 0)

    def log_lines_since(self, marks: dict[str, int], text: str) -> int:
        """How many daphne logs have a line containing `text` after `marks`."""
        found = 0
        for path in sorted(self.log_dir.glob("daphne-*.log")):
            tail = path.read_bytes()[marks.get(path.name, 0) :].decode(errors="replace")
            found += text in tail
        return found

    def stop_pg_replica(self) -> None:
        self.pg_ctl(1, "stop", "-m", "fast")

    def start_pg_replica(self) -> None:
        self.pg_ctl(1, "start")

    # --- Redis and Sentinel -----------------------------------------------------------------

    def start_redis_server(self, port: int, replica_of: int | None) -> None:
        argv = ["redis-server", "--bind", HOST, "--port", str(port), "--save", "", "--appendonly", "no"]
        argv += ["--dir", str(self.tmp)]
        if replica_of is not None:
            argv += ["--replicaof", HOST, str(replica_of)]
        self.redis_procs[port] = self._popen(f"redis-{port}", argv)
        self._wait_redis(port)

    def _wait_redis(self, port: int) -> None:
        deadline = time.monotonic() + 30
        while redis_cli(port, "ping") != "PONG":
            if time.monotonic() > deadline:
                raise TimeoutError(f"redis on port {port} did not start")
            time.sleep(0.05)

    def start_sentinels(self) -> None:
        for port in self.sentinel_ports:
            conf = self.tmp / f"sentinel-{port}.conf"  # Sentinel rewrites its file: one each
            conf.write_text(
                f"port {port}\nbind {HOST}\ndir {self.tmp}\n"
                f"sentinel monitor {MASTER} {HOST} {self.redis_ports[0]} 2\n"
                f"sentinel down-after-milliseconds {MASTER} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {MASTER} {FAILOVER_TIMEOUT_MS}\n"
                f"sentinel parallel-syncs {MASTER} 1\n"
            )
            # redis-sentinel is redis-server in Sentinel mode (the Debian package may lack the link)
            self.sentinel_procs.append(
                self._popen(f"sentinel-{port}", ["redis-server", str(conf), "--sentinel"])
            )
            self._wait_redis(port)
        # every Sentinel knows the replica and the two others before a fault may come
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if all(self._sentinel_knows_all(p) for p in self.sentinel_ports):
                return
            time.sleep(0.2)
        raise TimeoutError("the Sentinels did not find each other and the replica within 30 s")

    def _sentinel_knows_all(self, port: int) -> bool:
        info = redis_cli(port, "sentinel", "master", MASTER).split("\n")
        fields = dict(zip(info[::2], info[1::2], strict=False))
        others = len(self.sentinel_ports) - 1
        return fields.get("num-slaves") == str(len(self.redis_ports) - 1) and fields.get(
            "num-other-sentinels"
        ) == str(others)

    def master_port(self) -> int | None:
        """The primary's port as the first Sentinel that answers sees it."""
        for port in self.sentinel_ports:
            out = redis_cli(port, "sentinel", "get-master-addr-by-name", MASTER).split()
            if len(out) == 2:
                return int(out[1])
        return None

    def kill_redis_primary(self) -> tuple[int, float]:
        """kill -9 the Redis primary, wait for the Sentinels to promote the replica; (the killed
        port, seconds until the new primary was named). The killed server comes back after it,
        empty, and the Sentinels make it a replica of the new primary."""
        old = self.master_port()
        assert old is not None
        proc = self.redis_procs[old]
        assert proc is not None
        began = time.monotonic()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        self.redis_procs[old] = None
        deadline = began + 60
        while self.master_port() in (old, None):
            if time.monotonic() > deadline:
                raise TimeoutError("no Sentinel promoted the replica within 60 s")
            time.sleep(0.1)
        promoted = time.monotonic() - began
        self.start_redis_server(old, replica_of=None)  # the Sentinels turn it into a replica
        return old, promoted

    def redis_role(self, port: int) -> str:
        return redis_cli(port, "role").split("\n", 1)[0]

    def tracebacks(self, until: dict[str, int] | None) -> list[tuple[str, int, str]]:
        """(log, byte offset, first line after it) of each unhandled exception in the daphne and
        clock logs, up to `until` (log marks)."""
        found = []
        for path in sorted(self.log_dir.glob("*.log")):
            if not path.name.startswith(("daphne-", "clock")):
                continue
            data = path.read_bytes()[: (until or {}).get(path.name, None)]
            offset = 0
            lines = data.split(b"\n")
            for n, line in enumerate(lines):
                text = line.decode(errors="replace")
                if any(marker in text for marker in SERVER_ERROR_MARKERS):
                    tail = next(
                        (
                            x.decode(errors="replace")
                            for x in lines[n + 1 : n + 60]
                            if x and not x.startswith(b" ")
                        ),
                        text,
                    )
                    found.append((path.name, offset, tail))
                offset += len(line) + 1
        return found

    def collect_logs(self) -> None:
        for log in self.tmp.glob("postgres-*.log"):
            with contextlib.suppress(OSError):
                shutil.copy(log, self.log_dir / log.name)
