"""Routes of the rules pages (included at /rules/)."""

from django.urls import path

from games import rules_views

app_name = "rules"

urlpatterns = [
    path("", rules_views.index, name="index"),
    path("<slug:variant>/", rules_views.variant, name="variant"),
]
