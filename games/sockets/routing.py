from django.urls import path

from games.sockets import bench_echo
from games.sockets.ping import PingConsumer
from games.sockets.table import TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
websocket_urlpatterns += bench_echo.routes()  # empty unless MAHJONG_BENCH_ECHO=1 (make loadtest ECHO=1)
