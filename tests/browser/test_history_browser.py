"""After playing a hand in the browser, the player finds it in their history, replays it step by
step (buttons and arrow keys) to the settlement, and sees themselves on the leaderboard."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.test_play import create_table, play_until_settlement, sign_up, start


def test_history_replay_and_leaderboard_after_a_played_hand(page: Page) -> None:
    username = sign_up(page)
    create_table(page, "two_player")
    start(page)
    play_until_settlement(page)

    page.goto("/accounts/profile/")
    page.get_by_role("link", name="My games, replays and points over time").click()
    expect(page).to_have_url(re.compile(rf"/users/{username}/history/$"))
    expect(page.locator(".points-chart svg polyline")).to_have_count(1)
    expect(page.locator("article.match")).to_have_count(1)
    page.locator(".hand-item").first.get_by_role("link", name="Replay hand 1").click()

    expect(page).to_have_url(re.compile(r"/hands/\d+/replay/#0$"))
    expect(page.locator("#replay-step")).to_have_text("0")
    # Every hand is open from the deal: no tile backs on the board.
    expect(page.locator("#replay-board .replay-seat")).to_have_count(2)
    assert page.locator("#replay-board .open-hand img[src$='back.svg']").count() == 0
    assert page.locator("#replay-board .replay-seat").nth(1).locator(".open-hand .tile").count() >= 13
    page.get_by_role("button", name=re.compile("Next")).click()
    expect(page.locator("#replay-step")).to_have_text("1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_text("1")
    expect(page.locator("#replay-settlement")).to_be_hidden()
    page.keyboard.press("End")
    expect(page.locator("#replay-settlement")).to_be_visible()
    total = page.locator("#replay-total").inner_text()
    expect(page.locator("#replay-step")).to_have_text(total)
    # The shareable URL shows the same step to whoever opens it.
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    expect(page.locator("#replay-step")).to_have_text(total)

    page.goto("/leaderboard/?variant=two_player")
    row = page.locator("table.standings tr", has_text=username)
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text(re.compile(r"^-?\d+\.\d\d$"))  # the rating
