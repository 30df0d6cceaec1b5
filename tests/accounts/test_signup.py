import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import Profile
from accounts.services import grant_starting_balance

pytestmark = pytest.mark.django_db

GOOD = {"username": "carol", "password1": "jade-pagoda-77", "password2": "jade-pagoda-77"}


def signup(client: Client, **fields: str) -> HttpResponse:
    return client.post("/accounts/signup/", {**GOOD, **fields}, HTTP_ACCEPT_LANGUAGE="en")


def test_signup_page_renders(anon_client: Client) -> None:
    html = anon_client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Create your account" in html
    assert "New players start with 1000 virtual points." in html


def test_signup_creates_user_with_starting_balance_and_logs_in(anon_client: Client) -> None:
    response = signup(anon_client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get(username="carol")
    assert user.profile.balance == 1000
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Welcome, carol!</h1>" in html and "Welcome back" not in html  # a new player
    assert "Welcome, carol! Your account is ready." in html
    assert "<h1>Welcome back, carol!</h1>" in anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_starting_balance_comes_from_settings(anon_client: Client, settings: Settings) -> None:
    settings.STARTING_BALANCE = 250
    signup(anon_client)
    assert User.objects.get(username="carol").profile.balance == 250


def test_duplicate_username_is_rejected_in_any_letter_case(anon_client: Client, alice: User) -> None:
    response = signup(anon_client, username="Alice")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_mismatched_passwords_are_rejected(anon_client: Client) -> None:
    response = signup(anon_client, password2="something-else-88")
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.filter(username="carol").exists()


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short1", "This password is too short."),
        ("password123", "This password is too common."),
        ("8374619205", "This password is entirely numeric."),
    ],
)
def test_password_validators_apply(anon_client: Client, password: str, message: str) -> None:
    response = signup(anon_client, password1=password, password2=password)
    assert message in response.content.decode()
    assert not User.objects.filter(username="carol").exists()


def test_errors_are_translated_to_chinese(anon_client: Client, alice: User) -> None:
    response = anon_client.post(
        "/accounts/signup/", {**GOOD, "username": "alice"}, HTTP_ACCEPT_LANGUAGE="zh-CN"
    )
    assert "已存在一位使用该名字的用户。" in response.content.decode()


def test_logged_in_user_is_sent_home_from_signup(alice_client: Client) -> None:
    assert alice_client.get("/accounts/signup/")["Location"] == "/"


def test_every_new_user_gets_a_profile_once(alice: User) -> None:
    assert Profile.objects.filter(user=alice).count() == 1
    alice.save()  # saving again grants nothing more
    assert grant_starting_balance(alice).balance == 1000
    assert Profile.objects.filter(user=alice).count() == 1


def test_balance_can_never_be_negative(alice: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.filter(user=alice).update(balance=-1)
