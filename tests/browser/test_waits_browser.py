"""The waits help (听) in a real browser on a rigged ready hand, for every variant,
and the ways to discard a tile: click to choose and click again, double-click,
drag onto the table.

The server deals from tests/browser/rigs.py: alice (seat 0) is dealt a ready hand, bob (the last
seat, the first dealer) holds an unseen copy of one of her waits and discards it first. Alice's
strip must show exactly her waits with the copies she has not seen — and each count must equal
4 − the copies face up on her own board — and that wait's count must drop by one when bob's copy
lands in his pond. Then, where the rules let a discard win, she wins on it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games.engine import actions
from games.engine.rulesets import get_ruleset
from games.engine.tiles import name
from games.engine.waits import waits_for
from games.rendering.labels import tile_zh
from tests.browser import rigs
from tests.browser.test_play import sign_up, start_the_hand

LANGUAGES = {
    "shanghai": "en",
    "yihua": "zh-hans",
    "cantonese": "en",
    "tianjin": "zh-hans",
    "two_player": "en",
}
# how bob discards his copy of alice's wait: every way a player can
DISCARD_BY = {
    "shanghai": "double-click",
    "yihua": "drag",
    "cantonese": "click twice",
    "tianjin": "keyboard",
    "two_player": "drag",
}


def player(browser: Browser, url: str, language: str = "en", width: int = 1366, height: int = 768) -> Page:
    """A signed-up player in a fresh context, the page in `language` from then on."""
    context = browser.new_context(base_url=url, locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_up(page)
    context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    return page


def rigged_table(
    browser: Browser,
    url: str,
    variant: str,
    language: str = "en",
    private: bool = False,
    timers: tuple[int, int] | None = None,
    pause_ms: int = 0,
) -> tuple[Page, Page]:
    """Alice creates a table (bots between; `private`: with no timer; `timers`: these turn and
    claim seconds; `pause_ms`: the pause after a discard), bob takes the last seat, the hand
    starts; returns (alice, bob) once bob, the dealer, may discard."""
    n = get_ruleset(variant).players
    alice = player(browser, url, language)
    alice.goto("/tables/new/")
    alice.locator("#id_variant").select_option(variant)
    alice.locator("#id_base").fill("2")
    alice.locator("details.advanced summary").click()  # the pause is an advanced setting
    alice.locator("#id_pause_ms").fill(str(pause_ms))
    alice.locator("#id_bots").fill(str(n - 2))
    if private:
        alice.locator("#id_public").uncheck()
        alice.locator("#id_timer").select_option("none")
    elif timers:
        alice.locator("#id_timer").select_option("custom")
        alice.locator("#id_turn_seconds").fill(str(timers[0]))
        alice.locator("#id_claim_seconds").fill(str(timers[1]))
    alice.locator("form.create-form button[type=submit]").click()
    expect(alice).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(alice.locator("#table-root")).to_have_attribute("data-synced", "1")
    bob = player(browser, url)
    bob.goto(alice.locator(".invite-link").get_attribute("data-path") if private else alice.url)
    expect(bob.locator("#table-root")).to_have_attribute("data-synced", "1")
    bob.locator("#board button.sit").click()
    bob.locator("#table-side button.accept").click()
    expect(alice.locator("#table-side button.start")).to_be_visible()
    start_the_hand(alice)
    for page in (alice, bob):  # tianjin: 坐庄 / 拉庄 first (the first choice each)
        expect(page.locator("#board.in-hand")).to_be_visible()
        if variant == "tianjin":
            page.locator("#prompt .tone-choose").first.click()
    expect(bob.locator(".hand.clickable button.hand-tile").first).to_be_visible()
    return alice, bob


def shown_waits(page: Page) -> dict[str, int]:
    """The strip: each wait's tile and its 'n left'."""
    return page.locator("#board .waits .wait").evaluate_all(
        """els => Object.fromEntries(els.map(w => [
             w.querySelector('[data-tile]').dataset.tile,
             parseInt(w.querySelector('.unseen').textContent.match(/\\d+/)[0], 10)]))"""
    )


def face_up_copies(page: Page, tile: str) -> int:
    """Copies of `tile` the page shows face up to its player (own hand, ponds without the tiles
    taken into melds, every meld, the joker indicator) — never the strip itself."""
    selector = ", ".join(
        f'#board {where} [data-tile="{tile}"]'
        for where in (".seat.me .hand", ".river", ".melds", ".indicator", ".concealed")
    )
    return page.locator(selector).evaluate_all(
        "els => els.filter(e => !e.classList.contains('dimmed')).length"
    )


def assert_counts_are_what_she_sees(page: Page, waits: dict[str, int]) -> None:
    for tile, unseen in waits.items():
        assert unseen == 4 - face_up_copies(page, tile), (tile, unseen, face_up_copies(page, tile))


TILE_NAMES = {tile_zh(f"{n}{suit}"): f"{n}{suit}" for suit in "mps" for n in range(1, 10)} | {
    tile_zh(f"{n}z"): f"{n}z" for n in range(1, 8)
}


def hinted_waits(page: Page, tile: str) -> dict[str, int]:
    """The discard → waits hint of a tile of the hand ('then waiting on 一筒 1 Dots ×2, …')."""
    button = page.locator(f'.seat.me .hand button.hand-tile[data-tile="{tile}"]').first
    text = button.get_attribute("data-waits") or ""
    names = "|".join(TILE_NAMES)
    return {TILE_NAMES[zh]: int(k) for zh, k in re.findall(rf"({names}) [^×,]*×(\d+)", text)}


