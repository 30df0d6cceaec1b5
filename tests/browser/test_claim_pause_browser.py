"""The pause after a discard on the board in a real browser: no frame marks its end for anybody
but the seat to play (docs/protocol.md, "Claim windows"), so the page counts it down itself.

On the rigged deal (tests/browser/rigs.py) bob's first discard is alice's wait: she is in a claim
window (her Win button, her timer), he is outside it and sees the pause, then — with no frame
from the server — that the table waits for the next move.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser import rigs
from tests.browser.test_waits_browser import discard, rigged_table

PAUSE_MS = 2500  # long enough to see the pause before it runs out on a busy machine


def test_the_pause_is_counted_down_by_the_page_of_a_player_outside_the_window(
    browser: Browser, rigged_url: str
) -> None:
    alice, bob = rigged_table(browser, rigged_url, "shanghai", "zh-hans", pause_ms=PAUSE_MS)
    discard(bob, rigs.RIGS["shanghai"].discard, "double-click")
    # alice may win on it: her window, with her own timer from the discard's frame on
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    expect(alice.locator(".turn-row .whose-turn")).to_have_text("等待吃碰")
    expect(alice.locator(".countdown.mine")).to_be_visible()
    veil = bob.locator(".turn-row .whose-turn.veil")
    expect(veil.locator(".during-pause")).to_be_visible()
    expect(veil.locator(".after-pause")).to_be_hidden()
    alice.screenshot(path="/tmp/mahjong-claim-pause-alice.png")
    bob.screenshot(path="/tmp/mahjong-claim-pause-bob.png")
    # the pause runs out on bob's page while alice's window stays open: nothing was sent to him
    expect(veil.locator(".after-pause")).to_be_visible(timeout=PAUSE_MS + 5000)
    expect(veil.locator(".during-pause")).to_be_hidden()
    bob.screenshot(path="/tmp/mahjong-claim-pause-bob-after.png")
    alice.keyboard.press("h")  # she wins on it: a change everybody sees
    expect(bob.locator("#settlement.shown")).to_be_visible()
    alice.context.close()
    bob.context.close()
