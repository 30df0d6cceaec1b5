"""Signups and API token creation are throttled per address (also behind a proxy)."""

from __future__ import annotations

import threading

import pytest
from daphne.utils import parse_x_forwarded_for
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from accounts.models import ApiToken, Profile
from accounts.services import create_api_token
from tests.conftest import logged_in_client

PASSWORD = "jade-pagoda-77"


def sign_up(client: Client, username: str) -> int:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", data).status_code


def test_signups_per_address_are_throttled_and_the_address_is_kept(db: None, settings: object) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3
    statuses = [sign_up(Client(REMOTE_ADDR="203.0.113.7"), f"throwaway{n}") for n in range(5)]
    assert statuses == [302, 302, 302, 429, 429]
    assert User.objects.filter(username__startswith="throwaway").count() == 3
    assert set(Profile.objects.values_list("signup_ip", flat=True)) == {"203.0.113.7"}
    assert sign_up(Client(REMOTE_ADDR="198.51.100.1"), "elsewhere") == 302  # another address is not held up


def test_the_refusal_is_explained(db: None, settings: object) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 0
    response = Client(REMOTE_ADDR="203.0.113.8").post(
        "/accounts/signup/", {"username": "late", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 429
    assert "Too many accounts" in response.content.decode() or "太多" in response.content.decode()
    assert not User.objects.filter(username="late").exists()


def test_daily_limit(db: None, settings: object) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 100
    settings.SIGNUPS_PER_ADDRESS_PER_DAY = 2
    assert [sign_up(Client(REMOTE_ADDR="203.0.113.9"), f"d{n}") for n in range(3)] == [302, 302, 429]


def _behind_appending_proxy(client_says: str, proxy_saw: str) -> Client:
    """A client behind a proxy that APPENDS to X-Forwarded-For, seen by daphne --proxy-headers:
    REMOTE_ADDR is what daphne's own parser takes (the header's first entry, client-chosen)."""
    header = f"{client_says}, {proxy_saw}"
    (address, _port), _scheme = parse_x_forwarded_for(
        {b"x-forwarded-for": [header.encode()]}, original_addr=None
    )
    return Client(REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=header)


def test_an_appending_proxy_lets_clients_pick_their_address_unless_its_hops_are_trusted(
    db: None, settings: object
) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2
    # Misconfigured (TRUSTED_PROXY_HOPS=0 behind a proxy that appends): each made-up address passes.
    settings.TRUSTED_PROXY_HOPS = 0
    spoofed = [sign_up(_behind_appending_proxy(f"10.0.0.{n}", "203.0.113.50"), f"spoof{n}") for n in range(4)]
    assert spoofed == [302] * 4  # why docs/operations.md asks the proxy to SET the header
    # TRUSTED_PROXY_HOPS=1: the entry the proxy appended counts, whatever the client sent.
    settings.TRUSTED_PROXY_HOPS = 1
    held = [sign_up(_behind_appending_proxy(f"10.0.1.{n}", "203.0.113.60"), f"held{n}") for n in range(4)]
    assert held == [302, 302, 429, 429]
    assert set(
        Profile.objects.filter(user__username__startswith="held").values_list("signup_ip", flat=True)
    ) == {"203.0.113.60"}


def test_a_proxy_that_sets_the_header_needs_nothing_more(db: None, settings: object) -> None:
    """nginx `proxy_set_header X-Forwarded-For $remote_addr`: the header is the one address."""
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 1
    (address, _), _ = parse_x_forwarded_for({b"x-forwarded-for": [b"203.0.113.70"]}, original_addr=None)
    assert sign_up(Client(REMOTE_ADDR=address), "first") == 302
    assert sign_up(Client(REMOTE_ADDR=address), "second") == 429


def test_api_tokens_are_throttled_per_user_and_per_address(alice: User, bob: User, settings: object) -> None:
    settings.TOKENS_PER_USER_PER_HOUR = 2
    settings.TOKENS_PER_ADDRESS_PER_HOUR = 3
    client = logged_in_client(alice)
    statuses = [
        client.post("/accounts/profile/token/", REMOTE_ADDR="203.0.113.20").status_code for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    assert ApiToken.objects.filter(user=alice).count() == 2
    bobs = logged_in_client(bob)
    assert bobs.post("/accounts/profile/token/", REMOTE_ADDR="203.0.113.20").status_code == 200
    assert (
        bobs.post("/accounts/profile/token/", REMOTE_ADDR="203.0.113.20").status_code == 429
    )  # the address's 4th
    # Revoking does not reset the count (revoked tokens stay as rows).
    client.post(f"/accounts/profile/token/{ApiToken.objects.filter(user=alice).first().pk}/revoke/")
    assert client.post("/accounts/profile/token/", REMOTE_ADDR="198.51.100.3").status_code == 429
    assert create_api_token(alice)  # the command line (an admin) is not throttled


@pytest.mark.django_db(transaction=True)
def test_simultaneous_signups_from_one_address_are_held_to_the_limit(
    postgres: None, settings: object
) -> None:
    """Twelve signups at once (the red team's 2.7 s burst): the advisory lock lets three through."""
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3
    statuses: list[int] = []
    barrier = threading.Barrier(12)

    def one(n: int) -> None:
        try:
            barrier.wait()
            statuses.append(sign_up(Client(REMOTE_ADDR="203.0.113.99"), f"burst{n}"))
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [302] * 3 + [429] * 9
    assert User.objects.filter(username__startswith="burst").count() == 3
