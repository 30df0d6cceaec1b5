"""Small, pure helpers that turn environment variables into settings values.

Nothing here imports Django settings, so every function can be tested directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
POSTGRES_ENGINE = "mahjong_site.postgres"  # Django's PostgreSQL backend; its pool's check: no round trip
DB_POOL_MAX = 10  # connections per process at most (PostgreSQL's default max_connections is 100)
REPLICA_POOL_TIMEOUT = 2.0  # seconds a page waits for a replica connection before the primary serves it


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
    restart or a terminated backend costs one reconnect, not an error. The backend is Django's
    own with a check that costs no round trip (mahjong_site/postgres/base.py).

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
        config["ENGINE"] = POSTGRES_ENGINE
        config["CONN_HEALTH_CHECKS"] = True  # with a pool: a check on every checkout (no round trip)
        config.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": DB_POOL_MAX}
    return config


def replica_config(replica_url: str, base_dir: Path) -> dict[str, Any]:
    """The `replica` database (DATABASE_REPLICA_URL): a streaming replica of the primary, read by
    the look-back pages (mahjong_site/db_router.py). Its pool hands out a connection within
    REPLICA_POOL_TIMEOUT seconds or fails, so a replica gone down costs a page one retry on the
    primary, not a wait; tests use the primary's test database (MIRROR: it is the same data)."""
    config = database_config(replica_url, base_dir)
    if config["ENGINE"] != POSTGRES_ENGINE:
        raise ValueError("DATABASE_REPLICA_URL must be a PostgreSQL URL (a streaming replica)")
    config["OPTIONS"]["pool"] = {"min_size": 1, "max_size": DB_POOL_MAX, "timeout": REPLICA_POOL_TIMEOUT}
    config["OPTIONS"]["connect_timeout"] = 2
    config["TEST"] = {"MIRROR": "default"}
    return config


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
SENTINEL_SCHEME = "sentinel://"
SENTINEL_PORT = 26379
# Seconds to reach a Redis host or a Sentinel: one that does not answer is skipped (the next
# Sentinel is asked) instead of holding a socket process's loop.
REDIS_CONNECT_TIMEOUT = 2.0


def redis_hosts(redis_url: str) -> list[Any]:
    """REDIS_URL as channels-redis `hosts` (one entry per shard).

    - `redis://host:6379/0`: one Redis.
    - `redis://a:6379/0,redis://b:6379/0`: several Redis hosts; channels-redis shards the
      channels and groups over them (each name lives on one host, chosen by its hash), so every
      process must list the same hosts in the same order.
    - `sentinel://[:password@]s1:26379,s2:26379,s3:26379/mymaster[/db]`: Redis Sentinel; the
      masters' current address is asked of the Sentinels on every (re)connection, so a
      failover costs a reconnect. Several master names (`/shard1,shard2`) shard over several
      Sentinel-watched masters. The password is the masters', not the Sentinels'.

    Redis Cluster is not supported by channels-redis (its pub/sub and keys are not
    cluster-aware): use several hosts or Sentinel instead.
    """
    url = redis_url.strip()
    if url.startswith(SENTINEL_SCHEME):
        return sentinel_hosts(url)
    hosts = [part.strip() for part in url.split(",") if part.strip()]
    for host in hosts:
        if not host.startswith(REDIS_SCHEMES):
            raise ValueError(f"REDIS_URL entry {host!r} is not a redis://, rediss:// or unix:// URL")
    if not hosts:
        raise ValueError("REDIS_URL names no host")
    return hosts


def sentinel_hosts(url: str) -> list[dict[str, Any]]:
    """`sentinel://[:password@]h1:p1,h2:p2/master[,master2][/db]`: one shard per master name."""
    rest = url[len(SENTINEL_SCHEME) :]
    netloc, _, path = rest.partition("/")
    password = ""
    if "@" in netloc:
        userinfo, _, netloc = netloc.rpartition("@")
        password = userinfo.partition(":")[2] if ":" in userinfo else userinfo
    sentinels = [_host_port(part, SENTINEL_PORT) for part in netloc.split(",") if part.strip()]
    names, _, db = path.strip("/").partition("/")
    masters = [name.strip() for name in names.split(",") if name.strip()]
    if not sentinels or not masters:
        raise ValueError(f"REDIS_URL {url!r}: expected sentinel://host:port[,host:port…]/master[/db]")
    if db and not db.isdigit():
        raise ValueError(f"REDIS_URL {url!r}: the database after the master name must be a number")
    shard: dict[str, Any] = {
        "sentinels": sentinels,
        "db": int(db or 0),
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        "sentinel_kwargs": {
            "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
            "socket_timeout": REDIS_CONNECT_TIMEOUT,
        },
    }
    if password:
        shard["password"] = password
    return [{**shard, "master_name": name} for name in masters]


def _host_port(text: str, default_port: int) -> tuple[str, int]:
    text = text.strip()
    if text.startswith("["):  # [::1]:26379
        host, _, port = text[1:].partition("]")
        port = port.lstrip(":")
    else:
        host, _, port = text.rpartition(":") if ":" in text else (text, "", "")
    if not host or (port and not port.isdigit()):
        raise ValueError(f"{text!r} is not host:port")
    return host, int(port or default_port)


def channel_layers(redis_url: str) -> dict[str, Any]:
    """Redis pub/sub layer when REDIS_URL is given (one host, several, or a Sentinel service:
    `redis_hosts`), else the single-process in-memory layer."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    hosts = redis_hosts(redis_url)
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": hosts, "prefix": channel_prefix(hosts[0])},
        }
    }


def channel_prefix(host: str | dict[str, Any]) -> str:
    """The channel layer's name prefix for a Redis database: `asgi` for database 0, `asgi<n>` for
    database n. Pub/sub channels belong to the whole server, not to a database, so without this
    two sites on one Redis under different database numbers would hear each other's groups
    (`table-7` of one is not `table-7` of the other)."""
    if isinstance(host, dict):
        database = int(host.get("db", 0))
    else:
        path = urlsplit(host).path.strip("/")
        database = int(path) if path.isdigit() else 0
    return f"asgi{database}" if database else "asgi"
