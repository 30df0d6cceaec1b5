"""Routes of the rules pages (included at /rules/)."""

from django.urls import path

from games.rules import views

app_name = "rules"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:variant>/", views.variant, name="variant"),
]
