"""Fixtures shared by every test package.

People: `alice` (with `alice_client`, logged in), `bob`, and `anon_client` (nobody logged in).
Services: `redis_url` and `postgres` skip locally when the service is not configured, but fail
under CI=true, where .ci/run provides both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings

from tests.servers import two_daphnes_and_a_clock

PASSWORD = "green-dragon-42"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(autouse=True, scope="session")
def _plain_static_storage() -> Iterator[None]:
    """Tests never need collectstatic, even when run with DEBUG=0."""
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        yield


@pytest.fixture(autouse=True, scope="session")
def _collector_defaults() -> None:
    """Importing the ASGI application (collecting tests does) tunes the garbage collector for a
    long-running server; tests run with its defaults (tests/site/test_gc_tuning.py tests it)."""
    from mahjong_site import gc_tuning

    gc_tuning.uninstall()


@pytest.fixture(autouse=True)
def _reviews_where_the_test_says(settings: Any) -> None:
    """Reviews are computed where a test puts them (its own `submit`), never on a thread that a
    clock the test ticks would start (REVIEWS_ON_CLOCK is on in CI, where REDIS_URL is set)."""
    settings.REVIEWS_ON_CLOCK = False


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> Iterator[None]:
    """Each test starts like a fresh process: no kept snapshots, hand states or views (a test
    database rolled back may give an id again)."""
    from common import caches  # (a cache registers when its module is imported)

    caches.clear_all()
    yield
    from common import loop_db
    from common.db_threads import release_kept

    release_kept()  # (a play thread's kept connection would outlive the test's database)
    loop_db.release_all()  # (and so would a loop's)


@pytest.fixture(autouse=True)
def _reproducible_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand a test deals takes its salt from the test's name and a counter, so a test that
    passes once passes every time, and a failure replays exactly. The salt still differs hand by
    hand and test by test. MAHJONG_TEST_RANDOM_DEALS=1 deals from the CSPRNG instead, to explore.
    (Browser tests run the site in its own process and deal at random.)"""
    if os.environ.get("MAHJONG_TEST_RANDOM_DEALS"):
        return
    import hashlib
    import itertools

    from games.table import play

    counter = itertools.count()
    monkeypatch.setattr(
        play,
        "new_salt",
        lambda: hashlib.sha256(f"{request.node.nodeid}:{next(counter)}".encode()).hexdigest(),
    )


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, password=PASSWORD)


def logged_in_client(user: User) -> Client:
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    return client


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def alice_client(alice: User) -> Client:
    return logged_in_client(alice)


@pytest.fixture
def anon_client() -> Client:
    return Client()


def _missing_service(message: str) -> None:
    if IN_CI:
        pytest.fail(f"{message} (CI=true: .ci/run must provide it)")
    pytest.skip(message)


@pytest.fixture
def redis_url() -> str:
    """The REDIS_URL to test against; skipped locally without one, a failure in CI."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        _missing_service("REDIS_URL is not set")
    return url


@pytest.fixture
def postgres(db: None) -> None:
    """Requires the tests to run on PostgreSQL (DATABASE_URL); skipped locally, a failure in CI."""
    if connection.vendor != "postgresql":
        _missing_service(f"DATABASE_URL is not PostgreSQL (running on {connection.vendor})")


def _database_url() -> str:
    """The test database (committed rows, transaction=True) as a URL for the subprocesses."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def test_database_url(postgres: None) -> str:
    """The PostgreSQL test database as a URL, for a subprocess that must read committed rows."""
    return _database_url()


@pytest.fixture
def stack(redis_url: str, postgres: None, tmp_path: Path) -> Iterator[list[str]]:
    """Two daphne processes and one clock worker over PostgreSQL and Redis; yields the two base URLs."""
    with two_daphnes_and_a_clock(_database_url(), redis_url, tmp_path) as urls:
        yield urls
