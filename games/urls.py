"""HTML routes (the board UI) and the JSON API routes (`api_urlpatterns`, included under api/)."""

from django.urls import path

from games import api, api_queue, views, views_queue

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/", views.lobby_fragment, name="lobby_tables"),
    path("tables/new/", views.create_table, name="create"),
    path("practice/", views.practice, name="practice"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    path("play/", views_queue.play, name="play"),  # quick match (games.matchmaking)
    path("play/status/", views_queue.play_status, name="play_status"),
    path("play/leave/", views_queue.play_leave, name="play_leave"),
]

api_urlpatterns = [
    path("tables/", api.create_table, name="api_create_table"),
    path("tokens/current", api.current_token, name="api_current_token"),
    path("queue/", api_queue.queue, name="api_queue"),
]
