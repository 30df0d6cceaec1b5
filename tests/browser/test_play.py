"""Playing in a real browser against the real server (daphne + the clock worker, see conftest).

A new user signs up, creates a table with bots, plays a hand to the settlement by clicking
(tiles to discard, prompt buttons for claims and wins), continues into a second hand; a
spectator never sees a concealed tile; a reload mid-hand restores the same board.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import Browser, Page, expect

HAND_TIMEOUT = 300  # seconds: bots play with human-like delays

VARIANT_BOTS = {"shanghai": 3, "yihua": 3, "cantonese": 3, "tianjin": 3, "two_player": 1}


def sign_up(page: Page) -> str:
    username = f"p{uuid.uuid4().hex[:10]}"
    page.goto("/accounts/signup/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill("jade-pagoda-77")
    page.locator("#id_password2").fill("jade-pagoda-77")
    page.locator("form.form").get_by_role("button", name="Sign up").click()
    expect(page.locator("header")).to_contain_text(username)
    return username


def create_table(page: Page, variant: str, public: bool = True) -> int:
    page.goto("/lobby/")
    page.get_by_role("link", name=re.compile("Create table")).click()
    page.locator("#id_variant").select_option(variant)
    page.locator("#id_base").fill("2")
    page.locator("details.advanced summary").click()  # the pause is an advanced setting
    page.locator("#id_pause_ms").fill("0")
    page.locator("#id_bots").fill(str(VARIANT_BOTS[variant]))
    if not public:
        page.locator("#id_public").uncheck()
    page.get_by_role("button", name="Create and sit down").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def start(page: Page) -> None:
    page.locator("#table-side button.start").click()
    expect(page.locator("#board.in-hand")).to_be_visible(timeout=15_000)


def click_if_visible(page: Page, selector: str, double: bool = False) -> bool:
    """Click (`double`: double-click, which discards a tile of the hand at once) the first match."""
    button = page.locator(selector)
    if not button.count():
        return False
    try:
        if double:
            button.first.dblclick(timeout=2_000)
        else:
            button.first.click(timeout=2_000)
    except Exception:  # re-rendered under the pointer: the next round of the loop sees the new board
        return False
    return True


def play_until_settlement(page: Page, on_my_turn=None) -> None:  # noqa: ANN001
    """Click through a hand: win when offered, pass on claims, discard the rightmost tile (a
    double-click: one click only chooses it)."""
    deadline = time.monotonic() + HAND_TIMEOUT
    while time.monotonic() < deadline:
        if page.locator("#settlement.shown").count():
            return
        if click_if_visible(page, "#prompt button.tone-win"):
            continue
        if click_if_visible(page, "#prompt button.tone-choose"):
            continue
        if click_if_visible(page, "#prompt button.tone-pass"):
            continue
        tiles = page.locator(".hand.clickable button.hand-tile:not(.disabled)")
        if tiles.count():
            if on_my_turn is not None:
                on_my_turn()
                on_my_turn = None
            click_if_visible(page, ".hand.clickable button.hand-tile:not(.disabled) >> nth=-1", double=True)
            continue
        page.wait_for_timeout(150)
    raise AssertionError(f"no settlement within {HAND_TIMEOUT}s")


def board_snapshot(page: Page) -> dict[str, object]:
    """What must survive a reload: my hand, every river, the wall count, whose turn."""
    return {
        "hand": page.locator(".hand .hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)"),
        "rivers": page.locator(".river").evaluate_all(
            "els => els.map(r => Array.from(r.querySelectorAll('[data-tile]')).map(t => t.dataset.tile))"
        ),
        "wall": page.locator(".wall-count").inner_text(),
        "melds": page.locator(".melds [data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)"),
    }


def assert_no_concealed_tiles(page: Page) -> None:
    assert page.locator(".hand-tile").count() == 0
    assert page.locator(".concealed [data-tile]").count() == 0
    assert page.locator("[ws-send]").count() == 0


def test_play_a_hand_spectate_reload_and_continue(page: Page, browser: Browser, live_server_url: str) -> None:
    sign_up(page)
    table_id = create_table(page, "shanghai")
    page.screenshot(path="/tmp/mahjong-table-waiting.png", full_page=True)
    start(page)

    watcher = browser.new_context(
        base_url=live_server_url, locale="zh-CN", viewport={"width": 390, "height": 844}
    )
    spectator = watcher.new_page()
    spectator.goto(f"/tables/{table_id}/")
    expect(spectator.locator("#table-root")).to_have_attribute("data-synced", "1")
    expect(spectator.locator(".banner.watching")).to_be_visible()
    expect(spectator.locator("#board.in-hand")).to_be_visible()

    def on_my_turn() -> None:
        before = board_snapshot(page)
        assert before["hand"]
        page.screenshot(path="/tmp/mahjong-table-desktop.png", full_page=True)
        page.reload()
        expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
        expect(page.locator(".hand.clickable")).to_be_visible()
        assert board_snapshot(page) == before
        assert_no_concealed_tiles(spectator)
        spectator.screenshot(path="/tmp/mahjong-spectator-phone.png", full_page=True)

    play_until_settlement(page, on_my_turn)
    settlement = page.locator("#settlement")
    expect(settlement.locator("table.payments")).to_be_visible()
    assert settlement.locator("tbody tr").count() == 4
    assert settlement.locator(".open-hand [data-tile]").count() >= 4 * 1  # every hand opened
    page.screenshot(path="/tmp/mahjong-settlement-desktop.png", full_page=True)
    expect(spectator.locator("#settlement.shown")).to_be_visible(timeout=15_000)
    assert spectator.locator("#settlement .settle-actions button").count() == 0  # no Continue, no Leave
    spectator.screenshot(path="/tmp/mahjong-settlement-phone.png", full_page=True)

    page.locator("#settlement button.continue").click()
    expect(page.locator("#table-status")).to_have_attribute("data-hand", "2", timeout=20_000)
    expect(page.locator("#board.in-hand")).to_be_visible()
    assert_no_concealed_tiles(spectator)
    watcher.close()


@pytest.mark.parametrize("variant", ["yihua", "cantonese", "tianjin", "two_player"])
def test_each_variant_plays_to_the_settlement(page: Page, variant: str) -> None:
    sign_up(page)
    create_table(page, variant)
    start(page)
    play_until_settlement(page)
    expect(page.locator("#settlement h2")).to_be_visible()
    page.screenshot(path=f"/tmp/mahjong-settlement-{variant}.png", full_page=True)
    if page.locator("#settlement button.continue").count():
        page.locator("#settlement button.continue").click()
        expect(page.locator("#table-status")).to_have_attribute("data-hand", "2", timeout=20_000)


def test_table_fits_a_phone(browser: Browser, live_server_url: str) -> None:
    context = browser.new_context(
        base_url=live_server_url, locale="zh-CN", viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_up_zh(page)
    page.goto("/tables/new/")
    page.locator("#id_bots").fill("3")
    page.locator("details.advanced summary").click()  # the pause is an advanced setting
    page.locator("#id_pause_ms").fill("0")
    page.locator("form.create-form button[type=submit]").click()
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    start_the_hand(page)
    expect(page.locator(".hand .hand-tile").first).to_be_visible()
    width = page.locator(".hand .hand-tile img").first.evaluate("e => e.getBoundingClientRect().width")
    assert 40 <= width <= 48  # large enough to tap
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/mahjong-table-phone.png", full_page=True)
    page.goto("/lobby/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/mahjong-lobby-phone.png", full_page=True)
    context.close()


def start_the_hand(page: Page, by_keyboard: bool = False) -> None:
    """Press Start until the hand is on the board: a click that lands while the board is being
    swapped for a newer frame is lost in the browser, and a player would simply click again.
    `by_keyboard`: Tab to the button and press Enter instead of clicking."""
    for _ in range(3):
        start = page.locator("#table-side button.start")
        if start.count() and by_keyboard:
            tab_to(page, "#table-side button.start")
            page.keyboard.press("Enter")
        elif start.count():
            start.click()
        try:
            expect(page.locator("#board.in-hand")).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            continue
    expect(page.locator("#board.in-hand")).to_be_visible(timeout=5_000)


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the element matching `selector` has the focus, as a keyboard user would."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} not reached with {limit} Tabs")


def sign_up_zh(page: Page) -> None:
    page.goto("/accounts/signup/")
    page.locator("#id_username").fill(f"z{uuid.uuid4().hex[:10]}")
    page.locator("#id_password1").fill("jade-pagoda-77")
    page.locator("#id_password2").fill("jade-pagoda-77")
    page.locator("form.form button[type=submit]").click()
    expect(page.locator("#balance")).to_be_visible()
