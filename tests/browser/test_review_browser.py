"""复盘 Review in a real browser, every variant: a hand is played to its end against bots (the
rigged deal of tests/browser/rigs.py: alice ready, bots between, bob dealing first and throwing
her wait), the settlement's Review button opens the review (prepared off the request path: the
page says so and fills in by itself), the decisions are stepped through with the recommended
tile marked on the hand, the summary and the hindsight (labelled apart) are there; in English and
in Chinese, at desktop and phone size, and axe finds nothing serious on it.

Tianjin wins by self-draw only: there both players hand their seats to auto-play (托管) and the
bots finish the hand."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine.rulesets import get_ruleset
from tests.browser import rigs
from tests.browser.shots import shots_dir
from tests.browser.test_accessibility import axe_source, serious_violations  # noqa: F401 (fixture)
from tests.browser.test_waits_browser import discard, rigged_table

SHOTS = shots_dir("review")
LANGUAGES = {
    "shanghai": "en",
    "yihua": "zh-hans",
    "cantonese": "en",
    "tianjin": "zh-hans",
    "two_player": "zh-hans",
}
PHONE = {"width": 390, "height": 844}


def auto_play(page: Page) -> None:
    """Press 托管 until it is on (its label turns to "stop"): a click that lands while the board
    is being swapped for a newer frame is lost, and a player would simply click again."""
    button = page.locator("button.auto").first
    before = button.text_content()
    for _ in range(5):
        button.click()
        try:
            expect(page.locator("button.auto").first).not_to_have_text(before, timeout=3_000)
            return
        except AssertionError:
            continue
    raise AssertionError("auto-play did not turn on")


def finish_the_hand(alice: Page, bob: Page, variant: str) -> None:
    rig = rigs.RIGS[variant]
    if get_ruleset(variant).win_on_discard:
        discard(bob, rig.discard, "double-click")
        expect(alice.locator("#prompt .type-win")).to_be_visible()
        alice.keyboard.press("h")
    else:
        for page in (bob, alice):
            auto_play(page)
    # alice's (the winner stays seated; a loser out of points leaves the table at once)
    expect(alice.locator("#settlement.shown")).to_be_visible(timeout=120_000)


def open_review(page: Page, language: str, url: str) -> Page:
    """The settlement's Review button: the review opens in a new tab (the table keeps its own)."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    button = page.locator("#settlement a.review-button")
    expect(button).to_be_visible()
    with page.context.expect_page() as opened:
        button.click()
    review = opened.value
    review.set_default_timeout(15_000)
    expect(review.locator(".review-summary")).to_be_visible(timeout=90_000)  # prepared, then shown
    return review


def next_decision(review: Page, shown: str) -> None:
    """Press Next decision until the viewer leaves step `shown`: a press that lands before the
    viewer's script listens (a page still starting on a loaded machine) is pressed again."""
    for _ in range(3):
        review.locator("[data-decision=next]").click()
        try:
            expect(review.locator("#replay-step")).not_to_have_text(shown, timeout=3000)
            return
        except AssertionError:
            continue


def step_through(review: Page) -> int:
    """Every decision by the Next-decision button; at each, its panel shows and a recommended
    discard is marked on the reviewed seat's hand. Returns how many were stepped through."""
    review.wait_for_load_state("load")  # the viewer's scripts listen from here
    marks = review.evaluate("JSON.parse(document.getElementById('review-marks').textContent)")
    steps = sorted(int(s) for s in marks)
    for step in steps:
        shown = review.locator("#replay-step").text_content() or ""
        if shown != str(step):  # a decision at the deal is shown first
            next_decision(review, shown)
        expect(review.locator("#replay-step")).to_have_text(str(step))
        panel = review.locator(f'.review-decision[data-step="{step}"]')
        expect(panel).to_be_visible()
        assert panel.locator(".alternatives tr.recommended").count() <= 1
        mark = marks[str(step)]
        if mark["recommended"]:
            seat = review.locator(f'.replay-seat[data-seat="{mark["seat"]}"]')
            expect(seat.locator(".open-hand .tile.recommended")).to_have_count(1)
            assert (
                seat.locator(".open-hand .tile.recommended img").get_attribute("alt") == mark["recommended"]
            )
    return len(steps)


@pytest.mark.parametrize("variant", list(rigs.RIGS))
def test_a_finished_hand_is_reviewed_from_the_settlement(
    browser: Browser,
    rigged_url: str,
    axe_source: str,  # noqa: F811 (the fixture imported above)
    variant: str,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    language = LANGUAGES[variant]
    alice, bob = rigged_table(browser, rigged_url, variant, language)
    finish_the_hand(alice, bob, variant)
    alice.screenshot(path=SHOTS / f"{variant}-settlement.png")

    # the winner's own review, from her settlement: her one decision (win or pass) in most variants
    review = open_review(alice, language, rigged_url)
    expect(review.locator("html")).to_have_attribute("lang", re.compile("zh" if language != "en" else "en"))
    assert step_through(review) >= 1
    expect(review.locator("section.hindsight")).to_be_visible()
    expect(review.locator(".hindsight-label")).to_be_visible()
    review.screenshot(path=SHOTS / f"{variant}-{language}-own.png", full_page=True)

    # her history: the hand's review link and her statistics over her reviewed hands
    me = review.locator('.review-seats a[href="?seat=0"]').text_content().split(" (")[0]
    review.goto(f"/users/{me}/history/")
    expect(review.locator("section.review-stats table tbody tr")).to_have_count(1)
    expect(review.locator("a.review-link")).to_have_count(1)
    review.screenshot(path=SHOTS / f"{variant}-{language}-profile.png", full_page=True)
    review.locator("a.review-link").click()
    expect(review.locator(".review-summary")).to_be_visible()

    # then the dealer's seat (his discards, the recommended tile marked on his hand)
    n = get_ruleset(variant).players
    review.locator(f'.review-seats a[href="?seat={n - 1}"]').click()
    expect(review.locator(".review-summary")).to_be_visible(timeout=90_000)
    assert step_through(review) >= 1
    first = review.locator(".review-mistakes a").first
    if first.count():  # a mistake's link moves the board to that step
        first.click()
        step = first.get_attribute("href").lstrip("#")
        expect(review.locator("#replay-step")).to_have_text(step)
        expect(review.locator(f'.review-decision[data-step="{step}"]')).to_be_visible()
    review.screenshot(path=SHOTS / f"{variant}-{language}-desktop.png", full_page=True)
    review.set_viewport_size(PHONE)
    width = review.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone: {width}px"
    review.screenshot(path=SHOTS / f"{variant}-{language}-phone.png", full_page=True)

    # axe, on the same page as a context that lets the test's script in (the site's CSP does not)
    checker = browser.new_context(
        base_url=rigged_url, storage_state=alice.context.storage_state(), bypass_csp=True, viewport=PHONE
    )
    page = checker.new_page()
    page.goto(review.url)
    expect(page.locator(".review-summary")).to_be_visible()
    assert serious_violations(page, axe_source) == []
    checker.close()
    for page in (alice, bob):
        page.context.close()
