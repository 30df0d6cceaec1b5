"""Club pages (/clubs/…) and the clubs' JSON API (`api_urlpatterns`, under /api/)."""

from django.urls import path

from games.clubs import api, views

app_name = "clubs"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("join/<str:code>/", views.join, name="join"),
    path("<int:pk>/", views.club_page, name="club"),
    path("<int:pk>/tables/", views.open_table, name="open_table"),
    path("<int:pk>/announcement/", views.announcement, name="announcement"),
    path("<int:pk>/policy/", views.policy, name="policy"),
    path("<int:pk>/invite/", views.new_invite, name="new_invite"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/members/<int:member>/<str:action>/", views.member_action, name="member_action"),
]

api_urlpatterns = [
    path("clubs/join", api.join, name="api_club_join"),
    path("clubs/<int:pk>/tables", api.tables, name="api_club_tables"),
]
