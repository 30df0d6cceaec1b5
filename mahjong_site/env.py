"""Small, pure helpers that turn environment variables into settings values.

Nothing here imports Django settings, so every function can be tested directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
DB_POOL_MAX = 10  # connections per process at most (PostgreSQL's default max_connections is 100)


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    """Read a yes/no variable; unset means `default`, an unknown word is an error."""
    raw = environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name, "").strip()
    return int(raw) if raw else default


def env_str(name: str, default: str = "", environ: Mapping[str, str] = os.environ) -> str:
    return environ.get(name, "").strip() or default


def env_list(
    name: str, default: list[str] | None = None, environ: Mapping[str, str] = os.environ
) -> list[str]:
    """Read a comma- or space-separated list; unset or blank means `default`."""
    raw = environ.get(name, "")
    items = [item for item in raw.replace(",", " ").split() if item]
    return items if items else list(default or [])


SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,  # seconds a transaction waits for the write lock
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def database_config(database_url: str, base_dir: Path) -> dict[str, Any]:
    """The `default` database: DATABASE_URL when given, else SQLite beside the code.

    Connections are not kept per thread (CONN_MAX_AGE 0): under ASGI each request may run in
    another thread, and Django advises against persistent connections there. PostgreSQL gets a
    small psycopg connection pool per process instead (a new connection costs ~15 ms, a query
    ~0.1 ms: docs/benchmarks.md); health checks hand out only live connections, so a database
    restart or a terminated backend costs one reconnect, not an error.

    SQLite (`make run`, the browser tests) is written by two processes when the clock runs
    beside daphne, and by daphne's threads: a transaction that reads (the table) and then
    writes would be refused at once ("database is locked") when another writer got in between,
    whatever the timeout. Transactions take the write lock when they begin (IMMEDIATE) and wait
    for it; WAL lets pages be read meanwhile.
    """
    if not database_url:
        database_url = f"sqlite:///{base_dir / 'db.sqlite3'}"
    config = dj_database_url.parse(database_url, conn_max_age=0)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    if config["ENGINE"] == "django.db.backends.postgresql":
        config["CONN_HEALTH_CHECKS"] = True  # with a pool: psycopg_pool's check on every checkout
        config.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": DB_POOL_MAX}
    return config


def channel_layers(redis_url: str) -> dict[str, Any]:
    """Redis pub/sub layer when REDIS_URL is given, else the single-process in-memory layer."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
