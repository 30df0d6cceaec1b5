"""A table laid out like a table, measured in a real browser, and the screenshots a
person looks at (desktop 1366×768, phone 390×844, both languages): at a claim prompt, at your
turn, at the settlement, and the replay viewer.

Deals are rigged (tests/browser/rigs.py): in Shanghai alice (seat 0) is dealt a ready hand and
bob (seat 3, her left, the dealer) discards 4p at once — a claim for her (chi or win). The PNGs go
to $MAHJONG_SHOTS (default /tmp/mahjong-shots), never into the repository.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_waits_browser import discard, rigged_table

SHOTS = shots_dir()
VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}


def shoot(page: Page, name: str) -> None:
    """The page at each viewport, whole: phone portrait must not scroll sideways."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
        if label == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (
                name,
                too_wide(page, width),
            )
    page.set_viewport_size({"width": 1366, "height": 768})


def too_wide(page: Page, width: int) -> list[str]:
    """What sticks out past the viewport's right edge (for the failure message)."""
    return page.evaluate(
        """width => Array.from(document.querySelectorAll('body *'))
             .filter(e => e.getBoundingClientRect().right > width + 1).slice(0, 8)
             .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
        width,
    )


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def assert_seats_around_the_table(page: Page) -> None:
    """Your seat at the bottom; by seat order the next (seat 1) on your right, then across (top),
    then your left (bob, seat 3); each pond between its owner and the centre."""
    assert page.locator('#board .seat.pos-right[data-seat="1"]').count() == 1
    assert page.locator('#board .seat.pos-top[data-seat="2"]').count() == 1
    assert page.locator('#board .seat.pos-left[data-seat="3"]').count() == 1
    info_x, info_y = centre(box(page, "#board .info"))
    assert centre(box(page, "#board .seat.me"))[1] > info_y
    assert centre(box(page, "#board .seat.pos-top"))[1] < info_y
    assert (
        centre(box(page, "#board .seat.pos-left"))[0]
        < info_x
        < centre(box(page, "#board .seat.pos-right"))[0]
    )
    assert (
        centre(box(page, "#board .river.pos-bottom"))[1]
        > info_y
        > centre(box(page, "#board .river.pos-top"))[1]
    )
    assert (
        centre(box(page, "#board .river.pos-left"))[0]
        < info_x
        < centre(box(page, "#board .river.pos-right"))[0]
    )
    # the wall count and the dice in the centre
    expect(page.locator("#board .info .wall-count")).to_be_visible()
    expect(page.locator("#board .info .dice .die")).to_have_count(2)


def pond_columns(page: Page) -> dict[str, int]:
    """Tiles to a row in each pond, by its place on the screen (bottom, right, top, left)."""
    return page.locator("#board .river").evaluate_all(
        """els => Object.fromEntries(els.map(r => [
            [...r.classList].find(c => c.startsWith('pos-')).slice(4),
            getComputedStyle(r).gridTemplateColumns.split(' ').length,
        ]))"""
    )


def hand_tile_width(page: Page) -> float:
    return page.locator(".seat.me .hand .hand-tile img").first.evaluate(
        "e => e.getBoundingClientRect().width"
    )


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_table_layout_at_a_claim_and_at_your_turn(
    browser: Browser, rigged_url: str, language: str
) -> None:
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, private=True)
    assert_seats_around_the_table(alice)
    # the side ponds wrap at six; on a screen this wide the top and bottom ones span the centre
    # at twelve to a row (half the rows), so a long hand's discards still fit their boxes
    assert pond_columns(alice) == {"bottom": 12, "right": 6, "top": 12, "left": 6}

    discard(bob, "4p", "double-click")
    prompt = alice.locator("#prompt")
    expect(prompt.locator(".type-chi")).to_be_visible()
    expect(prompt.locator(".countdown-bar")).to_have_count(0)  # no timer at this private table
    last = alice.locator('#board .river.pos-left .tile.last[data-tile="4p"]')
    expect(last).to_have_count(1)  # the last discard, marked — and offered to her: highlighted
    expect(alice.locator("#board.claim-open")).to_have_count(1)
    shoot(alice, f"claim-{language}")
    alice.set_viewport_size({"width": 390, "height": 844})
    assert hand_tile_width(alice) >= 40
    alice.set_viewport_size({"width": 844, "height": 390})  # a phone held sideways
    alice.wait_for_timeout(400)
    alice.screenshot(path=str(SHOTS / f"claim-{language}-landscape.png"), full_page=True)
    assert alice.evaluate("document.documentElement.scrollWidth") <= 844, too_wide(alice, 844)
    alice.set_viewport_size({"width": 1366, "height": 768})

    # chi 2p3p4p: the claimed 4p lies sideways on the left (it came from her left), bob's pond
    # shows it taken, and it is her turn
    prompt.locator(".type-chi").first.click()
    claimed = alice.locator("#board .seat.me .meld .tile.claimed")
    expect(claimed).to_have_count(1)
    expect(claimed).to_have_class(re.compile(r"\bfrom-left\b"))
    assert alice.locator("#board .seat.me .meld .tile").first.get_attribute("data-tile") == "4p"
    assert "matrix" in claimed.locator("img").evaluate("e => getComputedStyle(e).transform")  # rotated
    size = claimed.bounding_box()
    assert size and size["width"] > size["height"]  # lying sideways
    expect(alice.locator('#board .river.pos-left .tile.dimmed[data-tile="4p"]')).to_have_count(1)
    expect(alice.locator(".hand.clickable")).to_be_visible()
    shoot(alice, f"turn-{language}")
    alice.set_viewport_size({"width": 390, "height": 844})
    assert hand_tile_width(alice) >= 40
    alice.set_viewport_size({"width": 1366, "height": 768})

    # her discard: marked as the last one, in her own pond at the bottom
    discard(alice, "9m", "drag")
    expect(alice.locator('#board .river.pos-bottom .tile.last[data-tile="9m"]')).to_have_count(1)
    alice.context.close()
    bob.context.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_settlement_and_the_replay(browser: Browser, rigged_url: str, language: str) -> None:
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, private=True)
    discard(bob, "4p", "drag")
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    alice.keyboard.press("h")
    expect(alice.locator("#settlement.shown")).to_be_visible()
    shoot(alice, f"settlement-{language}")

    alice.goto("/accounts/profile/")
    alice.locator("a[href$='/history/']").first.click()
    alice.locator(".hand-item .replay-link").first.click()  # beside the summary, not inside it
    expect(alice).to_have_url(re.compile(r"/hands/\d+/replay/"))
    expect(alice.locator("#replay-board")).to_be_visible()
    shoot(alice, f"replay-start-{language}")
    alice.keyboard.press("End")
    expect(alice.locator("#replay-settlement")).to_be_visible()
    shoot(alice, f"replay-end-{language}")
    alice.context.close()
    bob.context.close()
