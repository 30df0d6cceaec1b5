"""The pages around the live board in a browser, as a newcomer meets them: the create form's timer
presets, the lobby's labelled controls, the leave-queue address typed in, and a played hand read
in the history, its replay (moved by its address) and the same hand opened from its record file.

Screenshots of every page, in both languages and on a phone, go to /tmp/shots-pages/ for a person
to look at; nothing asserts on them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_play import create_table, play_until_settlement, sign_up, start

SHOTS = shots_dir("pages")
PHONE = {"width": 390, "height": 844}
CHINESE_WINDS = re.compile("[东南西北]")


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture
def phone(browser: Browser, live_server_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server_url, locale="en-US", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def speak(page: Page, language: str) -> None:
    # the site's root as the cookie's URL: Playwright takes the cookie's path from it
    root = re.match(r"https?://[^/]+/", page.url).group(0)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": root}])


def same_line(a: Locator, b: Locator) -> bool:
    """Two controls side by side: their vertical centres within a few pixels, `b` right of `a`."""
    box_a, box_b = a.bounding_box(), b.bounding_box()
    assert box_a is not None and box_b is not None
    centre_a, centre_b = box_a["y"] + box_a["height"] / 2, box_b["y"] + box_b["height"] / 2
    return abs(centre_a - centre_b) <= 6 and box_b["x"] >= box_a["x"] + box_a["width"] - 1


def test_a_timer_preset_fills_the_timer_fields(page: Page, shots: Path) -> None:
    sign_up(page)
    page.goto("/tables/new/")
    preset, turn, claim = (
        page.locator("#id_timer"),
        page.locator("#id_turn_seconds"),
        page.locator("#id_claim_seconds"),
    )
    expect(preset).to_have_value("normal")
    expect(turn).to_have_value("15")
    expect(claim).to_have_value("8")
    preset.select_option("fast")
    expect(turn).to_have_value("5")
    expect(claim).to_have_value("4")
    preset.select_option("slow")
    expect(turn).to_have_value("30")
    expect(claim).to_have_value("15")
    # the raw pause is behind a disclosure
    pause = page.locator("#id_pause_ms")
    expect(pause).to_be_hidden()
    page.screenshot(path=str(shots / "create-en.png"), full_page=True)
    page.get_by_text("Advanced settings").click()
    expect(pause).to_be_visible()
    # typing other timers makes the choice "Custom"
    turn.fill("20")
    expect(preset).to_have_value("custom")
    preset.select_option("fast")
    expect(turn).to_have_value("5")
    # the choice is what the table gets
    page.locator("#id_bots").fill("3")
    page.get_by_role("button", name="Create and sit down").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    speak(page, "zh-hans")
    page.goto("/tables/new/")
    expect(page.locator("#id_timer")).to_have_value("normal")
    page.screenshot(path=str(shots / "create-zh.png"), full_page=True)


def test_the_create_form_and_quick_match_on_a_phone(phone: Page, shots: Path) -> None:
    sign_up(phone)
    for language in ("en", "zh-hans"):
        speak(phone, language)
        phone.goto("/tables/new/")
        phone.locator("#id_timer").select_option("fast")
        expect(phone.locator("#id_turn_seconds")).to_have_value("5")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(shots / f"create-phone-{language}.png"), full_page=True)
        phone.goto("/play/")
        # Ranked: the checkbox and its label on one line
        assert same_line(phone.locator("#id_ranked"), phone.locator("label[for=id_ranked]"))
        phone.screenshot(path=str(shots / f"play-phone-{language}.png"), full_page=True)


def test_the_lobby_controls_are_labelled_and_line_up(page: Page, phone: Page, shots: Path) -> None:
    sign_up(page)
    page.goto("/lobby/")
    form = page.locator("form.lobby-play")
    expect(form.locator("select[name=variant]")).to_have_count(1)
    for control in ("play-variant", "qm-level", "qm-ranked"):
        expect(page.locator(f"label[for={control}]")).to_be_visible()
    expect(page.get_by_label("Rule set", exact=True)).to_have_count(1)
    assert same_line(page.locator("#qm-ranked"), page.locator("label[for=qm-ranked]"))
    # the two play buttons and the lobby's links sit on their own lines, each row aligned
    quick, practice = page.locator("#quick-match-button"), page.locator("#practice-button")
    assert same_line(quick, practice)
    create, rules = (
        page.get_by_role("link", name=re.compile("Create table")),
        page.locator('.lobby-buttons a[href="/rules/"]'),
    )
    create_box, rules_box = create.bounding_box(), rules.bounding_box()
    assert create_box is not None and rules_box is not None
    assert abs(create_box["y"] - rules_box["y"]) <= 2 and abs(create_box["height"] - rules_box["height"]) <= 2
    page.screenshot(path=str(shots / "lobby-en.png"))
    # one rule set serves both buttons: practice starts the chosen one
    page.locator("#play-variant").select_option("two_player")
    practice.click()
    expect(page.locator("#table-root")).to_have_attribute("data-synced", "1")
    expect(page.locator("section.seat")).to_have_count(2)  # two-player: two seats
    speak(page, "zh-hans")
    page.goto("/lobby/")
    page.screenshot(path=str(shots / "lobby-zh.png"))
    sign_up(phone)
    for language in ("en", "zh-hans"):
        speak(phone, language)
        phone.goto("/lobby/")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(shots / f"lobby-phone-{language}.png"))


def test_typing_the_leave_queue_address_explains_instead_of_a_blank_page(page: Page) -> None:
    sign_up(page)
    response = page.goto("/play/leave/")
    assert response is not None and response.status == 200
    expect(page).to_have_url(re.compile(r"/play/$"))
    expect(page.locator(".messages")).to_contain_text("You are not in the quick match queue.")
    expect(page.get_by_role("button", name="Find a game")).to_be_visible()


def test_a_played_hand_in_history_replay_and_its_opened_record(
    page: Page, phone: Page, shots: Path, tmp_path: Path
) -> None:
    username = sign_up(page)
    create_table(page, "two_player")
    start(page)
    play_until_settlement(page)

    # history: whose points, and the replay link beside (not inside) the summary
    page.goto(f"/users/{username}/history/")
    summary = page.locator("details.hand summary").first
    expect(summary).to_contain_text("your points")
    expect(summary.locator("a")).to_have_count(0)
    expect(page.locator("table.ranks-table")).to_contain_text("Two-player")
    expect(page.locator("table.ranks-table")).not_to_contain_text("two_player")
    page.screenshot(path=str(shots / "history-en.png"), full_page=True)
    page.locator(".hand-item .replay-link").first.click()
    expect(page).to_have_url(re.compile(r"/hands/\d+/replay/#0$"))
    replay_url = page.url.split("#")[0]

    # the stored replay, in words, moved by its address
    expect(page.locator("#replay-action")).to_have_text("The deal")
    expect(page.locator("#replay-board .seat-name").first).not_to_contain_text(CHINESE_WINDS)
    page.evaluate("location.hash = '#5'")
    expect(page.locator("#replay-step")).to_have_text("5")
    stored_step_5 = page.locator("#replay-action").inner_text()
    page.evaluate("location.hash = '#2'")
    expect(page.locator("#replay-step")).to_have_text("2")
    page.locator("#replay-fairness summary").click()
    expect(page.locator("#replay-fairness")).not_to_contain_text("docs/fairness.md")
    page.screenshot(path=str(shots / "replay-en.png"), full_page=True)
    with page.expect_download() as download:
        page.locator("#download-record").click()
    record = tmp_path / "hand.json"
    download.value.save_as(record)
    page.get_by_role("link", name="How to check a deal yourself").click()
    expect(page).to_have_url(re.compile(r"/fairness/$"))
    expect(page.locator("h1")).to_contain_text("Fair deals")
    page.screenshot(path=str(shots / "fairness-en.png"), full_page=True)

    # the record opened: the same viewer, the same words
    page.goto("/replays/open/")
    page.get_by_label("Record file (.json)").set_input_files(str(record))
    page.locator("#open-record-submit").click()
    expect(page.locator("#replay > h2")).to_contain_text("Two-player")
    expect(page.locator("#replay-action")).to_have_text("The deal")
    expect(page.locator("#replay-board .seat-name").first).not_to_contain_text(CHINESE_WINDS)
    expect(page.locator("#replay-board .replay-info")).to_contain_text("Wall ")
    page.evaluate("location.hash = '#5'")
    expect(page.locator("#replay-step")).to_have_text("5")
    expect(page.locator("#replay-action")).to_have_text(stored_step_5)
    page.keyboard.press("End")
    settlement = page.locator("#replay-settlement")
    expect(settlement).to_be_visible()
    scores = settlement.locator(".replay-scores .score")
    if scores.count():  # a won hand: its patterns by name, and the arithmetic
        expect(scores.first.locator(".patterns")).not_to_be_empty()
        expect(scores.first.locator(".patterns")).not_to_contain_text("_")
        # against a bot the payments are practice, shown beside the points as the history shows them
        expect(settlement.locator(".js-payment .practice").first).to_contain_text("practice")
    else:
        expect(settlement).to_contain_text("no winner")
    page.screenshot(path=str(shots / "open-record-en.png"), full_page=True)

    # Chinese, and a phone
    speak(page, "zh-hans")
    page.goto(replay_url + "#3")
    expect(page.locator("#replay-step")).to_have_text("3")
    expect(page.locator("#replay-board .seat-name").first).to_contain_text(CHINESE_WINDS)
    page.screenshot(path=str(shots / "replay-zh.png"), full_page=True)
    page.goto(f"/users/{username}/history/")
    expect(page.locator("details.hand summary").first).to_contain_text("你的得分")
    expect(page.locator("table.ranks-table")).to_contain_text("二人麻将")
    page.screenshot(path=str(shots / "history-zh.png"), full_page=True)
    page.goto("/replays/open/")
    page.locator("#record-file").set_input_files(str(record))
    page.locator("#open-record-submit").click()
    expect(page.locator("#replay-action")).to_have_text("发牌")
    page.screenshot(path=str(shots / "open-record-zh.png"), full_page=True)
    page.goto("/fairness/")
    page.screenshot(path=str(shots / "fairness-zh.png"), full_page=True)

    sign_up(phone)
    for language in ("en", "zh-hans"):
        speak(phone, language)
        for name, url in (
            ("history", f"/users/{username}/history/"),
            ("replay", replay_url + "#4"),
            ("fairness", "/fairness/"),
            ("leaderboard", "/leaderboard/?variant=two_player"),
        ):
            phone.goto(url)
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
            phone.screenshot(path=str(shots / f"{name}-phone-{language}.png"), full_page=True)
        phone.goto("/replays/open/")
        phone.locator("#record-file").set_input_files(str(record))
        phone.locator("#open-record-submit").click()
        expect(phone.locator("#replay-action")).not_to_be_empty()  # the viewer's script is running
        phone.keyboard.press("End")
        expect(phone.locator("#replay-settlement")).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(shots / f"open-record-phone-{language}.png"), full_page=True)
        # its review, computed from the file (as `python -m games.engine review` computes it)
        phone.locator("#open-record-review").click()
        expect(phone.locator("#review-summary-title")).to_be_visible()
        expect(phone.locator("#replay-action")).not_to_be_empty()
        assert phone.locator("article.review-decision").count() > 0
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.screenshot(path=str(shots / f"open-record-review-phone-{language}.png"), full_page=True)
