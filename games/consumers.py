"""Websocket consumers. For now only a ping/echo socket used to test the socket stack.

The table consumer (`ws/tables/<id>/`) is added here by the live-play work.
"""

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Accepts any connection that passed the Origin check and echoes each JSON message."""

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json(content)
