"""Who may organise and see tournaments, the tournaments' typed error, and the audit row an
organiser's action writes (the site's audit log, games.moderation.models.AdminAuditLog)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from games.moderation.models import AdminAuditLog
from games.tournaments.models import Tournament


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- who may do what (the two functions clubs extend) -----------------------------------------


def can_organise(user: AbstractBaseUser | None, tournament: Tournament | None = None) -> bool:
    """Whether `user` may create a tournament (`tournament` None) or run this one. Staff today;
    a club's owner and admins for their club's events once clubs exist (a `club` field here)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament is not None and tournament.organiser_id == user.pk


def visible(user: AbstractBaseUser | None) -> Q:
    """The tournaments `user` may see: public ones, and their own (organised or entered). A
    club-only event will be visible to its club's members here."""
    if user is not None and user.is_staff:
        return Q()
    q = Q(public=True)
    if user is not None and user.is_authenticated:
        q |= Q(organiser_id=user.pk) | Q(players__user_id=user.pk)
    return q


def visible_tournaments(user: AbstractBaseUser | None) -> QuerySet[Tournament]:
    return Tournament.objects.filter(visible(user)).distinct()


def audit(user: AbstractBaseUser, action: str, obj: Any, **details: Any) -> None:
    AdminAuditLog.objects.create(
        user=user,
        action=action,
        model=obj._meta.label,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        details=details,
    )
