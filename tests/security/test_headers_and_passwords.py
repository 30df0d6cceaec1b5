"""The Content-Security-Policy (no inline script or style anywhere), and passwords that
are the user name typed twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD, logged_in_client

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(p for d in ("templates", "accounts", "games") for p in (ROOT / d).rglob("*.html"))
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)  # a <script> without src
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)  # onclick=, onload=, …
INLINE_STYLE = re.compile(r"\sstyle\s*=|<style", re.I)
HTMX_EVAL = re.compile(r"hx-on|js:|javascript:", re.I)  # htmx runs these with eval: refused by the CSP


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_have_no_inline_script_or_style(path: Path) -> None:
    text = path.read_text()
    json_data = re.sub(r'<script type="application/json".*?</script>', "", text, flags=re.S)  # data, not code
    for pattern in (INLINE_SCRIPT, INLINE_HANDLER, INLINE_STYLE, HTMX_EVAL):
        assert not pattern.search(json_data), f"{path.relative_to(ROOT)}: {pattern.pattern}"


def policy(response: object) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.strip() for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/lobby/"])
def test_pages_send_a_policy_without_inline_script(db: None, url: str) -> None:
    directives = policy(Client().get(url))
    assert directives["script-src"] == "script-src 'self'"
    assert directives["style-src"] == "style-src 'self'"
    assert directives["object-src"] == "object-src 'none'"
    assert directives["frame-ancestors"] == "frame-ancestors 'none'"
    assert "unsafe" not in "".join(directives.values())


def test_htmx_is_told_not_to_inject_styles_or_eval(alice: User) -> None:
    page = logged_in_client(alice).get("/lobby/").content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'', page)
    assert (
        config
        and '"includeIndicatorStyles": false' in config.group(1)
        and '"allowEval": false' in config.group(1)
    )


def test_the_admin_pages_carry_the_policy_too(db: None) -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    response = logged_in_client(admin).get("/admin/")
    assert response.status_code == 200 and "script-src 'self'" in response["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("username", "password", "accepted"),
    [
        ("pwtest3", "pwtest3pwtest3", False),  # the red team's: 67 % similar, past Django's check
        ("pwtest3", "PWTEST3-dragon!", False),
        ("pwtest3", "3tsetwp-dragon!", False),  # reversed
        ("pwtest3", "jade-pagoda-77", True),
        ("ab", "ab-jade-pagoda-77", True),  # a two-letter name occurs by chance
    ],
)
def test_signup_refuses_a_password_containing_the_user_name(
    db: None, username: str, password: str, accepted: bool
) -> None:
    response = Client().post(
        "/accounts/signup/", {"username": username, "password1": password, "password2": password}
    )
    assert User.objects.filter(username=username).exists() is accepted
    if not accepted:
        assert response.status_code == 200 and "user name" in response.content.decode().replace(
            "用户名", "user name"
        )


def test_password_change_is_validated_too(alice: User) -> None:
    data = {"old_password": PASSWORD, "new_password1": "xxalicexx99", "new_password2": "xxalicexx99"}
    logged_in_client(alice).post("/accounts/password/", data)
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
