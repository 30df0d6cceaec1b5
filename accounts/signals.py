from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest

from accounts import sockets
from accounts.services import grant_starting_balance, revoke_all_tokens


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_grant_starting_balance")
def create_profile(sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """Every new user (sign-up, admin, createsuperuser) starts with a profile and points."""
    if created and not raw:
        grant_starting_balance(instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_password_revokes_tokens")
def revoke_tokens_on_password_change(
    sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """A new password (the profile page, the admin, `changepassword`, a reset) revokes every API
    token: whoever took the old password may have made one. `set_password()` keeps the new
    password in `_password` until the save that stores it has run its signals."""
    if not created and not raw and getattr(instance, "_password", None) is not None:
        revoke_all_tokens(instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_account_change_closes_sockets")
def close_sockets_on_account_change(
    sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """A new password or a deactivated account closes every open socket of the account, in any
    process (a session elsewhere stops at its next page; its socket must stop now too)."""
    if created or raw:
        return
    if getattr(instance, "_password", None) is not None or not instance.is_active:
        user_id = instance.pk
        transaction.on_commit(lambda: sockets.close_user_sockets(user_id))


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts_deletion_closes_sockets")
def close_sockets_on_deletion(sender: type, instance: Any, **kwargs: Any) -> None:
    user_id = instance.pk
    transaction.on_commit(lambda: sockets.close_user_sockets(user_id))


@receiver(user_logged_out, dispatch_uid="accounts_logout_closes_sockets")
def close_sockets_on_logout(sender: type, request: HttpRequest | None, **kwargs: Any) -> None:
    """The session's open sockets stop acting as the user (sent before the session is flushed)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        sockets.close_session_sockets(key)
