"""Keyboard-only play of a whole hand, the keys help, and an English board that stays English
over many live updates."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.browser.test_play import HAND_TIMEOUT, create_table, sign_up, start_the_hand, tab_to
from tests.i18n_helpers import chinese_only_in


def press_start(page: Page) -> None:
    start_the_hand(page, by_keyboard=True)


def play_by_keyboard(page: Page) -> int:
    """Win with H, pass with Esc, discard with ←/→ and Enter; returns how many tiles it discarded."""
    discarded = 0
    deadline = time.monotonic() + HAND_TIMEOUT
    while time.monotonic() < deadline:
        if page.locator("#settlement.shown").count():
            return discarded
        if page.locator("#prompt .type-win").count():
            page.keyboard.press("h")
        elif page.locator("#prompt .type-pass").count():
            page.keyboard.press("Escape")
        elif page.locator("#prompt .tone-choose").count():  # pre-hand choices: Tab to one, Enter
            tab_to(page, "#prompt .tone-choose")
            page.keyboard.press("Enter")
        elif page.locator(".hand.clickable button.hand-tile:not(.disabled)").count():
            page.keyboard.press("ArrowRight")  # into the hand (or one tile on)
            focused = page.evaluate("document.activeElement.className")
            if "hand-tile" in focused and "disabled" not in focused:
                page.keyboard.press("Enter")
                discarded += 1
        else:
            page.wait_for_timeout(150)
            continue
        page.wait_for_timeout(100)
    raise AssertionError(f"no settlement within {HAND_TIMEOUT}s")


def test_a_whole_hand_by_keyboard_in_english_that_stays_english(page: Page) -> None:
    sign_up(page)
    create_table(page, "cantonese")
    page.evaluate(
        """window.__frames = 0; document.addEventListener('htmx:wsAfterMessage', () => window.__frames++);
           window.__pointer = 0; document.addEventListener('pointerdown', () => window.__pointer++, true)"""
    )
    press_start(page)
    assert play_by_keyboard(page) > 0  # tiles discarded with Enter
    frames = page.evaluate("window.__frames")
    assert frames >= 20, frames
    assert page.evaluate("window.__pointer") == 0  # from Start to the settlement: keys only
    text = page.locator("#table-root").inner_text()
    assert not chinese_only_in(text), (chinese_only_in(text), text[:1500])
    expect(page.locator("#settlement.shown")).to_contain_text("Settlement")


def test_question_mark_shows_the_keys_and_escape_hides_them(page: Page) -> None:
    sign_up(page)
    create_table(page, "shanghai")
    help_box = page.locator("#keys-help")
    expect(help_box).to_be_hidden()
    page.keyboard.press("?")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("pong")
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    switch = page.locator("[data-sound-switch]")
    before = switch.get_attribute("aria-pressed")
    switch.click()
    assert switch.get_attribute("aria-pressed") != before
    page.reload()
    assert page.locator("[data-sound-switch]").get_attribute("aria-pressed") != before  # remembered
