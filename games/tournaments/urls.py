"""/tournaments/ pages and the tournaments' JSON API (`api_urlpatterns`, under api/)."""

from django.urls import path

from games.tournaments import api, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create, name="create"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/results/", views.results, name="results"),
    path("<int:pk>/record.json", views.record, name="record"),
    path("<int:pk>/signup/", views.sign_up, name="signup"),
    path("<int:pk>/checkin/", views.check_in, name="checkin"),
    path("<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/tables/<str:action>/", views.table_action, name="table_action"),
    path("<int:pk>/disqualify/", views.disqualify, name="disqualify"),
]

api_urlpatterns = [
    path("tournaments/<int:pk>/signup", api.sign_up, name="api_tournament_signup"),
    path("tournaments/<int:pk>/checkin", api.check_in, name="api_tournament_checkin"),
    path("tournaments/<int:pk>/standings", api.standings, name="api_tournament_standings"),
]
