"""History, replays and leaderboards: pages and their JSON API (included from mahjong_site.urls).

They only look back, so each may read from the PostgreSQL replica (`r`: mahjong_site/db_router.py)
— except opening an uploaded record, which writes (its upload counts toward the limits)."""

from django.urls import path

from games.history import api, api_ranks, views
from mahjong_site.db_router import replica_reads as r  # reads may lag: the replica while it is well

app_name = "history"

urlpatterns = [
    path("users/<str:username>/history/", r(views.user_history), name="user"),
    path("hands/<int:pk>/replay/", r(views.replay), name="replay"),
    path("leaderboard/", r(views.leaderboard), name="leaderboard"),
    path("replays/open/", views.open_record, name="open_record"),
    path("api/hands/<int:pk>/replay", r(api.hand_replay), name="api_replay"),
    path("api/hands/<int:pk>/record", r(api.hand_record), name="api_hand_record"),
    path("api/matches/<int:pk>/record", r(api.match_record), name="api_match_record"),
    path("api/users/<str:username>/matches", r(api.user_matches), name="api_matches"),
    path("api/users/<str:username>", r(api_ranks.user_profile), name="api_user"),  # with the ranks
    path("api/leaderboard", r(api.leaderboard), name="api_leaderboard"),
]
