"""A password validator beside Django's own (settings.AUTH_PASSWORD_VALIDATORS)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MIN_NAME_LENGTH = 3  # shorter user names occur in passwords by chance


class UsernameInPasswordValidator:
    """Refuse a password that contains the user name (any letter case), or is it reversed.

    Django's UserAttributeSimilarityValidator compares the whole strings: `pwtest3pwtest3` for
    user `pwtest3` is only 67 % similar (it refuses from 70 %), yet it is the name typed twice.
    """

    def validate(self, password: str, user: Any = None) -> None:
        name = (getattr(user, "username", "") or "").casefold()
        if len(name) < MIN_NAME_LENGTH:
            return
        folded = password.casefold()
        if name in folded or name[::-1] in folded:
            raise ValidationError(
                _("The password must not contain your user name."), code="password_has_username"
            )

    def get_help_text(self) -> str:
        return _("Your password can’t contain your user name.")
