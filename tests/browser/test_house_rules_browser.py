"""The create-table form's house rules in a real browser: the two-player self-draw multiplier
(RULES §6.3, 1–3) is offered, refused out of range with the error on the field, and stored."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.shots import shots_dir
from tests.browser.test_play import sign_up, sign_up_zh

SHOTS = shots_dir("house-rules")


@pytest.mark.parametrize(
    ("locale", "width", "height"), [("en-US", 1366, 768), ("zh-CN", 390, 844)], ids=["en-desktop", "zh-phone"]
)
def test_the_self_draw_multiplier_is_checked_and_kept(
    browser: Browser, live_server_url: str, locale: str, width: int, height: int
) -> None:
    context = browser.new_context(
        base_url=live_server_url, locale=locale, viewport={"width": width, "height": height}
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    (sign_up_zh if locale == "zh-CN" else sign_up)(page)
    page.goto("/tables/new/")
    page.locator("#id_variant").select_option("two_player")
    field = page.locator("#id_opt_two_player_self_draw_multiplier")
    expect(field).to_have_value("3")
    page.locator("#id_bots").fill("1")
    field.fill("4")
    page.locator("form.create-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tables/new/$"))
    expect(page.locator("fieldset[data-variant=two_player] .errorlist")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    fieldset = page.locator("fieldset[data-variant=two_player]")
    fieldset.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"house-rules-{locale}-{width}.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#id_opt_two_player_self_draw_multiplier").fill("1")
    page.locator("#id_base").fill("2")
    page.locator("form.create-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    context.close()
