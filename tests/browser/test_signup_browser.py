import re
import uuid

from playwright.sync_api import Browser, Page, expect


def test_sign_up_in_the_browser_shows_balance_in_header(page: Page) -> None:
    username = f"p{uuid.uuid4().hex[:10]}"
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Play Chinese mahjong live in your browser")
    page.screenshot(path="/tmp/mahjong-home-anonymous.png", full_page=True)

    page.locator("header").get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill("jade-pagoda-77")
    page.locator("#id_password2").fill("jade-pagoda-77")
    page.screenshot(path="/tmp/mahjong-signup-form.png", full_page=True)
    page.locator("form.form").get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#balance")).to_contain_text("1000")
    expect(page.locator("header")).to_contain_text(username)
    expect(page.locator("h1")).to_have_text(f"Welcome, {username}!")  # not "back": new here
    page.screenshot(path="/tmp/mahjong-home-signed-up.png", full_page=True)


def test_wrong_password_error_and_language_switch(page: Page) -> None:
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("nobody")
    page.locator("#id_password").fill("wrong-password")
    page.locator("form.form").get_by_role("button", name="Log in").click()
    expect(page.locator(".errorlist")).to_contain_text("Please enter a correct username and password.")

    page.locator("form.lang").get_by_role("button", name="简体中文").click()
    expect(page.locator("header")).to_contain_text("登录")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")


def test_phone_sign_up_in_chinese(browser: Browser, live_server_url: str) -> None:
    context = browser.new_context(
        base_url=live_server_url, viewport={"width": 375, "height": 740}, locale="zh-CN"
    )
    page = context.new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text("在浏览器里实时打中国麻将")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scrolling
    page.screenshot(path="/tmp/mahjong-home-mobile.png", full_page=True)

    page.locator(".hero").get_by_role("link", name="注册").click()
    username = f"m{uuid.uuid4().hex[:10]}"
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill("jade-pagoda-77")
    page.locator("#id_password2").fill("jade-pagoda-78")
    page.locator("form.form").get_by_role("button", name="注册").click()
    expect(page.locator(".errorlist")).to_be_visible()  # mismatched passwords, shown in Chinese
    page.screenshot(path="/tmp/mahjong-signup-error-mobile.png", full_page=True)
    page.locator("#id_password1").fill("jade-pagoda-77")
    page.locator("#id_password2").fill("jade-pagoda-77")
    page.locator("form.form").get_by_role("button", name="注册").click()

    expect(page.locator("#balance")).to_contain_text("1000")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path="/tmp/mahjong-home-mobile-logged-in.png", full_page=True)
    context.close()
