"""Picking bot strength in a real browser: the create form's selector and the seat buttons."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import serving
from tests.browser.shots import shots_dir
from tests.browser.test_play import play_until_settlement, sign_up, start

SHOTS = shots_dir("bot-levels")
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
            expect(seat2.locator("button.add-bot")).to_have_count(4)  # easy, normal, strong, expert
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


@pytest.fixture(scope="module")
def logged_server(
    tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str
) -> Iterator[tuple[str, Path]]:
    """A server whose clock logs every bot decision with its time (LOG_LEVEL=DEBUG); its own
    Redis database, as table ids of the two servers' SQLite files overlap."""
    workdir = tmp_path_factory.mktemp("expert_table")
    redis_url = re.sub(r"/\d+$", "/4", shared_redis_url) if shared_redis_url else ""
    with serving(workdir, redis_url, LOG_LEVEL="DEBUG") as url:
        yield url, workdir


def test_a_hand_against_three_experts_at_a_live_table(
    browser: Browser, logged_server: tuple[str, Path]
) -> None:
    url, workdir = logged_server
    context = browser.new_context(base_url=url, viewport={"width": 1366, "height": 768}, locale="en-US")
    page = context.new_page()
    sign_up(page)
    page.goto("/tables/new/")
    page.locator("#id_variant").select_option("shanghai")
    page.locator("#id_base").fill("2")
    page.locator("details.advanced summary").click()  # the pause is an advanced setting
    page.locator("#id_pause_ms").fill("0")
    page.locator("#id_bots").fill("3")
    page.locator("#id_bot_level").select_option("expert")
    page.locator("form button[type=submit]").last.click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    for seat in (1, 2, 3):
        badge = page.locator(f'section.seat[data-seat="{seat}"] .badge.bot-level')
        expect(badge).to_have_text(re.compile("^(Expert|专家)$"))
    start(page)
    play_until_settlement(page)
    expect(page.locator("#settlement table.payments")).to_be_visible()
    context.close()
    # the clock played the experts and logged each decision's time (read, never asserted on:
    # the figures are docs/benchmarks.md's business)
    log = (workdir / "clock.log").read_text()
    times = [float(ms) for ms in re.findall(r"level expert took ([0-9.]+) ms", log)]
    assert times, log[-2000:]
    times.sort()
    median, most = times[len(times) // 2], times[-1]
    print(f"expert decisions at the live table: {len(times)}, median {median:.1f} ms, max {most:.1f} ms")
