from django.contrib import admin
from django.urls import include, path

from games.web import views as games_views
from games.web.urls import api_urlpatterns

urlpatterns = [
    path("", games_views.home, name="home"),
    path("favicon.ico", games_views.favicon),
    path("developers/api/", games_views.api_docs, name="api_docs"),
    path("fairness/", games_views.fairness, name="fairness"),
    path("", include("games.web.urls")),
    path("", include("games.history.urls")),  # history, replays, leaderboards and their API
    path("rules/", include("games.urls_rules")),  # the rule book of every variant
    path("api/", include((api_urlpatterns, "api"))),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
