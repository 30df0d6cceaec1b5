"""The rules pages in a real browser: each variant's page in both languages (picked with the
site's language switch) shows the pattern table with every example hand drawn in tile images."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine import patterns

SHOTS = os.environ.get("RULES_SCREENSHOTS", "")  # a folder: also save screenshots there


def switch_language(page: Page, code: str) -> None:
    page.locator(f"form.lang button[value='{code}']").click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def broken_images(page: Page, selector: str) -> int:
    """Images that failed to load, once every image has finished (loaded or failed): on a busy
    machine some are still in flight when the rows are there."""
    page.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].every(i => i.complete)", arg=selector, timeout=20_000
    )
    return page.eval_on_selector_all(selector, "imgs => imgs.filter(i => !(i.naturalWidth > 0)).length")


@pytest.mark.parametrize("variant", patterns.VARIANTS)
def test_rules_page_shows_every_pattern_with_tile_images_in_both_languages(page: Page, variant: str) -> None:
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules").click()
    expect(page).to_have_url(re.compile(r"/rules/$"))
    page.locator(f".rules-cards a[href='/rules/{variant}/']").click()
    expected = patterns.catalogue(variant)
    with_example = [p for p in expected if not p.impossible]
    for code, heading in (("zh-hans", "牌型"), ("en", "Patterns")):
        switch_language(page, code)
        expect(page.locator("#patterns h2")).to_have_text(heading)
        rows = page.locator(".patterns-table tbody tr")
        expect(rows).to_have_count(len(expected))
        for p in with_example:
            row = page.locator(f"tr#pattern-{p.id}")
            expect(row.locator("th")).to_contain_text(p.name_zh)
            expect(row.locator("th")).to_contain_text(p.name_en)
            assert row.locator(".example img").count() >= 2
        page.locator(".patterns-table").last.scroll_into_view_if_needed()
        assert broken_images(page, ".patterns-table img") == 0
        tiles = page.locator(".patterns-table img[src*='/static/games/tiles/']")
        assert tiles.count() >= 2 * len(with_example)
        seats = 2 if variant == "two_player" else 4
        expect(page.locator("#settlement .worked-payments tbody tr")).to_have_count(seats)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            lang = "zh" if code.startswith("zh") else "en"
            for name, size in (("desktop", (1366, 768)), ("phone", (390, 844))):
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.goto(f"/rules/{variant}/#patterns")
                page.screenshot(path=f"{SHOTS}/{variant}-{lang}-{name}.png")
                page.screenshot(path=f"{SHOTS}/{variant}-{lang}-{name}-full.png", full_page=True)
            page.set_viewport_size({"width": 1100, "height": 800})


def test_a_pattern_link_lands_on_its_row(page: Page) -> None:
    page.goto("/rules/cantonese/#pattern-all_pungs")
    row = page.locator("tr#pattern-all_pungs")
    expect(row).to_be_in_viewport()
    expect(row).to_contain_text("碰碰和")


def test_unknown_rule_set_is_a_404_page(page: Page) -> None:
    response = page.goto("/rules/mahjong-solitaire/")
    assert response is not None and response.status == 404
