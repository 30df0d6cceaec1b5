"""The websocket stack: Origin checking (AllowedHostsOriginValidator) and session auth."""

import pytest
from channels.testing import WebsocketCommunicator

from mahjong_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def test_ping_accepts_own_origin_and_echoes_json() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "n": 1})
    assert await communicator.receive_json_from() == {"type": "ping", "n": 1}
    await communicator.disconnect()


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://testserver.evil.example"])
async def test_ping_refuses_foreign_origin(origin: bytes) -> None:
    headers = [(b"origin", origin), (b"host", b"testserver")]
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


async def test_ping_refuses_missing_origin() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
