"""The board reconnects after the server's own close codes and waits what a busy server asks
(static/games/board.js; docs/protocol.md "Admission control, reconnecting and resuming")."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_play import create_table, sign_up

SOCKET = "document.getElementById('table-root')['htmx-internal-data'].webSocket"


def test_the_board_comes_back_after_4013_and_resumes_without_a_reload(page: Page) -> None:
    sign_up(page)
    create_table(page, "shanghai")
    root = page.locator("#table-root")
    page.evaluate("window.__notReloaded = true")
    # The server closes a `busy` socket with 4013; a browser cannot make the server send it, so
    # the socket is closed here and the extension's close handler is given the server's code.
    page.evaluate(
        f"""() => {{
            const socket = {SOCKET}.socket, handler = socket.onclose;
            socket.onclose = null;
            socket.close();
            handler(new CloseEvent('close', {{code: 4013, wasClean: true}}));
        }}"""
    )
    expect(root).to_have_attribute("data-connection", "closed")
    expect(root).to_have_attribute("data-connection", "open", timeout=15_000)
    expect(root).to_have_attribute("data-synced", "1", timeout=15_000)  # the new socket's first state
    assert page.evaluate("window.__notReloaded") is True


def test_a_busy_notice_sets_the_next_wait_once(page: Page) -> None:
    sign_up(page)
    create_table(page, "shanghai")
    waits = page.evaluate(
        """() => {
            const notice = document.getElementById('notice');
            notice.setAttribute('data-code', 'busy');
            notice.setAttribute('data-retry-after', '3');
            document.dispatchEvent(new CustomEvent('htmx:wsAfterMessage'));
            const delay = htmx.config.wsReconnectDelay;
            return [delay(0), delay(0), delay(10)];
        }"""
    )
    assert 3000 <= waits[0] < 4000  # retry_after plus a full-jitter share of the first window
    assert 0 <= waits[1] < 1000  # read once: the next drop starts afresh
    assert 0 <= waits[2] < 64_000  # the window doubles up to 64 s
    expect(page.locator("#table-root")).not_to_have_attribute("data-synced", "")
