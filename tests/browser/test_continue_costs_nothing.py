"""Letting the Continue countdown run out costs nothing: a quick-match player plays a hand against
a bot, does not press Continue, is stood up, and finds their balance unchanged and no ban (they
queue again at once). A timed-out Continue used to charge the escape penalty and ban for 10 minutes.

Runs its own server with a short Continue deadline (CONTINUE_SECONDS), as the Continue-deadline
test does, so the test does not wait a real minute."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import serving
from tests.browser.shots import shots_dir
from tests.browser.test_one_screen import outside_the_viewport
from tests.browser.test_play import play_until_settlement, sign_up

CONTINUE_SECONDS = 20  # long enough that a loaded machine still shows the countdown
SHOTS = shots_dir("continue-costs-nothing")


@pytest.fixture(scope="module")
def short_continue_url(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[str]:
    # Its own Redis database: table ids of the servers' SQLite files overlap.
    redis_url = re.sub(r"/\d+$", "/3", shared_redis_url) if shared_redis_url else ""
    with serving(
        tmp_path_factory.mktemp("continue_costs_nothing"), redis_url, CONTINUE_SECONDS=str(CONTINUE_SECONDS)
    ) as url:
        yield url


def _balance(page: Page) -> int:
    page.goto("/accounts/profile/")
    return int(page.locator("strong.points").first.inner_text())


def _quick_match_against_a_bot(page: Page) -> None:
    page.goto("/play/")
    form = page.locator("form.quick-form")
    form.locator("select[name=variant]").select_option("two_player")
    form.locator("select[name=level]").select_option("bronze")
    form.locator("select[name=bot_wait]").select_option("15")
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"), timeout=60_000)
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")


def test_a_timed_out_continue_leaves_the_balance_and_no_ban(
    browser: Browser, short_continue_url: str
) -> None:
    context = browser.new_context(
        base_url=short_continue_url, locale="en-US", viewport={"width": 1366, "height": 768}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page)
    _quick_match_against_a_bot(page)
    table_url = page.url
    expect(page.locator("#board.in-hand")).to_be_visible(timeout=20_000)
    play_until_settlement(page)

    countdown = page.locator("#settlement .continue-countdown")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text("no penalty")
    page.screenshot(path=f"{SHOTS}/continue-countdown-en.png", full_page=True)

    # the hand's own result is in the balance now; read it in a second tab, the countdown running
    reader = context.new_page()
    after_hand = _balance(reader)

    # the countdown runs out: stood up, told why…
    expect(page.locator("#table-status")).to_have_attribute("data-phase", "waiting", timeout=60_000)
    expect(page.locator("#board .seat.me")).to_have_count(0)
    # …and nothing more: the same balance, no penalty in the statement
    assert _balance(reader) == after_hand
    reader.goto("/accounts/profile/ledger/")
    expect(reader.locator("table.ledger tr.kind-penalty")).to_have_count(0)
    # no ban: the table offers the seat again and the quick-match queue takes them
    page.goto(table_url)
    expect(page.locator("#board button.sit").first).to_be_visible()
    page.goto("/play/")
    form = page.locator("form.quick-form")
    form.locator("select[name=variant]").select_option("two_player")
    form.locator("select[name=bot_wait]").select_option("0")  # keep waiting: queued, not seated
    form.locator("button[type=submit]").click()
    expect(page.locator("#queue-status")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("may not sit down")
    page.screenshot(path=f"{SHOTS}/queued-again-en.png", full_page=True)
    context.close()


def test_the_cost_of_leaving_stands_beside_the_countdown_in_both_languages(
    browser: Browser, short_continue_url: str
) -> None:
    """Two people at a two-player table: each sees what leaving would cost, in their language."""
    pages = []
    for _ in range(2):  # both sign up in English; bob then switches to Chinese
        context = browser.new_context(
            base_url=short_continue_url, locale="en-US", viewport={"width": 1366, "height": 768}
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_up(page)
        pages.append(page)
    alice, bob = pages
    bob.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": short_continue_url}])
    alice.goto("/tables/new/")
    alice.locator("#id_variant").select_option("two_player")
    alice.locator("#id_base").fill("2")
    alice.locator("#id_bots").fill("0")
    alice.get_by_role("button", name="Create and sit down").click()
    expect(alice.locator("#table-root")).to_have_attribute("data-synced", "1")
    expect(alice.locator("#table-status .escape-rule")).to_contain_text(
        "13 × base (26)"
    )  # before anyone joins
    bob.goto(alice.url)
    expect(bob.locator("#table-root")).to_have_attribute("data-synced", "1")
    bob.locator("#board button.sit").click()
    bob.locator("#table-side button.accept").click()
    alice.locator("#table-side button.start").click()
    expect(alice.locator("#board .escape-stakes")).to_have_text(
        "Leaving this hand: −26 points and a 10-minute ban"
    )
    expect(bob.locator("#board .escape-stakes")).to_have_text("离开本局：扣 26 积分，禁止入座 10 分钟")
    alice.screenshot(path=f"{SHOTS}/escape-stakes-en.png", full_page=True)
    bob.screenshot(path=f"{SHOTS}/escape-stakes-zh.png", full_page=True)
    # on a phone too the amount stands on screen: beside the clock of the player to move, in the
    # turn line for the other (whose clock is not shown)
    for page, language in ((alice, "en"), (bob, "zh")):
        page.set_viewport_size({"width": 390, "height": 844})
        shown = ["#board .escape-stakes"]
        if page.locator("#board .my-timer .countdown").count():
            shown.append("#board .my-timer .countdown")
            expect(page.locator("#board .my-timer .escape-stakes")).to_be_visible()
        assert outside_the_viewport(page, shown) == [], language
        page.screenshot(path=f"{SHOTS}/escape-stakes-phone-{language}.png")
        page.set_viewport_size({"width": 1366, "height": 768})
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    bob.on("dialog", dismiss)
    bob.locator("#table-side button.leave").click()
    bob.wait_for_timeout(500)
    assert asked and "26" in asked[0] and "10 分钟" in asked[0], asked
    for page in pages:
        page.context.close()
