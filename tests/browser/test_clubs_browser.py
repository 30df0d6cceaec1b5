"""Clubs in a real browser (docs/clubs.md): four accounts form a club through its invite link,
two of them play a hand at a club table (bots in the other seats) while a third watches, and
all see the club's leaderboard; the club's pages pass axe in both languages and fit a phone.

The server deals from tests/browser/rigs.py (the rigged server): alice, in seat 0, is dealt a
ready hand; bob, in the last seat, deals first and discards her wait, and she wins on it.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser import rigs
from tests.browser.shots import shots_dir
from tests.browser.test_accessibility import axe_source, page_violations  # noqa: F401
from tests.browser.test_play import sign_up, start_the_hand
from tests.browser.test_waits_browser import discard

SHOTS = shots_dir("clubs")


def member(browser: Browser, url: str, width: int = 1366, height: int = 768) -> Page:
    """A signed-up player reading English (axe's script may be added: its own context)."""
    context = browser.new_context(
        base_url=url, locale="en-US", viewport={"width": width, "height": height}, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page)
    context.add_cookies([{"name": "django_language", "value": "en", "url": url}])
    return page


def in_language(page: Page, url: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_four_players_form_a_club_play_a_club_table_and_see_its_leaderboard(
    browser: Browser,
    rigged_url: str,
    axe_source: str,  # noqa: F811
) -> None:
    alice = member(browser, rigged_url)
    alice.goto("/clubs/")
    alice.get_by_role("link", name="Start a club").click()
    alice.locator("#id_name").fill("Friday Shanghai")
    alice.locator("#id_description").fill("Every Friday at eight.")
    alice.locator("#id_variant").select_option("shanghai")
    alice.locator("#id_base").fill("2")
    shoot(alice, "create-en-desktop")
    alice.get_by_role("button", name="Start the club").click()
    expect(alice).to_have_url(re.compile(r"/clubs/\d+/$"))
    club_url = alice.url
    invite = alice.locator("#club-invite-link").input_value()
    assert "/clubs/join/" in invite

    bob, carol, dave = (member(browser, rigged_url) for _ in range(3))
    for page in (bob, carol, dave):
        page.goto(invite)
        expect(page.locator("h1")).to_contain_text("Join Friday Shanghai")
        page.get_by_role("button", name="Join the club").click()
        expect(page).to_have_url(club_url)
    shoot(dave, "join-welcome-en-desktop")
    alice.locator("#club-announcement").fill("Friday 8 pm: Shanghai rules, base 2.")
    alice.get_by_role("button", name="Save the announcement").click()
    expect(alice.locator(".member-list .member")).to_have_count(4)

    # alice opens a table with two bots; bob finds it on the club page and takes the last seat
    alice.locator("#club-bots").select_option("2")
    alice.get_by_role("button", name="Open a table").click()
    expect(alice).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(alice.locator("#table-root")).to_have_attribute("data-synced", "1")
    table_path = re.search(r"/tables/\d+/", alice.url).group(0)
    bob.goto(club_url)
    bob.locator(f'.club-table-list a[href="{table_path}"]').click()
    expect(bob.locator("#table-root")).to_have_attribute("data-synced", "1")
    bob.locator("#board button.sit").click()
    bob.locator("#table-side button.accept").click()
    expect(alice.locator("#table-side button.start")).to_be_visible()
    start_the_hand(alice)
    expect(bob.locator(".hand.clickable button.hand-tile").first).to_be_visible()

    carol.goto(table_path)  # a member watches the club table
    expect(carol.locator("#table-root")).to_have_attribute("data-synced", "1")
    expect(carol.locator(".banner.watching")).to_be_visible()

    discard(bob, rigs.RIGS["shanghai"].discard, "double-click")
    expect(alice.locator("#prompt .type-win")).to_be_visible(timeout=20_000)
    alice.keyboard.press("h")
    expect(alice.locator("#settlement.shown")).to_be_visible(timeout=20_000)
    shoot(alice, "club-table-settlement-en-desktop")

    # everybody sees the hand on the club's leaderboard and in its recent matches
    dave.goto(club_url)
    board = dave.locator(".club-board tbody")
    expect(board.locator("tr")).to_have_count(2, timeout=10_000)
    expect(board).to_contain_text(alice.locator("header .who").inner_text())
    expect(board).to_contain_text(bob.locator("header .who").inner_text())
    expect(dave.locator(".club-matches .hand-links a").first).to_have_attribute(
        "href", re.compile(r"/replay/$")
    )
    expect(dave.locator(".member.online")).not_to_have_count(0)  # alice and bob sit at the table
    assert page_violations(dave, axe_source) == []
    shoot(dave, "club-member-en-desktop")
    alice.goto(club_url)
    assert page_violations(alice, axe_source) == []
    shoot(alice, "club-owner-en-desktop")
    for period in ("month", "all"):
        alice.goto(f"{club_url}?period={period}")
        expect(alice.locator(".club-board tbody tr")).to_have_count(2)

    # Chinese, desktop and phone
    in_language(alice, rigged_url, "zh-hans")
    alice.goto(club_url)
    expect(alice.get_by_role("button", name="开一桌")).to_be_visible()
    assert page_violations(alice, axe_source) == []
    shoot(alice, "club-owner-zh-desktop")
    for language in ("zh-hans", "en"):
        phone = browser.new_context(
            base_url=rigged_url,
            viewport={"width": 390, "height": 844},
            bypass_csp=True,
            storage_state=dave.context.storage_state(),
        ).new_page()
        in_language(phone, rigged_url, language)
        for path, name in (
            (club_url, "club"),
            ("/clubs/", "index"),
            (invite, "join"),
            ("/clubs/new/", "create"),
        ):
            phone.goto(path)
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, (path, language)
            assert page_violations(phone, axe_source) == [], language
            shoot(phone, f"{name}-{language}-phone")
        phone.context.close()
    for page in (alice, bob, carol, dave):
        page.context.close()


def test_a_stranger_gets_404_for_a_club_and_its_tables(browser: Browser, rigged_url: str) -> None:
    owner = member(browser, rigged_url)
    owner.goto("/clubs/new/")
    owner.locator("#id_name").fill("Closed circle")
    owner.locator("#id_base").fill("2")
    owner.get_by_role("button", name="Start the club").click()
    expect(owner).to_have_url(re.compile(r"/clubs/\d+/$"))
    owner.get_by_role("button", name="Open a table").click()
    expect(owner).to_have_url(re.compile(r"/tables/\d+/$"))
    stranger = member(browser, rigged_url)
    assert stranger.goto(owner.url).status == 404
    table_path = re.search(r"/tables/\d+/", owner.url).group(0)
    stranger.goto("/lobby/")
    expect(stranger.locator(f'a[href="{table_path}"]')).to_have_count(0)
    stranger.goto("/clubs/join/forged-code/")
    expect(stranger.locator(".club-join .error")).to_be_visible()
    shoot(stranger, "forged-invite-en-desktop")
    owner.context.close()
    stranger.context.close()
