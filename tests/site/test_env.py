from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_site.env import (
    channel_layers,
    database_config,
    env_bool,
    env_int,
    env_list,
    env_str,
    redis_hosts,
    replica_config,
)


@pytest.mark.parametrize("raw", ["1", "true", "True", "YES", "on", " 1 "])
def test_env_bool_true_words(raw: str) -> None:
    assert env_bool("X", False, {"X": raw}) is True


@pytest.mark.parametrize("raw", ["0", "false", "No", "off", ""])
def test_env_bool_false_words(raw: str) -> None:
    assert env_bool("X", True, {"X": raw}) is False


def test_env_bool_unset_is_default() -> None:
    assert env_bool("X", True, {}) is True
    assert env_bool("X", False, {}) is False


def test_env_bool_rejects_unknown_word() -> None:
    with pytest.raises(ValueError, match="not a boolean"):
        env_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_env_int_and_str() -> None:
    assert env_int("N", 7, {}) == 7
    assert env_int("N", 7, {"N": " 42 "}) == 42
    assert env_str("S", "dflt", {}) == "dflt"
    assert env_str("S", "dflt", {"S": "  "}) == "dflt"
    assert env_str("S", "dflt", {"S": "value"}) == "value"


def test_env_list_splits_on_commas_and_spaces() -> None:
    env = {"HOSTS": "example.com, www.example.com  api.example.com,"}
    assert env_list("HOSTS", [], env) == ["example.com", "www.example.com", "api.example.com"]


def test_env_list_blank_is_default() -> None:
    assert env_list("HOSTS", ["localhost"], {"HOSTS": " , "}) == ["localhost"]
    assert env_list("HOSTS", None, {}) == []


@given(st.lists(st.from_regex(r"[a-z0-9.\-:/\[\]]{1,20}", fullmatch=True), min_size=1))
def test_env_list_round_trips_joined_items(items: list[str]) -> None:
    assert env_list("L", [], {"L": ",".join(items)}) == items


def test_database_defaults_to_sqlite_beside_the_code(tmp_path: Path) -> None:
    config = database_config("", tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    # two writers (daphne and the clock): transactions wait for the write lock, never refused
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database_config(f"sqlite:///{tmp_path / 'x.sqlite3'}", tmp_path)["OPTIONS"] == config["OPTIONS"]


def test_database_url_selects_postgres(tmp_path: Path) -> None:
    config = database_config("postgres://mahjong:secret@db.internal:5433/mahjong", tmp_path)
    assert config["ENGINE"] == "mahjong_site.postgres"  # Django's, its pool's check without a round trip
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("mahjong", "mahjong", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.internal", 5433)
    assert config["CONN_MAX_AGE"] == 0  # no persistent connections under ASGI


def test_no_redis_means_in_memory_channel_layer() -> None:
    assert channel_layers("") == {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_redis_url_selects_pubsub_channel_layer() -> None:
    layer = channel_layers("redis://127.0.0.1:6379/0")["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"], "prefix": "asgi"}


def test_several_redis_hosts_shard_the_channel_layer() -> None:
    layer = channel_layers("redis://a:6379/0, redis://b:6380/0")["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"] == {"hosts": ["redis://a:6379/0", "redis://b:6380/0"], "prefix": "asgi"}


@pytest.mark.parametrize(
    ("url", "prefix"),
    [
        ("redis://127.0.0.1:6379", "asgi"),
        ("redis://127.0.0.1:6379/0", "asgi"),
        ("redis://127.0.0.1:6379/7", "asgi7"),
        ("redis://:pw@a:6379/12, redis://b:6380/12", "asgi12"),
        ("sentinel://h1:26379/mymaster/3", "asgi3"),
        ("unix:///run/redis.sock", "asgi"),
    ],
)
def test_the_channel_prefix_follows_the_redis_database(url: str, prefix: str) -> None:
    # pub/sub channels are server-wide: the database number is what keeps two sites apart
    assert channel_layers(url)["default"]["CONFIG"]["prefix"] == prefix


def test_a_sentinel_url_names_the_sentinels_and_the_master() -> None:
    (shard,) = redis_hosts("sentinel://h1:26379,h2:26380,h3/mymaster")
    assert shard["sentinels"] == [("h1", 26379), ("h2", 26380), ("h3", 26379)]
    assert shard["master_name"] == "mymaster" and shard["db"] == 0
    assert "password" not in shard
    # a Sentinel or master that does not answer is given up, not waited for
    assert shard["socket_connect_timeout"] > 0 and shard["sentinel_kwargs"]["socket_timeout"] > 0


def test_a_sentinel_url_with_a_password_a_database_and_two_masters_makes_two_shards() -> None:
    shards = redis_hosts("sentinel://:s3cret@[::1]:26379,10.0.0.2:26379/one,two/3")
    assert [s["master_name"] for s in shards] == ["one", "two"]
    assert all(s["password"] == "s3cret" and s["db"] == 3 for s in shards)
    assert shards[0]["sentinels"] == [("::1", 26379), ("10.0.0.2", 26379)]


def test_the_sentinel_layer_is_the_one_channels_redis_builds_a_sentinel_pool_from() -> None:
    from channels_redis.utils import create_pool
    from redis.asyncio.sentinel import SentinelConnectionPool

    (host,) = channel_layers("sentinel://127.0.0.1:26379/mymaster")["default"]["CONFIG"]["hosts"]
    pool = create_pool(host)
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "mymaster"


@pytest.mark.parametrize(
    "url",
    [
        "sentinel://h1:26379",  # no master name
        "sentinel:///mymaster",  # no Sentinel
        "sentinel://h1:port/mymaster",
        "sentinel://h1:26379/mymaster/zero",
        "redis://a:6379/0,b:6379",  # every shard is a whole URL
        "redis-cluster://a:6379",  # Redis Cluster: channels-redis does not support it
        " , ",
    ],
)
def test_a_redis_url_that_cannot_be_read_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        redis_hosts(url)


def test_the_replica_database_is_postgres_with_a_short_pool_wait(tmp_path: Path) -> None:
    config = replica_config("postgres://reader:pw@replica.internal:5432/mahjong", tmp_path)
    assert config["HOST"] == "replica.internal"
    assert config["OPTIONS"]["pool"]["timeout"] <= 5  # a replica gone down: the primary serves, soon
    assert config["TEST"] == {"MIRROR": "default"}
    with pytest.raises(ValueError):
        replica_config("sqlite:///x.sqlite3", tmp_path)
