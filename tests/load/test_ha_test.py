"""The failover test's own logic (scripts/ha_test.py, scripts/ha_stack.py), without starting the
clusters: its processes get the Sentinel and replica settings, and a traceback is an error only
outside every fault's window."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_stack  # noqa: E402
import ha_test  # noqa: E402
import lt_stats  # noqa: E402

from mahjong_site.env import redis_hosts, replica_config  # noqa: E402


def test_the_processes_find_redis_through_the_three_sentinels_and_read_the_replica(tmp_path: Path) -> None:
    stack = ha_stack.HAStack("mahjong_ha_test", procs=0, tmp=tmp_path)
    env = stack.env()
    (shard,) = redis_hosts(env["REDIS_URL"])
    assert shard["master_name"] == ha_stack.MASTER
    assert [port for _, port in shard["sentinels"]] == list(stack.sentinel_ports)
    replica = replica_config(env["DATABASE_REPLICA_URL"], tmp_path)
    assert replica["PORT"] == stack.pg_ports[1] and env["DATABASE_URL"].endswith(
        f":{stack.pg_ports[0]}/mahjong_ha"
    )
    assert len(set(stack.redis_ports + stack.sentinel_ports + stack.pg_ports)) == 7


def test_a_traceback_inside_a_fault_window_is_excused_and_one_outside_is_an_error(tmp_path: Path) -> None:
    stack = ha_stack.HAStack("mahjong_ha_test", procs=0, tmp=tmp_path)
    stack.log_dir.mkdir(parents=True, exist_ok=True)
    log = stack.log_dir / "daphne-0.log"
    before = b"started\n"
    during = b"Exception inside application: x\n  File y\nredis.exceptions.ConnectionError: gone\n"
    after = b"Traceback (most recent call last):\n  File z\nValueError: a bug\n"
    log.write_bytes(before + during + after)
    try:
        stats = lt_stats.Stats()
        stats.log_marks = {"daphne-0.log": log.stat().st_size}
        window: ha_test.Window = [{"daphne-0.log": len(before)}, {"daphne-0.log": len(before + during)}]
        errors, excused = ha_test.server_errors(stack, stats, [window])
        assert excused == 1 and len(errors) == 1 and "ValueError: a bug" in errors[0]
        still_open: ha_test.Window = [{"daphne-0.log": len(before)}, None]  # open to the end of the run
        assert ha_test.server_errors(stack, stats, [still_open]) == ([], 2)
    finally:
        log.unlink()
        stack.log_dir.rmdir()
