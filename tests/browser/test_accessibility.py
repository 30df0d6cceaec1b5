"""axe-core in both languages: no serious or critical violations on the lobby, the board during a
hand and the settlement; none that is even moderate on every page that is not the
live board (the lobby, the create form, quick match, history, a replay, an opened record, ranks,
the rules, the fairness page, the profile, log in and sign up).

axe-core comes from the npm registry at test time (pinned below), into a cache folder outside the
repository; the site itself ships no build step and no npm dependency.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_keyboard import press_start
from tests.browser.test_play import create_table, play_until_settlement, sign_up, start
from tests.conftest import IN_CI

AXE_VERSION = "4.10.3"
AXE_PACKAGE = f"axe-core@{AXE_VERSION}"
CACHE = Path.home() / ".cache" / "mahjong-online" / f"axe-core-{AXE_VERSION}"


@pytest.fixture(scope="module")
def axe_source() -> str:
    script = CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            if IN_CI:
                pytest.fail("npm is needed to fetch axe-core")
            pytest.skip("npm is missing")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(CACHE), AXE_PACKAGE],
            check=True,
            timeout=300,
        )
    return script.read_text(encoding="utf-8")


@pytest.fixture
def axe_page(browser: Browser, live_server_url: str) -> Iterator[Page]:
    """Like the `page` fixture, but axe's script (the test's, not the site's) may be injected:
    the site's Content-Security-Policy forbids inline scripts, so this context bypasses it."""
    context = browser.new_context(
        base_url=live_server_url, locale="en-US", viewport={"width": 1100, "height": 800}, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


SERIOUS = ("serious", "critical")
MODERATE_OR_WORSE = ("moderate", "serious", "critical")


def serious_violations(page: Page, axe: str, impacts: tuple[str, ...] = SERIOUS) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    found = json.loads(result)["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in impacts
    ]


def page_violations(page: Page, axe: str) -> list[str]:
    """Everything moderate, serious or critical on the page as it is now, named by its address."""
    return [f"{page.url}: {v}" for v in serious_violations(page, axe, MODERATE_OR_WORSE)]


def speak(page: Page, language: str) -> None:
    root = re.match(r"https?://[^/]+/", page.url).group(0)  # the cookie's path is taken from its URL
    page.context.add_cookies([{"name": "django_language", "value": language, "url": root}])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_lobby_board_and_settlement_have_no_serious_violations(
    axe_page: Page, axe_source: str, language: str
) -> None:
    page = axe_page
    sign_up(page)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.url}])
    page.goto("/lobby/")
    assert serious_violations(page, axe_source) == []
    if language == "en":
        create_table(page, "shanghai")
    else:
        practice(page)  # the lobby's one-click practice table
    press_start(page)
    expect(page.locator(".hand .hand-tile").first).to_be_visible()
    assert serious_violations(page, axe_source) == []
    play_until_settlement(page)
    assert serious_violations(page, axe_source) == []


def practice(page: Page) -> None:
    page.goto("/lobby/")
    page.locator("#play-variant").select_option("shanghai")
    page.locator("#practice-button").click()
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_pages_around_the_board_have_no_moderate_or_worse_violations(
    axe_page: Page, axe_source: str, language: str, tmp_path: Path
) -> None:
    page = axe_page
    found: list[str] = []
    page.goto("/")
    speak(page, language)
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/fairness/", "/rules/", "/rules/shanghai/"):
        page.goto(url)
        found += page_violations(page, axe_source)

    speak(page, "en")  # the helpers below click English names
    username = sign_up(page)
    create_table(page, "two_player")
    start(page)
    play_until_settlement(page)
    speak(page, language)

    page.goto(f"/users/{username}/history/")
    page.locator("details.hand summary").first.click()  # its settlement open too
    found += page_violations(page, axe_source)
    page.locator(".hand-item .replay-link").first.click()
    expect(page.locator("#replay-step")).to_have_text("0")
    found += page_violations(page, axe_source)
    page.keyboard.press("End")
    expect(page.locator("#replay-settlement")).to_be_visible()
    page.locator("#replay-fairness summary").click()
    found += page_violations(page, axe_source)
    with page.expect_download() as download:
        page.locator("#download-record").click()
    record = tmp_path / "hand.json"
    download.value.save_as(record)

    page.goto("/replays/open/")
    found += page_violations(page, axe_source)
    page.locator("#record-file").set_input_files(str(record))
    page.locator("#open-record-submit").click()
    expect(page.locator("#replay-step")).to_have_text("0")
    found += page_violations(page, axe_source)
    page.keyboard.press("End")
    expect(page.locator("#replay-settlement")).to_be_visible()
    found += page_violations(page, axe_source)
    page.locator("#open-record-review").click()  # the opened record's review
    expect(page.locator("#review-summary-title")).to_be_visible()
    found += page_violations(page, axe_source)

    page.goto("/tables/new/")
    page.locator("details.advanced summary").click()
    found += page_violations(page, axe_source)
    for url in (
        "/lobby/",
        "/play/",
        "/leaderboard/",
        "/leaderboard/?variant=two_player",
        "/accounts/profile/",
        "/accounts/profile/ledger/",
    ):
        page.goto(url)
        found += page_violations(page, axe_source)
    assert found == []
