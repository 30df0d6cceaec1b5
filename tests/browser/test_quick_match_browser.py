"""Quick match in real browsers: four strangers press the lobby's Quick match button for
Shanghai, land at one table and play a hand to the settlement; the waiting page in both
languages and on a phone."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_play import HAND_TIMEOUT, click_if_visible, sign_up

SHOTS = shots_dir("quick-match")
PROMPT_BUTTONS = ("#prompt button.tone-win", "#prompt button.tone-choose", "#prompt button.tone-pass")


def _player(
    browser: Browser, url: str, chinese: bool = False, phone: bool = False
) -> tuple[BrowserContext, Page]:
    """A new account in its own browser context (signed up in English, then in Chinese if asked)."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1366, "height": 768}
    context = browser.new_context(base_url=url, locale="en-US", viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page)
    if chinese:
        context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": url}])
    return context, page


def press_quick_match(page: Page, variant: str = "shanghai") -> None:
    page.goto("/lobby/")
    form = page.locator("form.lobby-play")
    form.locator("select[name=variant]").select_option(variant)
    form.locator("select[name=level]").select_option("bronze")
    form.locator("#quick-match-button").click()


def play_round_robin(pages: list[Page]) -> None:
    """Every player clicks what they can (win, choose, pass, else discard) until all see the
    settlement."""
    deadline = time.monotonic() + HAND_TIMEOUT
    while time.monotonic() < deadline:
        if all(p.locator("#settlement.shown").count() for p in pages):
            return
        for page in pages:
            if page.locator("#settlement.shown").count():
                continue
            for selector in (
                "#prompt button.tone-win",
                "#prompt button.tone-choose",
                "#prompt button.tone-pass",
            ):
                if click_if_visible(page, selector):
                    break
            else:
                click_if_visible(
                    page, ".hand.clickable button.hand-tile:not(.disabled) >> nth=-1", double=True
                )
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"no settlement within {HAND_TIMEOUT}s")


def test_four_strangers_press_quick_match_and_play_a_hand(browser: Browser, live_server_url: str) -> None:
    players = [_player(browser, live_server_url) for _ in range(3)]
    players.append(_player(browser, live_server_url, chinese=True, phone=True))
    pages = [page for _context, page in players]
    press_quick_match(pages[0])
    expect(pages[0]).to_have_url(re.compile(r"/play/$"))
    expect(pages[0].locator("#queue-status")).to_contain_text("1 / 4")
    pages[0].screenshot(path=f"{SHOTS}/queue-waiting-desktop-en.png", full_page=True)
    for page in pages[1:]:
        press_quick_match(page)
    pages[3].goto("/play/")  # the last one is seated at once (or follows its redirect)
    for page in pages:
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=20_000)
    tables = {re.search(r"/tables/(\d+)/", page.url).group(1) for page in pages}
    assert len(tables) == 1, tables
    for page in pages:
        expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
        expect(page.locator("#board.in-hand")).to_be_visible()
    pages[0].screenshot(path=f"{SHOTS}/quick-table-desktop.png", full_page=True)
    watcher, spectator = _player(browser, live_server_url)
    spectator.goto(pages[0].url)
    expect(spectator.locator("#table-root")).to_have_attribute("data-synced", "1")
    expect(spectator.locator(".banner.watching")).to_contain_text("s behind (spectator delay)")
    assert spectator.locator("#board.in-hand").count() == 0  # the hand began under 3 minutes ago
    spectator.screenshot(path=f"{SHOTS}/quick-spectator-delayed.png", full_page=True)
    pages[3].screenshot(path=f"{SHOTS}/quick-table-phone-zh.png", full_page=True)
    play_round_robin(pages)
    settlement = pages[0].locator("#settlement")
    expect(settlement.locator("table.payments")).to_be_visible()
    assert settlement.locator("tbody tr").count() == 4
    # the hand is over for the players; the spectator sees its end only 3 minutes later
    assert spectator.locator("#settlement.shown").count() == 0
    for context, _page in [*players, (watcher, spectator)]:
        context.close()


def test_the_waiting_page_on_a_phone_in_chinese_and_leaving(browser: Browser, live_server_url: str) -> None:
    context, page = _player(browser, live_server_url, chinese=True, phone=True)
    page.goto("/play/")
    page.locator("form.quick-form select[name=variant]").select_option("tianjin")
    page.locator("form.quick-form select[name=bot_wait]").select_option("0")
    page.locator("form.quick-form button[type=submit]").click()
    expect(page.locator("#queue-status")).to_contain_text("1 / 4")
    page.wait_for_timeout(2500)  # a poll has come and gone: still queued
    expect(page.locator("#queue-status")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=f"{SHOTS}/queue-waiting-phone-zh.png", full_page=True)
    page.locator("form[action='/play/leave/'] button").click()
    expect(page).to_have_url(re.compile(r"/lobby/$"))
    page.screenshot(path=f"{SHOTS}/lobby-phone-zh.png", full_page=True)
    context.close()
