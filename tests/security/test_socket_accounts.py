"""Sockets follow the account: a password change or a deactivation closes every open socket of
that account (session or token, any table); and the anonymous cap is decided by who the socket
turned out to be, never by a `token=` written into the address."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import create_api_token
from games.sockets.frames import CLOSE_LOGGED_OUT
from tests.conftest import PASSWORD, logged_in_client
from tests.games.conftest import bot_table
from tests.security.test_sockets import frames_until_close, socket

pytestmark = pytest.mark.django_db(transaction=True)


def cookie(client: Client) -> list[tuple[bytes, bytes]]:
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())]


async def open_sockets(user: User) -> list:
    """One session socket (another device) and one API-token socket of `user` at a table."""
    table = await sync_to_async(bot_table)(user, "shanghai", 2, None)
    other_device = await sync_to_async(logged_in_client)(user)
    token = await sync_to_async(create_api_token)(user)
    comms = [
        socket(f"/ws/tables/{table.pk}/?format=json", cookie(other_device)),
        socket(f"/ws/tables/{table.pk}/?token={token}"),
    ]
    for comm in comms:
        assert (await comm.connect())[0]
        assert json.loads(await comm.receive_from(timeout=5))["view"]["viewer"]["user"] == user.username
    return comms


async def test_a_password_change_closes_every_socket_of_the_account(alice: User) -> None:
    comms = await open_sockets(alice)
    client = await sync_to_async(logged_in_client)(alice)
    new = "An0ther-long-pass"
    form = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    await sync_to_async(client.post)("/accounts/password/", form)
    assert await sync_to_async(lambda: User.objects.get(pk=alice.pk).check_password(new))()
    for comm in comms:
        frames, code = await frames_until_close(comm)
        assert code == CLOSE_LOGGED_OUT or frames[-1]["code"] == "token_revoked"
        assert frames[-1]["code"] in ("account_changed", "token_revoked")


async def test_deactivating_an_account_closes_its_sockets(alice: User) -> None:
    comms = await open_sockets(alice)

    def deactivate() -> None:
        user = User.objects.get(pk=alice.pk)
        user.is_active = False
        user.save()

    await sync_to_async(deactivate)()
    for comm in comms:
        frames, code = await frames_until_close(comm)
        assert frames[-1]["code"] == "account_changed"


async def test_an_unrelated_save_of_the_user_closes_nothing(alice: User) -> None:
    comms = await open_sockets(alice)
    await sync_to_async(User.objects.filter(pk=alice.pk).update)(first_name="A")

    def rename() -> None:
        user = User.objects.get(pk=alice.pk)
        user.first_name = "Alice"
        user.save()

    await sync_to_async(rename)()
    for comm in comms:
        assert await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()


@pytest.mark.parametrize("query", ["token=x", "xtoken=1", "format=json&token="])
async def test_a_token_in_the_address_does_not_lift_the_anonymous_cap(settings: object, query: str) -> None:
    settings.ANONYMOUS_SOCKETS_PER_ADDRESS = 2
    held = []
    for _ in range(2):
        comm = socket(f"/ws/ping/?{query}", client="203.0.113.9")
        assert (await comm.connect())[0]
        held.append(comm)
    refused = socket(f"/ws/ping/?{query}", client="203.0.113.9")
    assert not (await refused.connect())[0]
    for comm in held:
        await comm.disconnect()


async def test_a_valid_token_is_not_anonymous(settings: object, alice: User) -> None:
    settings.ANONYMOUS_SOCKETS_PER_ADDRESS = 1
    token = await sync_to_async(create_api_token)(alice)
    anonymous = socket("/ws/ping/", client="203.0.113.10")
    assert (await anonymous.connect())[0]
    with_token = socket(f"/ws/ping/?token={token}", client="203.0.113.10")
    assert (await with_token.connect())[0]
    for comm in (anonymous, with_token):
        await comm.disconnect()
