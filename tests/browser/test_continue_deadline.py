"""A table stays joinable after a player let the Continue deadline pass.

Runs its own server with a short Continue deadline (CONTINUE_SECONDS) so the test does not
wait a real minute: a player finishes a hand against a bot and does not press Continue; the
settlement counts down; the clock stands them up; then the same player and a second player who
never played there each sit and stay seated, and a new hand starts. The last settlement, put
aside for the stood-up player, stays put aside once she sits again (it covered the bot's and the
stake's buttons), and the keyboard folds and unfolds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import serving
from tests.browser.shots import shots_dir
from tests.browser.test_play import play_until_settlement, sign_up, start_the_hand

# Long enough that a loaded CI machine still shows the countdown when the settlement appears
# (with 8 s a slow last turn once let the deadline pass before the check).
CONTINUE_SECONDS = 20
SHOTS = shots_dir("continue-deadline")


@pytest.fixture(scope="module")
def short_continue_url(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[str]:
    # Its own Redis database: table ids of the two servers' SQLite files overlap.
    redis_url = re.sub(r"/\d+$", "/1", shared_redis_url) if shared_redis_url else ""
    with serving(
        tmp_path_factory.mktemp("short_continue"), redis_url, CONTINUE_SECONDS=str(CONTINUE_SECONDS)
    ) as url:
        yield url


def _page(browser: Browser, url: str, locale: str = "en-US") -> Page:
    context = browser.new_context(base_url=url, locale=locale, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _stays_seated(page: Page, seconds: float) -> None:
    """Seated now and still seated `seconds` later (the bug stood sitters up within a tick)."""
    expect(page.locator("#board .seat.me")).to_have_count(1)
    page.wait_for_timeout(seconds * 1000)
    expect(page.locator("#board .seat.me")).to_have_count(1)
    assert page.locator("#board button.sit").count() == 0


def test_after_the_continue_deadline_both_players_sit_and_play(
    browser: Browser, short_continue_url: str
) -> None:
    alice = _page(browser, short_continue_url)
    sign_up(alice)
    alice.goto("/tables/new/")
    alice.locator("#id_variant").select_option("two_player")
    expect(alice.locator("#id_variant")).to_have_value("two_player")
    alice.locator("#id_base").fill("2")
    alice.locator("details.advanced summary").click()  # the pause is an advanced setting
    alice.locator("#id_pause_ms").fill("0")
    alice.locator("#id_bots").fill("1")
    alice.get_by_role("button", name="Create and sit down").click()
    expect(alice.locator("#table-root")).to_have_attribute("data-synced", "1")
    table_url = alice.url
    start_the_hand(alice)
    play_until_settlement(alice)

    # the settlement counts down the Continue choice
    countdown = alice.locator("#settlement .continue-countdown strong")
    expect(countdown).to_be_visible()
    assert 0 < int(countdown.inner_text()) <= CONTINUE_SECONDS
    alice.screenshot(path=f"{SHOTS}/continue-countdown-en.png", full_page=True)

    # she lets it pass: stood up, told why, and the table waits for players again
    expect(alice.locator("#table-status")).to_have_attribute("data-phase", "waiting", timeout=60_000)
    # the notice stands in the settlement over the board, or in the status line once it is gone
    expect(alice.locator("#table-root .banner.notice").first).to_contain_text("Continue")
    expect(alice.locator("#board .seat.me")).to_have_count(0)

    # the settlement is put aside for her, the seats free: a bar with the notice and a button
    settlement = alice.locator("#settlement")
    expect(settlement).to_have_class(re.compile(r"\baside\b"))
    expect(settlement.locator(".payments")).to_be_hidden()
    toggle = settlement.locator("button.settle-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    alice.screenshot(path=f"{SHOTS}/continue-stood-up-en.png")

    # the same player sits again and stays; the settlement stays put aside
    alice.locator("#board button.sit").first.click()
    _stays_seated(alice, 3)
    expect(settlement).to_have_class(re.compile(r"\baside\b"))
    # the keyboard shows it again (Enter on its button) and puts it aside (Esc)
    toggle.focus()
    alice.keyboard.press("Enter")
    expect(settlement.locator(".payments")).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    alice.keyboard.press("Escape")
    expect(settlement.locator(".payments")).to_be_hidden()
    expect(toggle).to_be_focused()

    # a second player, who never played here, takes the bot's seat and stays
    alice.locator("#board button.remove-bot").click()
    expect(alice.locator("#board .add-bot-group")).to_have_count(1)  # the freed seat offers bots again
    bob = _page(browser, short_continue_url)
    sign_up(bob)
    bob.goto(table_url)
    expect(bob.locator("#table-root")).to_have_attribute("data-synced", "1")
    bob.locator("#board button.sit").click()
    _stays_seated(bob, 3)
    expect(alice.locator("#board .seat.me")).to_have_count(1)

    # the stake (reset: its setter had left) and a new hand
    alice.locator("#table-side .stake-form button[type=submit]").click()
    bob.locator("#table-side button.accept").click()
    alice.locator("#table-side button.start").click()  # a new match: its hands count from 1
    for page in (alice, bob):
        expect(page.locator("#table-status")).to_have_attribute("data-phase", "playing")
        expect(page.locator("#board.in-hand .hand .hand-tile").first).to_be_visible()
    bob.screenshot(path=f"{SHOTS}/continue-new-hand-en.png", full_page=True)

    # leaving mid-hand states the exact penalty, then the leaver is in the lobby
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    bob.on("dialog", accept)
    bob.locator("#table-side button.leave").click()
    expect(bob).to_have_url(re.compile(r"/lobby/$"), timeout=15_000)
    # 13 × base 1 at a two-player table (the stake was set again at the form's default, 1)
    assert asked and re.search(r"(?<!\d)13(?!\d)", asked[0]), asked
    alice.context.close()
    bob.context.close()
