"""The live table on one screen: at 1366×768, 1280×720, a phone upright (390×844) and sideways
(844×390), in both languages, your hand, your prompt and your clock stay inside the viewport with
no page scroll, and the settlement lies over the board with Continue and its countdown on screen.

A public table with long timers (a clock runs, and outlasts the screenshots), its deal rigged
(tests/browser/rigs.py): alice (seat 0) is dealt a ready hand, bob (the last seat, the dealer)
discards one of her waits at once — a claim for her, with her claim clock beside her hand. At two
players she wins on it: the settlement. Screenshots go to $MAHJONG_SHOTS (default
/tmp/mahjong-shots), never into the repository.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_waits_browser import discard, rigged_table

SHOTS = shots_dir()
SIZES = {"desktop": (1366, 768), "laptop": (1280, 720), "phone": (390, 844), "sideways": (844, 390)}


def outside_the_viewport(page: Page, selectors: list[str]) -> list[str]:
    """Each selector whose first visible element is missing or not wholly inside the viewport."""
    return page.evaluate(
        """selectors => selectors.flatMap(sel => {
             const el = Array.from(document.querySelectorAll(sel)).find(e => e.getClientRects().length);
             if (!el) return [sel + ': not shown'];
             const r = el.getBoundingClientRect();
             const inside = r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
               && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
             return inside ? [] : [sel + ': ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',')];
           })""",
        selectors,
    )


def page_scrolls(page: Page) -> list[str]:
    """Why the page itself would scroll: the document taller or wider than the viewport, or the
    table reaching past the viewport's bottom."""
    return page.evaluate(
        """() => {
             const doc = document.documentElement, out = [];
             if (doc.scrollHeight > innerHeight + 1) out.push('height ' + doc.scrollHeight);
             if (doc.scrollWidth > innerWidth + 1) out.push('width ' + doc.scrollWidth);
             const table = document.querySelector('.table-page').getBoundingClientRect();
             if (table.bottom > innerHeight + 1) out.push('table bottom ' + Math.round(table.bottom));
             return out;
           }"""
    )


def assert_on_one_screen(page: Page, name: str, selectors: list[str]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"))
        assert outside_the_viewport(page, selectors) == [], (name, label)
        assert page_scrolls(page) == [], (name, label)
    page.set_viewport_size({"width": 1366, "height": 768})


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_hand_the_prompt_and_the_clock_fit_one_screen(
    browser: Browser, rigged_url: str, language: str
) -> None:
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, timers=(60, 45))
    discard(bob, "4p", "drag")
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    # the claim: her hand, the prompt's buttons and her clock, beside her hand
    clock = alice.locator("#board .seat.me .hand-row .my-timer .countdown")
    expect(clock).to_be_visible()
    expect(alice.locator("#board .info .countdown")).to_have_count(0)  # not in the centre too
    assert_on_one_screen(
        alice,
        f"one-screen-claim-{language}",
        [
            "#board .seat.me .hand .hand-tile:first-child",
            "#board .seat.me .hand .hand-tile:last-child",
            "#prompt .type-win",
            "#prompt .type-pass",
            "#board .seat.me .my-timer .countdown",
        ],
    )

    alice.context.close()
    bob.context.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_settlement_lies_over_the_board_with_continue_on_screen(
    browser: Browser, rigged_url: str, language: str
) -> None:
    """Two players (the rig's win there leaves bob points to go on, so Continue is offered)."""
    alice, bob = rigged_table(browser, rigged_url, "two_player", language, timers=(60, 45))
    discard(bob, "2z", "drag")
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    alice.locator("#prompt .type-win").click()
    settlement = alice.locator("#settlement.shown")
    expect(settlement).to_be_visible()
    expect(alice.locator("#settlement .continue-countdown strong")).to_be_visible()
    assert_on_one_screen(
        alice,
        f"one-screen-settlement-{language}",
        [
            "#settlement.shown",  # not above the viewport: the panel lies over the board
            "#settlement button.continue",
            "#settlement .continue-countdown",
            "#settlement h2",
        ],
    )
    # on a phone the payments table fits the panel (the balance column is not cut)
    alice.set_viewport_size({"width": 390, "height": 844})
    panel, table, balance = (
        alice.locator(selector).first.evaluate("e => e.getBoundingClientRect().right")
        for selector in ("#settlement", "#settlement .payments", "#settlement .payments th:last-child")
    )
    assert panel <= 390 and table <= panel and balance <= panel, (panel, table, balance)
    # put aside: a bar under the board, Continue and its countdown still on screen, the board clear
    alice.locator("#settlement .settle-toggle").click()
    expect(alice.locator("#settlement.aside .payments")).to_be_hidden()
    assert_on_one_screen(
        alice,
        f"one-screen-settlement-aside-{language}",
        [
            "#settlement .settle-toggle",
            "#settlement button.continue",
            "#settlement .continue-countdown",
            "#board .seat.pos-top",
        ],
    )
    alice.context.close()
    bob.context.close()


def late_ponds(page: Page, tiles: int) -> None:
    """Every pond holding `tiles` discards, as late in a hand (copies of a discard on the board;
    the layout is what is tested, and nothing re-renders the board during the claim)."""
    page.evaluate(
        """n => {
             const tile = document.querySelector('#board .river .tile');
             document.querySelectorAll('#board .river').forEach(river => {
               while (river.querySelectorAll('.tile').length < n) {
                 const copy = tile.cloneNode(true);
                 copy.classList.remove('last');  // one last discard, as on the board
                 river.appendChild(copy);
               }
             });
           }""",
        tiles,
    )


def ponds_spilling(page: Page) -> list[str]:
    """Each pond whose tiles reach outside its box (unless the box scrolls them inside itself),
    or whose box overlaps the centre's information."""
    return page.evaluate(
        """() => {
             const inside = (a, b) => a.left >= b.left - 0.5 && a.top >= b.top - 0.5
               && a.right <= b.right + 0.5 && a.bottom <= b.bottom + 0.5;
             const meet = (a, b) => a.left < b.right && b.left < a.right
               && a.top < b.bottom && b.top < a.bottom;
             const info = document.querySelector('#board .info').getBoundingClientRect();
             const centre = document.querySelector('#board .center').getBoundingClientRect();
             return Array.from(document.querySelectorAll('#board .river')).flatMap(river => {
               const box = river.getBoundingClientRect(), out = [], pos = river.className;
               const clips = getComputedStyle(river).overflowY !== 'visible';
               const spilt = Array.from(river.querySelectorAll('.tile'))
                 .filter(t => !inside(t.getBoundingClientRect(), box)).length;
               if (spilt && !clips) out.push(pos + ': ' + spilt + ' tiles out');
               if (meet(box, info)) out.push(pos + ': over the centre information');
               return out;
             });
           }"""
    )


def newest_discards_cut(page: Page) -> list[str]:
    """Each pond whose newest row of discards is not wholly inside its box (a tile's top cut off
    under the pond's wind label, or its bottom cut off), or whose label lies over one of them or
    has scrolled out of the pond's box with the older rows, or which lies scrolled out of the
    centre (below the information, out of sight)."""
    return page.evaluate(
        """() => {
             const inside = (a, b) => a.left >= b.left - 0.5 && a.top >= b.top - 0.5
               && a.right <= b.right + 0.5 && a.bottom <= b.bottom + 0.5;
             const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
               && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
             const centre = document.querySelector('#board .center').getBoundingClientRect();
             return Array.from(document.querySelectorAll('#board .river')).flatMap(river => {
               const tiles = Array.from(river.querySelectorAll('.tile')).map(t => t.getBoundingClientRect());
               if (!tiles.length) return [];
               const row = tiles.filter(t => Math.abs(t.top - tiles[tiles.length - 1].top) < 1);
               const box = river.getBoundingClientRect();
               const label = river.querySelector('.river-label').getBoundingClientRect();
               const R = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
               if (!inside(label, box))
                 return [river.className + ': wind label ' + R(label) + ' out of ' + R(box)];
               return row.flatMap(t => {
                 if (!inside(t, box)) return [river.className + ': tile ' + R(t) + ' cut by ' + R(box)];
                 if (meet(t, label)) return [river.className + ': tile ' + R(t) + ' under ' + R(label)];
                 if (!inside(t, centre)) return [river.className + ': tile ' + R(t) + ' out of ' + R(centre)];
                 return [];
               });
             });
           }"""
    )


PHONES = {"phone": (390, 844), "sideways": (844, 390)}


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_discard_offered_to_you_shows_whole_in_its_pond_on_a_phone(
    browser: Browser, rigged_url: str, language: str, size: str
) -> None:
    """Bob's 4p arrives while the table is on a phone: the pond scrolls to its newest discard
    (board.js), and the claim's mark under that tile must not push the tile's top out of the pond,
    under bob's wind label."""
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, timers=(60, 45))
    width, height = PHONES[size]
    alice.set_viewport_size({"width": width, "height": height})
    discard(bob, "4p", "drag")
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    expect(alice.locator('#board.claim-open .river.pos-left .tile.last[data-tile="4p"]')).to_have_count(1)
    alice.wait_for_timeout(250)
    SHOTS.mkdir(parents=True, exist_ok=True)
    alice.screenshot(path=str(SHOTS / f"offered-discard-{language}-{size}.png"))
    assert newest_discards_cut(alice) == [], (language, size)
    assert page_scrolls(alice) == [], (language, size)
    alice.context.close()
    bob.context.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_full_ponds_stay_in_their_boxes_and_leave_the_hand_on_screen(
    browser: Browser, rigged_url: str, language: str
) -> None:
    """Late in a four-player hand (four rows of discards in every pond): no pond spills over the
    centre's information or its neighbours, at every size, and the hand and prompt stay on screen."""
    alice, bob = rigged_table(browser, rigged_url, "shanghai", language, timers=(60, 45))
    discard(bob, "4p", "drag")
    expect(alice.locator("#prompt .type-win")).to_be_visible()
    late_ponds(alice, 21)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in SIZES.items():
        alice.set_viewport_size({"width": width, "height": height})
        alice.wait_for_timeout(250)
        assert ponds_spilling(alice) == [], (language, label)
        # each pond scrolled to its end, as board.js does when a frame arrives at this size
        alice.evaluate("document.dispatchEvent(new Event('htmx:wsAfterMessage'))")
        alice.wait_for_timeout(100)
        alice.screenshot(path=str(SHOTS / f"late-ponds-{language}-{label}.png"))
        assert newest_discards_cut(alice) == [], (language, label)
        selectors = ["#board .seat.me .hand .hand-tile:last-child", "#prompt .type-win"]
        assert outside_the_viewport(alice, selectors) == [], (language, label)
        assert page_scrolls(alice) == [], (language, label)
    alice.context.close()
    bob.context.close()
