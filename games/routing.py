from django.urls import path

from games import bench_echo, consumers

websocket_urlpatterns = [
    path("ws/ping/", consumers.PingConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
]
websocket_urlpatterns += bench_echo.routes()  # empty unless MAHJONG_BENCH_ECHO=1 (make loadtest ECHO=1)
