"""The review's page, its polling fragment and its JSON (included from mahjong_site.urls)."""

from django.urls import path

from games.review import api, views

app_name = "review"

urlpatterns = [
    path("hands/<int:pk>/review/", views.review, name="page"),
    path("hands/<int:pk>/review/status/", views.review_status, name="status"),
    path("replays/open/review/<str:digest>/", views.open_review, name="opened"),
    path("api/hands/<int:pk>/review", api.hand_review, name="api"),
]
