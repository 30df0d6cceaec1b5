"""The signup throttle behind a proxy that APPENDS to X-Forwarded-For, against a real
daphne run with --proxy-headers (as in production): requests carry the header an appending proxy
forwards, `<whatever the client sent>, <the address the proxy saw>`."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import daphne_on_sqlite

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "jade-pagoda-77"


def _daphne(tmp_path: Path, hops: int) -> Iterator[str]:
    settings = {"CLOCK_IN_PROCESS": "0", "SIGNUPS_PER_ADDRESS_PER_HOUR": "2", "TRUSTED_PROXY_HOPS": str(hops)}
    with daphne_on_sqlite(tmp_path, "--proxy-headers", **settings) as url:
        yield url


@pytest.fixture
def appending_proxy_site(tmp_path: Path) -> Iterator[str]:
    yield from _daphne(tmp_path, hops=1)


def sign_up(url: str, username: str, forwarded_for: str) -> int:
    """A browser's signup (form page, then POST with its CSRF token) through the proxy."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    headers = {"X-Forwarded-For": forwarded_for}
    with opener.open(urllib.request.Request(url + "/accounts/signup/", headers=headers), timeout=10) as page:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())[1]
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password1": PASSWORD, "password2": PASSWORD}
    ).encode()
    request = urllib.request.Request(
        url + "/accounts/signup/", data=data, headers={**headers, "Referer": url + "/"}
    )
    try:
        with opener.open(request, timeout=10) as response:
            return response.status  # 200 after following the redirect home
    except urllib.error.HTTPError as e:
        return e.code


def test_the_throttle_holds_behind_an_appending_proxy_with_its_hop_trusted(appending_proxy_site: str) -> None:
    statuses = [
        sign_up(
            appending_proxy_site, f"spoof{n}", f"10.9.8.{n}, 203.0.113.60"
        )  # a new made-up address each time
        for n in range(4)
    ]
    assert statuses == [200, 200, 429, 429]
    assert (
        sign_up(appending_proxy_site, "neighbour", "10.9.8.1, 198.51.100.61") == 200
    )  # another real address
