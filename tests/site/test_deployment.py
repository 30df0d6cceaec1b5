"""The production shape (compose.yaml, deploy/nginx.conf, docs/operations.md "compose"), tested
as far as a machine without a container runtime allows: the compose file validates, nginx
accepts its site, every daphne service is behind the proxy, exactly one clock runs, and each
service's own command starts here against the local PostgreSQL and a private Redis.

CI (`.ci/run`) installs docker-compose and nginx so none of this is skipped there."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import lt_stack  # noqa: E402

SECRETS = {"SECRET_KEY": "x" * 50, "POSTGRES_PASSWORD": "compose-test"}
APP_SERVICES = ("migrate", "clock")


def tool(*candidates: list[str]) -> list[str]:
    """The first command of `candidates` that runs (`argv version` answers, or for a bare program,
    it is on the PATH); skipped locally, a failure in CI."""
    for argv in candidates:
        if not shutil.which(argv[0]):
            continue
        if len(argv) == 1 or subprocess.run([*argv, "version"], capture_output=True).returncode == 0:
            return argv
    message = f"none of {[' '.join(c) for c in candidates]} is installed"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true: .ci/run must install it)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """compose.yaml as docker compose reads it (anchors and variables resolved)."""
    return resolved({})


def resolved(extra_env: dict[str, str]) -> dict[str, Any]:
    """compose.yaml resolved with every profile's services (`--profile ha`) and `extra_env`."""
    argv = tool(["docker", "compose"], ["docker-compose"])
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_REPLICA_URL")}
    out = subprocess.run(
        [*argv, "-f", str(ROOT / "compose.yaml"), "--profile", "ha", "config"],
        capture_output=True,
        text=True,
        env={**env, **SECRETS, **extra_env},
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    return yaml.safe_load(out.stdout)


def upstream(conf: str) -> list[str]:
    return sorted(re.findall(r"server\s+([\w-]+):8000", (ROOT / "deploy" / conf).read_text()))


def daphne_services(compose: dict[str, Any]) -> list[str]:
    return sorted(n for n, s in compose["services"].items() if s.get("command", [""])[0] == "daphne")


def test_compose_refuses_to_start_without_its_secrets() -> None:
    argv = tool(["docker", "compose"], ["docker-compose"])
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    out = subprocess.run(
        [*argv, "-f", str(ROOT / "compose.yaml"), "config", "-q"], capture_output=True, text=True, env=env
    )
    assert out.returncode != 0 and "in .env" in out.stderr + out.stdout


def test_one_clock_a_migration_first_and_every_daphne_behind_the_proxy(compose: dict[str, Any]) -> None:
    services = compose["services"]
    clocks = [n for n, s in services.items() if s.get("command", [])[-1:] == ["run_clock"]]
    assert clocks == ["clock"]  # two clocks would both time out the same tables
    daphnes = daphne_services(compose)
    assert len(daphnes) >= 3
    # one host: the services of no profile behind deploy/nginx.conf; `ha`: all behind nginx-ha.conf
    assert upstream("nginx.conf") == [n for n in daphnes if not services[n].get("profiles")]
    assert upstream("nginx-ha.conf") == daphnes
    for name in [*daphnes, "clock"]:
        assert "migrate" in services[name]["depends_on"], name
        assert services[name]["environment"]["DEBUG"] == "0"
    assert all(s["environment"]["CLOCK_IN_PROCESS"] == "0" for n, s in services.items() if n in daphnes)


@pytest.mark.parametrize("conf", ["nginx.conf", "nginx-ha.conf"])
def test_nginx_accepts_the_site(tmp_path: Path, conf: str) -> None:
    argv = tool(["nginx"])
    # the compose service names resolve only inside compose's network: point them at loopback
    site = re.sub(r"daphne-\d+:8000", "127.0.0.1:8000", (ROOT / "deploy" / conf).read_text())
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n include {tmp_path}/site.conf;\n}}\n"
    )
    config = tmp_path / "nginx.conf"
    out = subprocess.run([*argv, "-t", "-c", str(config), "-p", str(tmp_path)], capture_output=True)
    assert out.returncode == 0, out.stderr.decode()


def ha_env() -> dict[str, str]:
    """deploy/ha.env.example, its placeholder password replaced by the test's."""
    lines = (ROOT / "deploy/ha.env.example").read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line and not line.startswith("#"))
    return {k: v.replace("CHANGE-ME", SECRETS["POSTGRES_PASSWORD"]) for k, v in pairs}


