"""Who may organise and see tournaments, the tournaments' typed error, and the audit row an
organiser's action writes (the site's audit log, games.moderation.models.AdminAuditLog)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from games.clubs.membership import can_manage, is_member
from games.clubs.models import Club, ClubMember
from games.moderation.models import AdminAuditLog
from games.tournaments.models import Tournament


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- who may do what (the two functions clubs extend) -----------------------------------------


def can_organise(user: AbstractBaseUser | None, tournament: Tournament | None = None) -> bool:
    """Whether `user` may create a tournament (`tournament` None: staff, or whoever manages a
    club) or run this one: staff; for a club's event that club's owner and admins (whoever
    created it); for another event its organiser."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if tournament is None:
        return managed_clubs(user).exists()
    if tournament.club_id is not None:
        return can_manage(user, tournament.club_id)
    return tournament.organiser_id == user.pk


def managed_clubs(user: AbstractBaseUser | None) -> QuerySet[Club]:
    """The clubs whose events `user` may create: those they own or help run (all, for staff)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_staff:
        return Club.objects.all()
    rows = ClubMember.objects.filter(
        user_id=user.pk,
        status=ClubMember.Status.ACTIVE,
        role__in=(ClubMember.Role.OWNER, ClubMember.Role.ADMIN),
    )
    return Club.objects.filter(pk__in=rows.values("club_id"))


def may_enter(user: AbstractBaseUser, tournament: Tournament) -> bool:
    """A club-only event takes its club's active members only; any other event anybody."""
    return tournament.public or tournament.club_id is None or is_member(user, tournament.club_id)


def visible(user: AbstractBaseUser | None) -> Q:
    """The tournaments `user` may see: public ones, their own other events (organised or
    entered), and the club-only events of the clubs they are an active member of — a player who
    left or was removed from the club no longer sees its events."""
    if user is not None and user.is_staff:
        return Q()
    q = Q(public=True)
    if user is not None and user.is_authenticated:
        clubs = ClubMember.objects.filter(user_id=user.pk, status=ClubMember.Status.ACTIVE)
        own = Q(organiser_id=user.pk) | Q(players__user_id=user.pk)
        q |= Q(club__isnull=True) & own | Q(club_id__in=clubs.values("club_id"))
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
