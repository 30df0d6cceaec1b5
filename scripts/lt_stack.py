"""The production shape on one machine, for the load test and the fuzzer (loopback only).

A fresh PostgreSQL database on the local cluster, a private Redis on a free port (so a Redis
restart never disturbs anybody else's Redis), N daphne processes on their own ports and ONE
clock worker (`manage.py run_clock`), all with production settings (DEBUG=0). Faults:
`kill(i)` (`kill -9` one daphne), `restart(i)`, `restart_redis()` (`redis-cli shutdown
nosave` and the developers' start command), `reset_pg()` (`pg_terminate_backend` on every
connection to the test database). Logs go to var/loadtest/<name>/.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
PG_USER = os.environ.get("PGUSER", "postgres")
SERVER_ERROR_MARKERS = ("Traceback (most recent call last)", "Exception inside application")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 60.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process on port {port} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {HOST}:{port} after {timeout:.0f} s")


def psql(sql: str, db: str = "postgres") -> str:
    out = subprocess.run(
        ["psql", "-h", HOST, "-U", PG_USER, "-d", db, "-v", "ON_ERROR_STOP=1", "-tAc", sql],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return out.stdout.strip()


def redis_cli(port: int, *args: str) -> str:
    out = subprocess.run(
        ["redis-cli", "-h", HOST, "-p", str(port), *args], capture_output=True, text=True, timeout=10
    )
    return out.stdout.strip()


def start_redis(port: int) -> None:
    """The developers' command (README / .ci/run), on this stack's own port."""
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            HOST,
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
        capture_output=True,
        timeout=30,
    )
    deadline = time.monotonic() + 30
    while redis_cli(port, "ping") != "PONG":
        if time.monotonic() > deadline:
            raise TimeoutError(f"redis on port {port} did not start")
        time.sleep(0.05)


CPU_GROUPS = ("daphne", "run_clock", "postgres", "redis-server", "loadtest", "fuzz")


Readings = dict[int, tuple[str, float]]  # pid -> (CPU group, CPU seconds used so far)


def cpu_readings(pids: set[int] | None = None, classify: Callable[[int, str], str] | None = None) -> Readings:
    """CPU seconds (user + system) used so far by every live process of this machine (or by
    `pids`), with the group each belongs to: `classify(pid, command line)` (`Stack.classify`:
    only the stack's own processes), else by the command's name (CPU_GROUPS, else "other")."""
    tick = os.sysconf("SC_CLK_TCK")
    readings: Readings = {}
    entries = (Path(f"/proc/{pid}") for pid in pids) if pids is not None else Path("/proc").iterdir()
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        pid = int(entry.name)
        group = classify(pid, command) if classify else next((g for g in CPU_GROUPS if g in command), "other")
        readings[pid] = (group, used)
    return readings


def stolen_ticks() -> tuple[int, int]:
    """(ticks stolen by the hypervisor, all ticks) of every CPU of this machine so far: a
    virtual machine's neighbours show here as `steal` (/proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return fields[7], sum(fields)


def cpu_used(before: Readings, after: Readings, exited: Readings) -> dict[str, float]:
    """CPU seconds used between two readings, summed by group. `exited`: the last readings of
    processes that ended between them on purpose (a killed daphne, read just before its kill);
    other processes that ended meanwhile (a terminated database backend) are not counted."""
    totals = dict.fromkeys((*CPU_GROUPS, "other"), 0.0)
    for pid, (group, used) in {**after, **exited}.items():
        totals[group] += used - before.get(pid, (group, 0.0))[1]
    return totals


@dataclass
class Stack:
    """PROCS daphne processes + one clock + private Redis + a fresh database."""

    name: str
    procs: int = 2
    clock: bool = True
    extra_env: dict[str, str] = field(default_factory=dict)
    ports: list[int] = field(default_factory=list)
    servers: list[subprocess.Popen[bytes] | None] = field(default_factory=list)
    clock_proc: subprocess.Popen[bytes] | None = None
    redis_port: int = 0
    logs: list[IO[bytes]] = field(default_factory=list)
    exited_cpu: Readings = field(default_factory=dict)  # CPU of the processes killed, at their kill

    @property
    def log_dir(self) -> Path:
        return ROOT / "var" / "loadtest" / self.name

    @property
    def database_url(self) -> str:
        password = os.environ.get("PGPASSWORD", "")
        auth = f"{PG_USER}:{password}" if password else PG_USER
        return f"postgres://{auth}@{HOST}:5432/{self.name}"

    @property
    def redis_url(self) -> str:
        return f"redis://{HOST}:{self.redis_port}/0"

    def env(self) -> dict[str, str]:
        hosts = f"{HOST} localhost"
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": os.environ.get("LOADTEST_SECRET_KEY") or secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": hosts,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
        env.update(self.extra_env)
        return env

    def classify(self, pid: int, command: str) -> str:
        """The CPU group of a process, counting only this stack's own (the machine is shared:
        another engineer's daphne, PostgreSQL backends or load test are "other"): its daphne
        processes (by port), its clock, its Redis, the PostgreSQL backends of its database,
        and this process (the load generator). PostgreSQL's shared background processes (WAL
        writer, checkpointer) serve every database, so they are "other" too."""
        if pid == os.getpid():
            return "loadtest"
        if "daphne" in command and any(f"-p {port} " in command for port in self.ports):
            return "daphne"
        if self.clock_proc is not None and pid == self.clock_proc.pid:
            return "run_clock"
        if "redis-server" in command and command.rstrip().endswith(f":{self.redis_port}"):
            return "redis-server"
        if command.startswith("postgres:") and f" {self.name} " in command:
            return "postgres"
        return "other"

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> Stack:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for old in self.log_dir.glob("*.log"):
            old.unlink()
        self.redis_port = free_port()
        start_redis(self.redis_port)
        psql(f'DROP DATABASE IF EXISTS "{self.name}"')
        psql(f'CREATE DATABASE "{self.name}"')
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("collectstatic", "--noinput", "-v", "0")  # DEBUG=0 serves hashed static names
        self.ports = [free_port() for _ in range(self.procs)]
        self.servers = [None] * self.procs
        for i in range(self.procs):
            self._spawn(i)
        if self.clock:
            self.clock_proc = self._popen("clock", [str(BIN / "python"), "manage.py", "run_clock"])
        for i, port in enumerate(self.ports):
            wait_port(port, proc=self.servers[i])
        return self

    def manage(self, *args: str) -> None:
        subprocess.run(
            [str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=self.env(), check=True, timeout=600
        )

    def _popen(self, label: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{label}.log", "ab")  # noqa: SIM115 - closed in stop()
        self.logs.append(log)
        return subprocess.Popen(argv, cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT)

    def _spawn(self, i: int) -> None:
        argv = [str(BIN / "daphne"), "-b", HOST, "-p", str(self.ports[i]), "mahjong_site.asgi:application"]
        self.servers[i] = self._popen(f"daphne-{i}", argv)

    def stop(self, drop: bool = True) -> None:
        procs = [p for p in [*self.servers, self.clock_proc] if p is not None]
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=3)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        if self.redis_port:
            redis_cli(self.redis_port, "shutdown", "nosave")
        for log in self.logs:
            log.close()
        if drop:
            with contextlib.suppress(subprocess.CalledProcessError):
                psql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    # --- faults -----------------------------------------------------------------------------

    def kill(self, i: int) -> None:
        proc = self.servers[i]
        assert proc is not None
        self.exited_cpu.update(cpu_readings({proc.pid}, self.classify))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        self.servers[i] = None

    def restart(self, i: int) -> None:
        self._spawn(i)
        wait_port(self.ports[i], proc=self.servers[i])

    def restart_redis(self) -> None:
        redis_cli(self.redis_port, "shutdown", "nosave")
        time.sleep(0.2)
        start_redis(self.redis_port)

    def reset_pg(self) -> int:
        """Terminate every connection to this stack's database; how many there were."""
        sql = (
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()"
        )
        return int(psql(sql) or 0)

    # --- the server logs --------------------------------------------------------------------

    def log_marks(self) -> dict[str, int]:
        """How far each log has got (bytes): `server_errors(marks)` looks only before that."""
        return {path.name: path.stat().st_size for path in self.log_dir.glob("*.log")}

    def server_errors(self, marks: dict[str, int] | None = None) -> list[str]:
        """Unhandled exceptions in the daphne and clock logs (first line of each traceback)."""
        found: list[str] = []
        for path in sorted(self.log_dir.glob("*.log")):
            data = path.read_bytes()
            if marks is not None:
                data = data[: marks.get(path.name, 0)]
            lines = data.decode(errors="replace").splitlines()
            for n, line in enumerate(lines):
                if any(marker in line for marker in SERVER_ERROR_MARKERS):
                    tail = next((x for x in lines[n + 1 : n + 60] if x and not x.startswith(" ")), line)
                    found.append(f"{path.name}:{n + 1}: {tail}")
        return found
