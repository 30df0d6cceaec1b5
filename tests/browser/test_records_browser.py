"""Fair deals and open records in the browser: the board shows the commitment during the hand,
the settlement reveals it, the replay page downloads the record, and the viewer opens the file
and steps through it; a tampered file is refused with the first problem named."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_play import create_table, play_until_settlement, sign_up, start

SHOTS = shots_dir("records")


def test_download_a_record_and_step_through_it_in_the_viewer(page: Page, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_up(page)
    create_table(page, "two_player")
    start(page)
    commitment = page.locator("#board [data-commitment]").get_attribute("data-commitment")
    assert commitment is not None and re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.screenshot(path=str(SHOTS / "board-commitment.png"))
    play_until_settlement(page)
    reveal = page.locator("#settlement details.fairness")
    expect(reveal).to_have_count(1)
    reveal.locator("summary").click()
    expect(reveal).to_contain_text(commitment)
    page.screenshot(path=str(SHOTS / "settlement-reveal.png"))
    reveal.locator("a[href$='/replay/']").click()
    expect(page).to_have_url(re.compile(r"/hands/\d+/replay/"))

    with page.expect_download() as download:
        page.locator("#download-record").click()
    path = tmp_path / "hand.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["fairness"]["commitment"] == commitment
    opened = hashlib.sha256(f"{record['fairness']['salt']}:{record['fairness']['wall']}".encode()).hexdigest()
    assert opened == commitment

    page.locator("#open-record-link").click()
    page.locator("#record-file").set_input_files(str(path))
    page.locator("#open-record-submit").click()
    expect(page.locator("#replay-step")).to_have_text("0")
    actions = sum(1 for e in record["events"] if e["type"] == "action")
    expect(page.locator("#replay-total")).to_have_text(str(actions))
    page.locator("[data-step=next]").click()
    expect(page.locator("#replay-step")).to_have_text("1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("2")
    page.keyboard.press("End")
    expect(page.locator("#replay-settlement")).to_be_visible()
    expect(page.locator("#replay-step")).to_have_text(str(actions))
    page.locator("#replay-fairness summary").click()
    expect(page.locator("#replay-fairness code.salt")).to_have_text(record["fairness"]["salt"])
    page.screenshot(path=str(SHOTS / "open-record.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "open-record-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})

    record["result"]["payments"][0] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    page.locator("#record-file").set_input_files(str(tampered))
    page.locator("#open-record-submit").click()
    expect(page.locator("#record-error")).to_contain_text("result")
    expect(page.locator("#replay")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "open-record-error.png"))
