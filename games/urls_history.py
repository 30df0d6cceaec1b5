"""History, replays and leaderboards: pages and their JSON API (included from mahjong_site.urls)."""

from django.urls import path

from games import api_history, api_ranks, views_history

app_name = "history"

urlpatterns = [
    path("users/<str:username>/history/", views_history.user_history, name="user"),
    path("hands/<int:pk>/replay/", views_history.replay, name="replay"),
    path("leaderboard/", views_history.leaderboard, name="leaderboard"),
    path("replays/open/", views_history.open_record, name="open_record"),
    path("api/hands/<int:pk>/replay", api_history.hand_replay, name="api_replay"),
    path("api/hands/<int:pk>/record", api_history.hand_record, name="api_hand_record"),
    path("api/matches/<int:pk>/record", api_history.match_record, name="api_match_record"),
    path("api/users/<str:username>/matches", api_history.user_matches, name="api_matches"),
    path("api/users/<str:username>", api_ranks.user_profile, name="api_user"),  # with the ranks
    path("api/leaderboard", api_history.leaderboard, name="api_leaderboard"),
]
