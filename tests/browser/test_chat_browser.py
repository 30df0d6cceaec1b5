"""Table chat in a real browser: a phrase button and free text at a private (practice) table
appear in the chat log over the socket; markup typed is shown as text."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_play import sign_up

SHOTS = shots_dir("chat")


def practice(page: Page, variant: str = "shanghai") -> None:
    page.goto("/lobby/")
    page.locator("#play-variant").select_option(variant)
    page.locator("#practice-button").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")


def test_phrases_and_free_text_at_a_private_table(page: Page) -> None:
    sign_up(page)
    practice(page)
    page.locator(".chat-phrase", has_text="打得好").click()
    expect(page.locator("#chat-log .chat-line").last).to_contain_text("Nice hand")
    page.locator("#chat-text").fill("<b>good luck</b> everyone")
    page.locator(".chat-form button[type=submit]").click()
    line = page.locator("#chat-log .chat-line.free").last
    expect(line).to_contain_text("<b>good luck</b> everyone")  # the markup as text
    assert page.locator("#chat-log b").count() == 0
    expect(page.locator("#chat-text")).to_have_value("")  # the box is cleared after sending
    assert page.locator("#chat-log .chat-mute").count() == 0  # nobody to mute but yourself
    page.screenshot(path=f"{SHOTS}/chat-desktop-en.png", full_page=True)


def test_the_chat_on_a_phone_in_chinese(browser: Browser, live_server_url: str) -> None:
    context = browser.new_context(base_url=live_server_url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page)
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server_url}])
    practice(page, "two_player")
    page.locator(".drawer-toggle").click()  # on a phone the chat is in the drawer over the board
    expect(page.locator("#table-drawer")).to_be_visible()
    page.locator(".chat-phrase", has_text="快点吧").click()
    expect(page.locator("#chat-log .chat-line").last).to_contain_text("快点吧")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=f"{SHOTS}/chat-phone-zh.png", full_page=True)
    context.close()
