from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("password/", views.password_change, name="password_change"),
    path("profile/", views.profile, name="profile"),
    path("profile/token/", views.create_token, name="create_token"),
    path("profile/token/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("profile/tokens/revoke/", views.revoke_all_tokens, name="revoke_all_tokens"),
    path("profile/ledger/", views.ledger, name="ledger"),
]
