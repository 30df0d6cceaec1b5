"""Security baseline, checked on every change: deploy checks, CSRF, Origin, throttling,
escaping, secure cookies. Scans cover every template and Python file, so a new one is checked too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
SECRET = "k3#Lq9!vR2mZp4@Lw8sT1nB6yH3jF0cD5gA-eU_oI+rE&tY*uQ"  # test only
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": SECRET,
    "ALLOWED_HOSTS": "mahjong.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://mahjong.example.com",
}
SKIP_DIRS = {".venv", "node_modules", "staticfiles", "var", ".git"}
# `|safe`, mark_safe and friends are allowed only here, each with why it holds no user data.
SAFE_ALLOW_LIST: dict[str, str] = {
    "games/moderation/admin_tables.py": "format_html escapes its arguments; the literals are ours",
    "games/rendering/tile_markup.py": "every value goes through _text (html.escape, quotes too) or is"
    " already safe; the literals are ours (tests/games/test_tile_markup.py feeds it markup)",
    "games/templatetags/board_tiles.py": "returns tile_markup's strings, escaped there",
}
UNSAFE = re.compile(r"\|\s*safe\b|mark_safe|SafeString|\{%\s*autoescape\s+off|format_html|\|safeseq")


def files(*suffixes: str) -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        if path.suffix in suffixes and not SKIP_DIRS & set(path.relative_to(ROOT).parts) and path.is_file():
            out.append(path)
    return out


def templates() -> list[Path]:
    return [p for p in files(".html") if "templates" in p.parts]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_for_production_settings() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_session_and_csrf_cookies_are_secure_in_production() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY,"
        " s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0, s.X_FRAME_OPTIONS)"
    )
    result = manage("shell", "--no-imports", "-c", code, **PRODUCTION)
    assert result.stdout.split() == ["True", "True", "True", "True", "True", "DENY"], result.stderr


POST_FORM = re.compile(r"<form\b[^>]*method=[\"']post[\"'][^>]*>(.*?)</form>", re.S | re.I)


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_post_form_carries_the_csrf_token(path: Path) -> None:
    text = path.read_text()
    for body in POST_FORM.findall(text):
        assert "{% csrf_token %}" in body, f"{path}: a POST form without {{% csrf_token %}}"


def test_htmx_requests_carry_the_csrf_header() -> None:
    """base.html sets X-CSRFToken for every htmx request; every page with hx-post etc. extends it."""
    base = (ROOT / "templates" / "base.html").read_text()
    assert re.search(r"hx-headers='\{\"X-CSRFToken\": \"\{\{ csrf_token \}\}\"\}'", base)
    verbs = re.compile(r"\bhx-(post|put|patch|delete)=")
    for path in templates():
        text = path.read_text()
        if verbs.search(text) and path.name != "base.html":
            partial = path.name.startswith("_")  # fragments are only ever swapped into a base page
            assert partial or "{% extends" in text or "X-CSRFToken" in text, path


@pytest.mark.parametrize("path", files(".html", ".py"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_unescaped_output_outside_the_allow_list(path: Path) -> None:
    relative = str(path.relative_to(ROOT))
    if relative.startswith("tests/") or relative in SAFE_ALLOW_LIST:
        return
    hits = [line for line in path.read_text(errors="replace").splitlines() if UNSAFE.search(line)]
    assert not hits, f"{relative}: {hits} — escape it, or add it to SAFE_ALLOW_LIST with the reason"


@pytest.mark.django_db(transaction=True)
async def test_sockets_check_the_origin() -> None:
    from mahjong_site.asgi import application

    for origin, allowed in ((b"http://evil.example", False), (b"http://localhost", True), (None, False)):
        headers = [(b"host", b"localhost")] + ([(b"origin", origin)] if origin else [])
        comm = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
        connected, _ = await comm.connect()
        assert connected is allowed, origin
        await comm.disconnect()


def test_login_is_throttled(db: None, settings: object) -> None:
    user = User.objects.create_user(username="victim", password=PASSWORD)
    client = Client(REMOTE_ADDR="203.0.113.9")
    url = "/accounts/login/"
    for _ in range(5):
        client.post(url, {"username": user.username, "password": "wrong"})
    right = client.post(url, {"username": user.username, "password": PASSWORD})
    assert right.status_code == 429  # locked out even with the right password
    assert "_auth_user_id" not in client.session
