"""A screen-reader player at the live table: every discard, claim, prompt and result is said in
the page's aria-live log in the viewer's language, and axe-core finds nothing critical, serious
or moderate on the live board or on the settlement over it.

The deal is rigged (tests/browser/rigs.py): in Shanghai bob (the dealer) discards 4p at once and
alice may win on it or chi it; at two players she wins on his discard.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_accessibility import axe_source  # noqa: F401  (the fixture)
from tests.browser.test_waits_browser import discard, rigged_table

SAID = {
    "en": {
        "discarded": "discarded",
        "four_dots": "4 Dots",
        "choice": "Your choice",
        "turn": "Your turn",
        "you_discarded": "You discarded",
    },
    "zh-hans": {
        "discarded": "打出",
        "four_dots": "四筒",
        "choice": "你可以选择",
        "turn": "轮到你",
        "you_discarded": "你 打出",
    },
}


def announced(page: Page) -> str:
    return page.locator("#table-announcer").inner_text()


def violations(page: Page, axe: str) -> list[str]:
    """Critical, serious and moderate findings of axe-core on the page as it is."""
    page.add_script_tag(content=axe)
    found = json.loads(page.evaluate("async () => JSON.stringify(await axe.run(document))"))["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in ("critical", "serious", "moderate")
    ]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_hand_is_said_in_the_live_log_in_the_viewers_language(
    browser: Browser, rigged_url: str, language: str
) -> None:
    words = SAID[language]
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, private=True)
    log = alice.locator("#table-announcer")
    assert log.get_attribute("aria-live") == "polite"
    discard(bob, "4p", "keyboard")
    expect(alice.locator("#prompt .type-chi")).to_be_visible()
    # bob's discard, said with the tile's name, then what she may do
    expect(log).to_contain_text(words["discarded"])
    expect(log).to_contain_text(words["four_dots"])
    expect(log).to_contain_text(words["choice"])
    # she chis by keyboard (C, then Enter on the first run): her claim said, then her turn
    alice.keyboard.press("c")
    alice.keyboard.press("Enter")
    expect(alice.locator(".hand.clickable")).to_be_visible()
    expect(log).to_contain_text(words["turn"])
    said = announced(alice)
    assert ("吃" in said) if language == "zh-hans" else ("chi" in said.lower()), said
    if language == "zh-hans":  # nothing English said to a Chinese page
        assert "discarded" not in said and "Your" not in said and "Dots" not in said, said
    # on a phone the "then waiting on …" bubble never covers the hand's upper row
    alice.set_viewport_size({"width": 390, "height": 844})
    hinted = alice.locator(".seat.me .hand button.hand-tile[data-waits]").first
    hinted.hover()
    assert hinted.evaluate("e => getComputedStyle(e, '::after').content") == "none"
    alice.set_viewport_size({"width": 1366, "height": 768})
    hinted.hover()
    assert hinted.evaluate("e => getComputedStyle(e, '::after').content") != "none"  # a desktop's hover
    alice.mouse.move(0, 0)
    # her discard by keyboard (→ to a tile, Enter), said in her own words
    alice.keyboard.press("ArrowRight")
    alice.keyboard.press("Enter")
    expect(log).to_contain_text(words["you_discarded"])
    alice.context.close()
    bob.context.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_board_and_settlement_have_no_critical_serious_or_moderate_findings(
    browser: Browser,
    rigged_url: str,
    axe_source: str,  # noqa: F811
    language: str,
) -> None:
    alice, bob = rigged_table(browser, rigged_url, "two_player", language, timers=(60, 45))
    alice.close()
    page = alice.context.browser.new_context(  # type: ignore[union-attr]
        base_url=rigged_url,
        bypass_csp=True,
        viewport={"width": 1366, "height": 768},
        storage_state=alice.context.storage_state(),
    ).new_page()
    page.goto(bob.url)
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    assert violations(page, axe_source) == []  # the live board, her claim to come
    discard(bob, "2z", "drag")
    expect(page.locator("#prompt .type-win")).to_be_visible()
    assert violations(page, axe_source) == []  # the board with a prompt
    page.locator("#prompt .type-win").click()
    expect(page.locator("#settlement.shown")).to_be_visible()
    expect(page.locator("#table-announcer")).to_contain_text(page.locator("#settlement h2").inner_text())
    expect(page.locator("#settlement button.continue")).to_be_focused()  # Enter continues
    assert violations(page, axe_source) == []  # the settlement over the board
    page.set_viewport_size({"width": 390, "height": 844})
    assert violations(page, axe_source) == []
    page.context.close()
    bob.context.close()
