from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_site.env import channel_layers, database_config, env_bool, env_int, env_list, env_str


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
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("mahjong", "mahjong", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.internal", 5433)
    assert config["CONN_MAX_AGE"] == 0  # no persistent connections under ASGI


def test_no_redis_means_in_memory_channel_layer() -> None:
    assert channel_layers("") == {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def test_redis_url_selects_pubsub_channel_layer() -> None:
    layer = channel_layers("redis://127.0.0.1:6379/0")["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"]}