def test_the_ha_profile_has_sentinels_a_redis_replica_and_a_postgres_replica_that_the_apps_use() -> None:
    from mahjong_site.env import redis_hosts

    env = ha_env()
    assert env["COMPOSE_PROFILES"] == "ha"
    services = resolved(env)["services"]
    for name in ("redis-replica", "sentinel-1", "sentinel-2", "sentinel-3", "postgres-replica", "daphne-3"):
        assert services[name]["profiles"] == ["ha"], name
    assert services["redis-replica"]["command"][-4:-2] == ["redis", "6379"]  # --replicaof redis 6379
    sentinels = sorted(n for n in services if n.startswith("sentinel-"))
    sentinel_conf = (ROOT / "deploy/sentinel.conf").read_text()
    monitor = re.search(r"^sentinel monitor (\S+) (\S+) (\d+) (\d+)$", sentinel_conf, re.M)
    assert monitor is not None
    master, host, port, quorum = monitor.groups()
    assert (host, port) == ("redis", "6379") and int(quorum) == len(sentinels) // 2 + 1
    assert "port 26379" in sentinel_conf
    for name in sentinels:
        assert any(v.endswith(":/etc/redis/sentinel.conf:ro") for v in services[name]["volumes"]), name
    assert "pg_basebackup -h postgres " in services["postgres-replica"]["command"][0]
    assert any(
        v.endswith("/docker-entrypoint-initdb.d/replication.sh:ro") for v in services["postgres"]["volumes"]
    )
    assert "nginx-ha.conf" in str(services["nginx"]["volumes"])
    for name in ["migrate", "clock", *daphne_services({"services": services})]:
        app = services[name]["environment"]
        (shard,) = redis_hosts(app["REDIS_URL"])
        assert shard["master_name"] == master
        assert sorted(shard["sentinels"]) == [(n, 26379) for n in sentinels]
        assert "@postgres-replica:5432/mahjong" in app["DATABASE_REPLICA_URL"], name


def test_without_the_ha_lines_the_apps_use_one_redis_and_no_replica(compose: dict[str, Any]) -> None:
    for name in ("migrate", "clock", "daphne-1"):
        app = compose["services"][name]["environment"]
        assert app["REDIS_URL"] == "redis://redis:6379/0" and not app["DATABASE_REPLICA_URL"]


@pytest.fixture(scope="module")
def stack(compose: dict[str, Any]) -> Iterator[lt_stack.Stack]:
    """A fresh database (migrated) and a private Redis, no server yet."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        if os.environ.get("CI") == "true":
            pytest.fail("DATABASE_URL is not PostgreSQL (CI=true: .ci/run must provide it)")
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    s = lt_stack.Stack(name="compose_check", procs=0, clock=False).start()
    yield s
    s.stop()


def service_env(stack: lt_stack.Stack, service: dict[str, Any]) -> dict[str, str]:
    """The service's own environment, with its addresses moved to this machine's."""
    env = {**stack.env(), **{k: str(v) for k, v in service["environment"].items()}}
    env.update(DATABASE_URL=stack.database_url, REDIS_URL=stack.redis_url, ALLOWED_HOSTS="127.0.0.1")
    env.update(SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0")  # no TLS proxy in front here
    return env


def run_service(stack: lt_stack.Stack, service: dict[str, Any], port: int) -> subprocess.Popen[bytes]:
    argv = ["127.0.0.1" if a == "0.0.0.0" else str(port) if a == "8000" else a for a in service["command"]]
    argv[0] = str(lt_stack.BIN / argv[0]) if argv[0] in ("daphne", "python") else argv[0]
    return subprocess.Popen(argv, cwd=ROOT, env=service_env(stack, service), stderr=subprocess.PIPE)


@pytest.mark.parametrize("name", APP_SERVICES)
def test_the_migration_and_the_clock_start_with_their_compose_commands(
    compose: dict[str, Any], stack: lt_stack.Stack, name: str
) -> None:
    proc = run_service(stack, compose["services"][name], 0)
    try:
        if name == "migrate":
            assert proc.wait(timeout=120) == 0
        else:
            time.sleep(4)
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait()


def test_each_daphne_service_serves_the_site_with_its_compose_command(
    compose: dict[str, Any], stack: lt_stack.Stack
) -> None:
    for name in daphne_services(compose):
        port = lt_stack.free_port()
        proc = run_service(stack, compose["services"][name], port)
        try:
            lt_stack.wait_port(port, proc=proc)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=10) as page:
                assert page.status == 200 and "麻将" in page.read().decode()
        finally:
            proc.kill()
            proc.wait()
