"""The Content-Security-Policy in Chromium.

Every test using the `page` fixture fails on a CSP violation in the console (conftest); these
show that the detector sees one, and that the pages a player uses (the profile's token list,
the lobby's htmx filter, a live table's socket) run under the policy without any.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import csp_violations
from tests.browser.test_play import create_table, sign_up, start


def test_the_policy_is_sent_and_an_inline_script_is_refused(browser: Browser, live_server_url: str) -> None:
    context = browser.new_context(base_url=live_server_url)
    try:
        page = context.new_page()
        seen = csp_violations(page)
        response = page.goto("/")
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        page.evaluate(
            """() => { const s = document.createElement('script'); s.textContent = 'window.pwned = 1';
                       document.body.appendChild(s); }"""
        )
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.pwned") is None  # refused
        assert seen, "the refused inline script shows in the console: the `page` fixture's check can fail"
    finally:
        context.close()


def test_lobby_filter_profile_tokens_and_a_live_table_without_violations(page: Page) -> None:
    sign_up(page)
    page.goto("/lobby/")
    page.locator("form.lobby-filters select[name=variant]").select_option("shanghai")  # htmx swaps the list
    expect(page).to_have_url(re.compile(r"/lobby/"))
    page.goto("/accounts/profile/")
    page.get_by_role("button", name="Create API token").click()
    expect(page.locator("code.api-token")).to_be_visible()
    page.get_by_role("button", name="Revoke", exact=True).first.click()
    expect(page.locator(".messages")).to_contain_text("revoked")
    create_table(page, "shanghai")
    start(page)
    expect(page.locator("#board .hand-tile").first).to_be_visible()
    page.wait_for_timeout(1000)
