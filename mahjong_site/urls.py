from django.contrib import admin
from django.urls import include, path

from games.clubs.urls import api_urlpatterns as club_api_urlpatterns
from games.tournaments.urls import api_urlpatterns as tournament_api
from games.web import views as games_views
from games.web.urls import api_urlpatterns

urlpatterns = [
    path("", games_views.home, name="home"),
    path("favicon.ico", games_views.favicon),
    path("developers/api/", games_views.api_docs, name="api_docs"),
    path("fairness/", games_views.fairness, name="fairness"),
    path("", include("games.web.urls")),
    path("", include("games.history.urls")),  # history, replays, leaderboards and their API
    path("", include("games.review.urls")),  # 复盘 review of a finished hand, its page and API
    path("rules/", include("games.rules.urls")),  # the rule book of every variant
    path("clubs/", include("games.clubs.urls")),  # clubs (亲友圈), docs/clubs.md
    path("tournaments/", include("games.tournaments.urls")),
    path("api/", include((tournament_api, "tournaments_api"))),
    path("api/", include((api_urlpatterns, "api"))),
    path("api/", include((club_api_urlpatterns, "clubs_api"))),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
