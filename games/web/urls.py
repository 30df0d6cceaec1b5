"""HTML routes (the board UI) and the JSON API routes (`api_urlpatterns`, included under api/),
with quick match's (games.matchmaking.urls) in the same `games` namespace."""

from django.urls import path

from games.matchmaking import urls as matchmaking_urls
from games.web import api, views

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/", views.lobby_fragment, name="lobby_tables"),
    path("tables/new/", views.create_table, name="create"),
    path("practice/", views.practice, name="practice"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    *matchmaking_urls.urlpatterns,
]

api_urlpatterns = [
    path("tables/", api.create_table, name="api_create_table"),
    path("tokens/current", api.current_token, name="api_current_token"),
    *matchmaking_urls.api_urlpatterns,
]
