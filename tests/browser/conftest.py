"""Browser fixtures: a real daphne server in a subprocess and headless Debian Chromium.

`live_server_url` (session): daphne on a free port against a fresh SQLite file, migrated.
`browser` (package): Chromium, closed when tests/browser is done (see the fixture).
`page` (function): a new browser context and page for each test (its own cookies).
Never run `playwright install`: tests use the system Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from tests.conftest import IN_CI

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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with {server.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer on {url} within {timeout}s:\n{log.read_text()}")


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
    port = _free_port()
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


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def serving(workdir: Path, redis_url: str, **extra_env: str) -> Iterator[str]:
    """Daphne and the table clock against a fresh SQLite file in `workdir`, as `make run`
    starts them; yields the base URL. `extra_env`: settings for this server only (e.g. a
    short CONTINUE_SECONDS); a second server passes its own Redis database in `redis_url`."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1 localhost",
        PYTHONUNBUFFERED="1",
        # Every browser test signs up from 127.0.0.1 against one database (tests/security
        # tests the per-address limit itself).
        SIGNUPS_PER_ADDRESS_PER_HOUR="10000",
        SIGNUPS_PER_ADDRESS_PER_DAY="10000",
        **extra_env,
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    log = workdir / "daphne.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "mahjong_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    with (workdir / "clock.log").open("wb") as out:
        clock = subprocess.Popen(
            [sys.executable, "manage.py", "run_clock"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_serving(url + "/", server, log)
        yield url
    finally:
        _stop(clock)
        _stop(server)


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[str]:
    """Base URL (no trailing slash) of a real daphne server with its own SQLite database,
    plus the table clock worker (timers, bots) beside it, as `make run` starts them."""
    with serving(tmp_path_factory.mktemp("live_server"), shared_redis_url) as url:
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
