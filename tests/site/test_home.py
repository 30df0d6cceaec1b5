import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_greets_anonymous_visitors_with_signup_and_login(anon_client: Client) -> None:
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Play Chinese mahjong live in your browser" in html
    assert 'href="/accounts/signup/"' in html
    assert 'href="/accounts/login/"' in html
    assert 'id="balance"' not in html


def test_home_greets_logged_in_user_with_balance(alice_client: Client) -> None:
    html = alice_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Welcome back, alice!" in html
    assert '<strong class="points">1000</strong>' in html
    assert 'id="balance"' in html  # header shows the balance too
    assert 'href="/accounts/profile/"' in html


def test_base_layout_loads_htmx_and_sends_csrf_on_every_htmx_request(alice_client: Client) -> None:
    html = alice_client.get("/").content.decode()
    assert "/static/django_htmx/htmx-2.min.js" in html
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in html
    assert """hx-headers='{"X-CSRFToken": \"""" in html
    assert "/static/css/site.css" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept_language", "expected", "lang"),
    [
        ("zh-CN,zh;q=0.9", "在浏览器里实时打中国麻将", "zh-hans"),
        ("zh-Hans", "在浏览器里实时打中国麻将", "zh-hans"),
        ("en-US,en;q=0.8", "Play Chinese mahjong live in your browser", "en"),
        ("fr-FR", "在浏览器里实时打中国麻将", "zh-hans"),  # nothing matches: the default, Chinese
    ],
)
def test_language_follows_accept_language(
    anon_client: Client, accept_language: str, expected: str, lang: str
) -> None:
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE=accept_language).content.decode()
    assert expected in html
    assert f'<html lang="{lang}">' in html


@pytest.mark.django_db
def test_language_switch_sets_the_language(anon_client: Client) -> None:
    response = anon_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert "Play Chinese mahjong live in your browser" in html
    assert "Sign up" in html

    anon_client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "在浏览器里实时打中国麻将" in html
    assert "注册" in html


@pytest.mark.django_db
def test_static_css_is_served_without_collectstatic(anon_client: Client) -> None:
    response = anon_client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"--felt" in b"".join(response.streaming_content)
