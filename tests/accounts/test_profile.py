import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tests.conftest import PASSWORD


def test_profile_shows_username_balance_and_date_joined(alice_client: Client, alice: User) -> None:
    html = alice_client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "alice" in html
    assert '<strong class="points">1000</strong>' in html
    assert "Date joined" in html
    assert str(alice.date_joined.year) in html


@pytest.mark.django_db
def test_profile_needs_login(anon_client: Client) -> None:
    response = anon_client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/profile/"


def test_change_password(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": "white-dragon-99", "new_password2": "white-dragon-99"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    alice.refresh_from_db()
    assert alice.check_password("white-dragon-99")
    # Still logged in after the change.
    assert alice_client.get("/accounts/profile/").status_code == 200


def test_change_password_rejects_wrong_old_password(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": "white-dragon-99", "new_password2": "white-dragon-99"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_ensure_demo_user_creates_and_resets(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("ensure_demo_user")
    demo = User.objects.get(username="demo")
    demo.set_password("changed")
    demo.save()
    call_command("ensure_demo_user")
    demo.refresh_from_db()
    assert demo.check_password("mahjong-demo")
    assert demo.profile.balance == 1000
    assert "Demo login: demo / mahjong-demo" in capsys.readouterr().out