def discard(page: Page, tile: str, how: str) -> None:
    """Discard `tile` from the page's hand by mouse, finger or keyboard."""
    button = page.locator(f'.hand.clickable button.hand-tile[data-tile="{tile}"]').first
    before = page.locator(".seat.me .hand .hand-tile").count()
    if how == "double-click":
        button.dblclick()
    elif how == "drag":
        button.drag_to(page.locator("#board .center"))
    elif how == "click twice":
        button.click()
        expect(button).to_have_class(re.compile(r"\bchosen\b"))  # one click only chooses it
        page.wait_for_timeout(300)
        assert page.locator(".seat.me .hand .hand-tile").count() == before
        button.click()
    elif how == "keyboard":
        page.keyboard.press("ArrowRight")  # into the hand
        for _ in range(before):
            if page.evaluate("document.activeElement.dataset.tile") == tile:
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    expect(page.locator(".seat.me .hand .hand-tile")).to_have_count(before - 1)


@pytest.mark.parametrize("variant", list(rigs.RIGS))
def test_the_rigged_deal_is_the_ready_hand_the_engine_names(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The figures the browser test expects are the engine's (waits.py), for alice as dealt."""
    monkeypatch.setattr(actions, "deal_wall", rigs.rigged_deal_wall)
    n = get_ruleset(variant).players
    state = rigs.rigged_new_hand(variant, 1, dealer=rigs.first_dealer(n), base=2)
    waits = {name(w.tile): w.unseen for w in waits_for(state, 0)}
    assert waits == rigs.RIGS[variant].waits


@pytest.mark.parametrize("variant", list(rigs.RIGS))
def test_waits_on_a_rigged_ready_hand(browser: Browser, rigged_url: str, variant: str) -> None:
    rig = rigs.RIGS[variant]
    alice, bob = rigged_table(browser, rigged_url, variant, LANGUAGES[variant])
    expect(alice.locator("#board .waits")).to_be_visible()
    waits = shown_waits(alice)
    assert waits == rig.waits, waits
    assert_counts_are_what_she_sees(alice, waits)
    if variant == "tianjin":  # the joker she holds (6s) is drawn as one; no win on a discard, and why
        expect(alice.locator('.seat.me .hand .hand-tile.joker[data-tile="6s"]')).to_have_count(1)
        expect(alice.locator("#board .waits .why-not")).to_be_visible()
    else:
        expect(alice.locator("#board .waits .why-not")).to_have_count(0)
    alice.screenshot(path=f"/tmp/mahjong-waits-{variant}.png", full_page=True)

    discard(bob, rig.discard, DISCARD_BY[variant])
    expect(alice.locator(f'#board .river .tile[data-tile="{rig.discard}"]')).to_have_count(1)
    after = {**rig.waits, rig.discard: rig.waits[rig.discard] - 1}
    if get_ruleset(variant).win_on_discard:  # a claim window: her strip, one fewer unseen
        expect(alice.locator("#board .waits")).to_be_visible()
        assert shown_waits(alice) == after
        assert_counts_are_what_she_sees(alice, after)
    else:  # tianjin: no claim, she draws (7z) at once: discarding it, she waits on the same
        expect(alice.locator(".hand.clickable")).to_be_visible()
        assert hinted_waits(alice, "7z") == after
        assert_counts_are_what_she_sees(alice, after)

    if get_ruleset(variant).win_on_discard:  # her wait, discarded: she may win on it
        expect(alice.locator("#prompt .type-win")).to_be_visible()
        alice.keyboard.press("h")
        expect(alice.locator("#settlement.shown")).to_be_visible()
        expect(alice.locator("#settlement .payments tr.winner.you")).to_have_count(1)
    else:  # tianjin wins by self-draw only
        assert alice.locator("#prompt .type-win").count() == 0
    alice.context.close()
    bob.context.close()


def hand_order(page: Page) -> list[str]:
    return page.locator(".seat.me .hand .hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)")


def test_with_auto_sort_off_the_hand_keeps_your_arrangement(browser: Browser, rigged_url: str) -> None:
    alice, bob = rigged_table(browser, rigged_url, "two_player")
    dealt = hand_order(bob)
    assert dealt == [*(f"{n}m" for n in range(1, 10)), "2z", "3z", "3z", "3z", "4z"]  # sorted, drawn 4z apart
    bob.locator('input[data-auto="sort"]').uncheck()
    # drag 1m to the right of the last 3z: it moves there (sorting would put it back first)
    bob.locator('.hand button.hand-tile[data-tile="1m"]').drag_to(
        bob.locator(".hand button.hand-tile").nth(12), target_position={"x": 50, "y": 30}
    )
    mine = [*dealt[1:13], "1m", "4z"]
    assert hand_order(bob) == mine
    discard(bob, "4z", "double-click")  # the next board keeps bob's order
    expect(alice.locator(".hand.clickable")).to_be_visible()
    assert hand_order(bob) == mine[:-1]
    bob.locator('input[data-auto="sort"]').check()  # back to sorted at once
    assert hand_order(bob) == dealt[:-1]
    bob.reload()  # the switch is remembered per browser
    expect(bob.locator('input[data-auto="sort"]')).to_be_checked()
    alice.context.close()
    bob.context.close()
