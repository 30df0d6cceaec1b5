from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import services, statement
from accounts.forms import SignupForm
from accounts.models import ApiToken
from common import client_address

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _next_url(request: HttpRequest) -> str:
    """Where to go after logging in: a safe ?next= on this site, else the home page."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        address = client_address.of_request(request.META)
        try:
            with transaction.atomic():
                services.address_lock(f"signup:{address}")
                services.check_signup_allowed(address)
                user = form.save()  # the post_save signal grants the starting balance
                services.record_signup_address(user, address)
        except services.Throttled:
            form.add_error(
                None, _("Too many accounts were made from your address recently. Please try again later.")
            )
            context = {"form": form, "starting_balance": settings.STARTING_BALANCE}
            return render(request, "accounts/signup.html", context, status=429)
        login(request, user, backend=MODEL_BACKEND)
        request.session["just_signed_up"] = True  # the home page says "Welcome", not "Welcome back"
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
        return redirect("home")
    context = {"form": form, "starting_balance": settings.STARTING_BALANCE}
    return render(request, "accounts/signup.html", context)


def login_view(request: HttpRequest) -> HttpResponse:
    # AuthenticationForm passes the request to authenticate(), which django-axes needs.
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.get_user())
        return redirect(_next_url(request))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("home")


@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)  # stay logged in
        messages.success(request, _("Your password has been changed."))
        return redirect("accounts:profile")
    return render(request, "accounts/password_change.html", {"form": form})


def _profile_page(request: HttpRequest, status: int = 200, **extra: object) -> HttpResponse:
    """The profile: balance, the latest ledger entries with their reasons, API tokens."""
    latest = statement.entries_for(request.user.pk)[: statement.PROFILE_ENTRIES]
    context = {
        "profile": request.user.profile,
        "tokens": services.active_tokens(request.user),
        "ledger": statement.statement(latest),
        **extra,
    }
    return render(request, "accounts/profile.html", context, status=status)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return _profile_page(request)


@login_required
def ledger(request: HttpRequest) -> HttpResponse:
    """Every change of the balance, newest first, with its reason (hands, penalties, shares)."""
    page = Paginator(statement.entries_for(request.user.pk), statement.PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    context = {"profile": request.user.profile, "page": page, "ledger": statement.statement(page.object_list)}
    return render(request, "accounts/ledger.html", context)


@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    """Make a personal API token and show it once (only its hash is kept)."""
    try:
        key = services.create_api_token(request.user, client_address.of_request(request.META))
    except services.Throttled:
        message = _("Too many API tokens were made recently. Please try again later.")
        return _profile_page(request, status=429, token_error=message)
    return _profile_page(request, new_token=key)


@login_required
@require_POST
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's own tokens (another user's id is simply not found)."""
    revoked = services.revoke_tokens(ApiToken.objects.filter(user=request.user, pk=pk))
    if revoked:
        messages.success(request, _("The API token was revoked; programs using it are disconnected."))
    return redirect("accounts:profile")


@login_required
@require_POST
def revoke_all_tokens(request: HttpRequest) -> HttpResponse:
    revoked = services.revoke_all_tokens(request.user)
    if revoked:
        messages.success(
            request, _("All your API tokens were revoked; programs using them are disconnected.")
        )
    return redirect("accounts:profile")


def locked_out(request: HttpRequest, *args: object) -> HttpResponse:
    """django-axes' lockout page (AXES_LOCKOUT_CALLABLE), shown instead of the login form."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
