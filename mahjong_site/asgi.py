"""ASGI entry point: plain HTTP through Django, websockets through Channels.

Run with `daphne mahjong_site.asgi:application` (or `python manage.py runserver`).
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

# Set up Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.db import database_sync_to_async  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from games.clock.task import ClockStarter  # noqa: E402
from games.moderation.penalties import record_server_start  # noqa: E402
from games.sockets.routing import websocket_urlpatterns  # noqa: E402
from mahjong_site import gc_tuning, loop_tuning  # noqa: E402
from mahjong_site.socket_guards import AnonymousSocketCap, OriginValidator  # noqa: E402
from mahjong_site.ws_sessions import SocketAuthMiddlewareStack  # noqa: E402


class RecordsServerStart:
    """Records this server process's start (games.moderation.penalties: disconnects from before a
    restart are nobody's fault) on its first request or socket — not at import, because
    importing the application (tests do, before any database is set up) must not touch one.
    After a restart the first reconnecting client comes within seconds (`make run` and a
    proxy's health check ping at once)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.recorded = False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if not self.recorded:
            self.recorded = True
            await database_sync_to_async(record_server_start)()
        await self.app(scope, receive, send)


# Sockets: Origin (scheme, host, port) first, then the session, then the anonymous cap per address.
sockets = OriginValidator(SocketAuthMiddlewareStack(AnonymousSocketCap(URLRouter(websocket_urlpatterns))))
application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": sockets})

if settings.CLOCK_IN_PROCESS:  # the embedded default: see games/clock/task.py
    application = ClockStarter(application)
application = RecordsServerStart(application)

# What is imported by now lives as long as the process, and so does what survives a full
# collection: take it out of the collector's sight (pauses of 60–180 ms under load otherwise).
gc_tuning.install()
loop_tuning.install()  # autobahn's unlogged debug text; the switch interval if asked
