"""History, replays and leaderboards: pages and their JSON API (included from mahjong_site.urls)."""

from django.urls import path

from games.history import api, api_ranks, views

app_name = "history"

urlpatterns = [
    path("users/<str:username>/history/", views.user_history, name="user"),
    path("hands/<int:pk>/replay/", views.replay, name="replay"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("replays/open/", views.open_record, name="open_record"),
    path("api/hands/<int:pk>/replay", api.hand_replay, name="api_replay"),
    path("api/hands/<int:pk>/record", api.hand_record, name="api_hand_record"),
    path("api/matches/<int:pk>/record", api.match_record, name="api_match_record"),
    path("api/users/<str:username>/matches", api.user_matches, name="api_matches"),
    path("api/users/<str:username>", api_ranks.user_profile, name="api_user"),  # ranks (issue 18)
    path("api/leaderboard", api.leaderboard, name="api_leaderboard"),
]
