"""Picking bot strength in a real browser: the create form's selector and the seat buttons."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.test_play import sign_up

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/h22"))
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def test_bot_strength_is_chosen_on_the_form_and_per_seat(browser: Browser, live_server_url: str) -> None:
    for size, (width, height) in SIZES.items():
        for lang in ("en", "zh-hans"):
            context = browser.new_context(
                base_url=live_server_url,
                viewport={"width": width, "height": height},
                locale="en-US",
            )
            page = context.new_page()
            sign_up_in(page, lang)
            page.goto("/tables/new/")
            page.locator("#id_variant").select_option("shanghai")
            page.locator("#id_base").fill("2")
            page.locator("#id_bots").fill("1")
            page.locator("#id_bot_level").select_option("strong")
            page.locator("form button[type=submit]").last.click()
            expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
            expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
            seat1 = page.locator('section.seat[data-seat="1"]')
            expect(seat1.locator(".badge.bot-level")).to_be_visible()
            seat2 = page.locator('section.seat[data-seat="2"]')
            expect(seat2.locator("button.add-bot")).to_have_count(3)
            seat2.locator('button.add-bot[data-level="easy"]').click()
            expect(seat2.locator(".badge.bot-level")).to_be_visible()
            expect(seat2.locator("button.add-bot")).to_have_count(0)
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"bot_levels_{size}_{lang}.png"))
            # the board follows the socket's language (see rendering.language_from_scope)
            expect(seat1.locator(".badge.bot-level")).to_have_text(re.compile("^(Strong|强)$"))
            expect(seat2.locator(".badge.bot-level")).to_have_text(re.compile("^(Easy|简单)$"))
            context.close()


def sign_up_in(page, lang: str) -> None:  # noqa: ANN001
    """Sign up (in English), then switch the site's language if asked."""
    sign_up(page)
    page.locator("form.lang").get_by_role("button", name="English" if lang == "en" else "简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
