import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from pytest_django.fixtures import Settings

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str, password: str, **extra: str) -> HttpResponse:
    data = {"username": username, "password": password, **extra}
    return client.post("/accounts/login/", data, HTTP_ACCEPT_LANGUAGE="en")


def test_login_page_renders(anon_client: Client) -> None:
    response = anon_client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()


def test_login_with_right_password(anon_client: Client, alice: User) -> None:
    response = log_in(anon_client, "alice", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "Welcome back, alice!" in anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_login_follows_safe_next_only(anon_client: Client, alice: User) -> None:
    response = log_in(anon_client, "alice", PASSWORD, next="/accounts/profile/")
    assert response["Location"] == "/accounts/profile/"
    anon_client.logout()
    assert log_in(anon_client, "alice", PASSWORD, next="https://evil.example/")["Location"] == "/"


def test_wrong_password_shows_a_clear_error(anon_client: Client, alice: User) -> None:
    response = log_in(anon_client, "alice", "not-the-password")
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in anon_client.session


def test_five_failures_lock_the_account_out(anon_client: Client, alice: User, settings: Settings) -> None:
    assert settings.AXES_ENABLED
    for _ in range(4):
        assert log_in(anon_client, "alice", "wrong").status_code == 200
    locked = log_in(anon_client, "alice", "wrong")  # the fifth failure locks
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "locked for 15 minutes" in locked.content.decode()
    # Even the right password is refused while locked out.
    assert log_in(anon_client, "alice", PASSWORD).status_code == 429
    assert "_auth_user_id" not in anon_client.session


def test_lockout_is_per_username(anon_client: Client, alice: User, bob: User) -> None:
    for _ in range(5):
        log_in(anon_client, "alice", "wrong")
    assert log_in(anon_client, "bob", PASSWORD).status_code == 302


def test_success_resets_the_failure_count(anon_client: Client, alice: User) -> None:
    for _ in range(4):
        log_in(anon_client, "alice", "wrong")
    assert log_in(anon_client, "alice", PASSWORD).status_code == 302
    anon_client.logout()
    for _ in range(4):
        assert log_in(anon_client, "alice", "wrong").status_code == 200


def test_logout_needs_post(alice_client: Client) -> None:
    assert alice_client.get("/accounts/logout/").status_code == 405
    assert alice_client.post("/accounts/logout/")["Location"] == "/"
    assert "_auth_user_id" not in alice_client.session
