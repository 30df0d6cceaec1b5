"""Browser fixtures: a real daphne server in a subprocess and headless Debian Chromium.

`live_server_url` (session): daphne on a free port against a fresh SQLite file, migrated.
`browser` (package): Chromium, closed when tests/browser is done (see the fixture).
`page` (function): a new browser context and page for each test (its own cookies).
Never run `playwright install`: tests use the system Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from tests.conftest import IN_CI
from tests.servers import daphne_on_sqlite, free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.path)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def shared_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis the server and its clock worker share (the in-memory channel layer is per process):
    REDIS_URL when set (CI), else a private redis-server on a free port, else '' (in-memory)."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        yield ""
        return
    port = free_port()
    workdir = tmp_path_factory.mktemp("redis")
    redis = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        redis.terminate()
        redis.wait(timeout=10)


@contextmanager
def serving(workdir: Path, redis_url: str, launcher: tuple[str, ...] = (), **extra_env: str) -> Iterator[str]:
    """Daphne and the table clock against a fresh SQLite file in `workdir`, as `make run`
    starts them; yields the base URL. `extra_env`: settings for this server only (e.g. a
    short CONTINUE_SECONDS); a second server passes its own Redis database in `redis_url`.
    `launcher`: Python arguments both processes start through (e.g. rigged deals,
    tests/browser/rigged.py)."""
    if redis_url:
        extra_env["REDIS_URL"] = redis_url
    # Every browser test signs up from 127.0.0.1 against one database (tests/security tests the
    # per-address limit itself).
    limits = {"SIGNUPS_PER_ADDRESS_PER_HOUR": "10000", "SIGNUPS_PER_ADDRESS_PER_DAY": "10000"}
    with daphne_on_sqlite(workdir, clock=True, launcher=launcher, **{**limits, **extra_env}) as url:
        yield url


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[str]:
    """Base URL (no trailing slash) of a real daphne server with its own SQLite database,
    plus the table clock worker (timers, bots) beside it, as `make run` starts them."""
    with serving(tmp_path_factory.mktemp("live_server"), shared_redis_url) as url:
        yield url


@pytest.fixture(scope="session")
def rigged_url(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[str]:
    """A second server whose hands are dealt from tests/browser/rigs.py (a ready hand for seat 0
    in every variant, the last seat dealing first), with its own Redis database (table ids of
    the two servers' SQLite files overlap)."""
    redis_url = re.sub(r"/\d+$", "/7", shared_redis_url) if shared_redis_url else ""
    launcher = ("-m", "tests.browser.rigged")
    with serving(tmp_path_factory.mktemp("rigged"), redis_url, launcher=launcher) as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    # Package scope: Playwright's sync API keeps an event loop running while it is open,
    # which must be closed before any async test outside tests/browser runs.
    if not shutil.which(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server_url: str) -> Iterator[Page]:
    """A fresh page (own cookies) whose relative URLs resolve against the live server."""
    context = browser.new_context(
        base_url=live_server_url, locale="en-US", viewport={"width": 1100, "height": 800}
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations = csp_violations(page)
    yield page
    context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


def csp_violations(page: Page) -> list[str]:
    """The console messages in which Chromium reports a Content-Security-Policy violation (a
    blocked inline script or style, a refused connection), collected as the page runs: every
    browser test fails on one (the `page` fixture)."""
    found: list[str] = []

    def collect(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            found.append(message.text)

    page.on("console", collect)
    return found
