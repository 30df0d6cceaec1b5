"""axe-core on the lobby, the board during a hand and the settlement, in both languages: no
serious or critical violations (issue 17.7).

axe-core comes from the npm registry at test time (pinned below), into a cache folder outside the
repository; the site itself ships no build step and no npm dependency.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_keyboard import press_start
from tests.browser.test_play import create_table, play_until_settlement, sign_up
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


def serious_violations(page: Page, axe: str) -> list[str]:
    page.add_script_tag(content=axe)
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    found = json.loads(result)["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


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
