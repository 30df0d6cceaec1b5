"""ASGI entry point: plain HTTP through Django, websockets through Channels.

Run with `daphne mahjong_site.asgi:application` (or `python manage.py runserver`).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")

# Set up Django (apps, settings) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.clock_task import ClockStarter  # noqa: E402
from games.penalties import record_server_start  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

record_server_start()  # disconnects from before a restart are nobody's fault (games.penalties)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

if settings.CLOCK_IN_PROCESS:  # the embedded default: see games/clock_task.py
    application = ClockStarter(application)
