"""Quick match's routes: its pages (`urlpatterns`) and its JSON API (`api_urlpatterns`), served in
the `games` URL namespace with the table-facing routes (games.web.urls adds them)."""

from django.urls import path

from games.matchmaking import api, views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/status/", views.play_status, name="play_status"),
    path("play/leave/", views.play_leave, name="play_leave"),
]

api_urlpatterns = [
    path("queue/", api.queue, name="api_queue"),
]
