"""Routes of the rules pages (included at /rules/)."""

from django.urls import path

from games.rules import views
from mahjong_site.db_router import replica_reads as r  # reads may lag: the replica while it is well

app_name = "rules"

urlpatterns = [
    path("", r(views.index), name="index"),
    path("<slug:variant>/", r(views.variant), name="variant"),
]
