"""Every change to a club, one function each (docs/clubs.md). Each checks who may do it and the
limits first and raises `ClubError` (a code and a message for people) before changing anything;
each change an owner or admin makes to someone else is appended to the admin audit log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clubs.membership import can_manage, is_member, membership
from games.clubs.models import Club, ClubMember
from games.engine.bots import DEFAULT_LEVEL
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.models import Table
from games.moderation.models import AdminAuditLog
from games.table import commands, opening, stake
from games.table.errors import ServiceError

__all__ = [
    "ClubError",
    "approve",
    "appoint_admin",
    "ban",
    "can_manage",
    "create_club",
    "is_member",
    "join_by_invite",
    "leave",
    "mark_seen",
    "open_table",
    "remove",
    "reset_invite",
    "set_announcement",
    "set_policy",
    "transfer_ownership",
]

Status = ClubMember.Status
Role = ClubMember.Role
MAX_NAME = 60
MAX_TEXT = 1000


class ClubError(ServiceError):
    """A refused club change: nothing was changed."""


# --- helpers ----------------------------------------------------------------------------------


def _audit(actor: Any, action: str, club: Club, target: Any = None, **details: Any) -> None:
    """The admin audit log (games.moderation.admin_audit) records what owners and admins do to others."""
    if target is not None:
        details["target"] = target.get_username()
    AdminAuditLog.objects.create(
        user=actor,
        action=f"club {action}",
        model=Club._meta.label,
        object_id=str(club.pk),
        object_repr=str(club)[:200],
        details=details,
    )


def _locked(club: Club) -> Club:
    """The club's row, locked: member counts and roles are checked and changed one at a time."""
    return Club.objects.select_for_update().get(pk=club.pk)


def _active(club: Club) -> Any:
    return ClubMember.objects.filter(club=club, status=Status.ACTIVE)


def _refuse_unless_manager(actor: Any, club: Club) -> ClubMember:
    row = membership(actor, club)
    if row is None or not row.manages:
        raise ClubError("not_club_admin", _("Only the club's owner and admins may do that."))
    return row


def _refuse_unless_owner(actor: Any, club: Club) -> None:
    if club.owner_id != actor.pk:
        raise ClubError("not_club_owner", _("Only the club's owner may do that."))


def _refuse_over_other(actor_row: ClubMember, target: ClubMember) -> None:
    """Admins act on members; only the owner acts on admins; nobody on the owner or themself."""
    if target.user_id == actor_row.user_id:
        raise ClubError("not_yourself", _("You cannot do that to yourself."))
    if target.role == Role.OWNER:
        raise ClubError("is_owner", _("The owner cannot be removed or banned."))
    if target.role == Role.ADMIN and actor_row.role != Role.OWNER:
        raise ClubError("is_admin", _("Only the owner may act on another admin."))


def _refuse_too_many_joined(user: Any) -> None:
    joined = ClubMember.objects.filter(user_id=user.pk).exclude(status=Status.BANNED).count()
    if joined >= settings.CLUBS_JOINED_PER_USER:
        message = _("You may belong to at most %(n)d clubs; leave one first.") % {
            "n": settings.CLUBS_JOINED_PER_USER
        }
        raise ClubError("too_many_clubs", message)


def _refuse_full(club: Club) -> None:
    if _active(club).count() >= settings.MEMBERS_PER_CLUB:
        message = _("This club is full (%(n)d members).") % {"n": settings.MEMBERS_PER_CLUB}
        raise ClubError("club_full", message)


def _refuse_too_many_owned(user: Any) -> None:
    if Club.objects.filter(owner_id=user.pk).count() >= settings.CLUBS_OWNED_PER_USER:
        message = _("You may own at most %(n)d clubs.") % {"n": settings.CLUBS_OWNED_PER_USER}
        raise ClubError("too_many_owned", message)


def _text(value: Any, limit: int) -> str:
    if not isinstance(value, str):
        return ""
    if len(value) > limit:
        raise ClubError("too_long", _("At most %(n)d characters.") % {"n": limit})
    return value.strip()


# --- creating and joining ---------------------------------------------------------------------


def create_club(
    owner: Any,
    name: str,
    variant: str,
    base: Any,
    *,
    description: str = "",
    options: dict[str, Any] | None = None,
    policy: str = Club.Policy.OPEN,
) -> Club:
    """A new club, its owner its first member. Its rules are checked as a new table's are."""
    name = " ".join(str(name or "").split())
    if not name or len(name) > MAX_NAME:
        raise ClubError("bad_name", _("A club needs a name of 1–%(n)d characters.") % {"n": MAX_NAME})
    if variant not in VARIANT_IDS:
        raise ClubError("unknown_variant", f"variant must be one of {', '.join(VARIANT_IDS)}")
    if policy not in Club.Policy.values:
        raise ClubError("bad_policy", "policy must be 'open' or 'approval'")
    base = stake.validate_stake(variant, base)
    options = opening.validate_options(variant, options)
    description = _text(description, MAX_TEXT)
    with transaction.atomic():
        _refuse_too_many_owned(owner)
        _refuse_too_many_joined(owner)
        if Club.objects.filter(name__iexact=name).exists():
            raise ClubError("name_taken", _("A club of that name exists already."))
        try:
            with transaction.atomic():
                club = Club.objects.create(
                    name=name,
                    description=description,
                    variant=variant,
                    base=base,
                    options=options,
                    policy=policy,
                    owner=owner,
                )
        except IntegrityError:  # the same name created at the same moment
            raise ClubError("name_taken", _("A club of that name exists already.")) from None
        ClubMember.objects.create(club=club, user=owner, role=Role.OWNER, status=Status.ACTIVE)
    return club


def club_for_invite(code: Any) -> Club:
    """The club an invite code opens; a forged or outdated code is refused."""
    club = Club.objects.filter(invite_code=code).first() if isinstance(code, str) and code else None
    if club is None:
        raise ClubError("bad_invite", _("This invite is not valid (the club may have replaced it)."))
    return club


def join_by_invite(user: Any, code: Any) -> ClubMember:
    """Join through the invite: at once in an open club, as a request where an admin approves."""
    club = club_for_invite(code)
    with transaction.atomic():
        club = _locked(club)
        row = membership(user, club)
        if row is not None and row.status == Status.BANNED:
            raise ClubError("banned", _("You are banned from this club."))
        if row is not None and row.status == Status.PENDING:
            raise ClubError("already_requested", _("Your request to join is waiting for an admin."))
        if row is not None:
            raise ClubError("already_member", _("You are a member of this club already."))
        _refuse_too_many_joined(user)
        hour_ago = timezone.now() - timedelta(hours=1)
        if (
            ClubMember.objects.filter(club=club, joined__gt=hour_ago).count()
            >= settings.CLUB_INVITES_PER_HOUR
        ):
            raise ClubError("too_many_joins", _("This club takes no more new members this hour; try later."))
        open_club = club.policy == Club.Policy.OPEN
        if open_club:
            _refuse_full(club)
        status = Status.ACTIVE if open_club else Status.PENDING
        return ClubMember.objects.create(club=club, user=user, role=Role.MEMBER, status=status)


# --- what the owner and admins do -------------------------------------------------------------


def approve(actor: Any, member: ClubMember) -> ClubMember:
    """A pending request becomes a member."""
    with transaction.atomic():
        club = _locked(member.club)
        _refuse_unless_manager(actor, club)
        member = ClubMember.objects.select_for_update().get(pk=member.pk)
        if member.status != Status.PENDING:
            raise ClubError("not_pending", _("There is no request to approve."))
        _refuse_full(club)
        member.status = Status.ACTIVE
        member.save(update_fields=["status"])
        _audit(actor, "approve", club, member.user)
    return member


def remove(actor: Any, member: ClubMember) -> None:
    """Remove a member, turn down a request, or lift a ban (the row goes: they may join again)."""
    with transaction.atomic():
        club = _locked(member.club)
        actor_row = _refuse_unless_manager(actor, club)
        member = ClubMember.objects.select_for_update().get(pk=member.pk)
        _refuse_over_other(actor_row, member)
        was = member.status
        member.delete()
        _audit(actor, "remove", club, member.user, was=was)


def ban(actor: Any, member: ClubMember) -> ClubMember:
    """Out of the club, and the invite no longer lets them back (until the ban is lifted)."""
    with transaction.atomic():
        club = _locked(member.club)
        actor_row = _refuse_unless_manager(actor, club)
        member = ClubMember.objects.select_for_update().get(pk=member.pk)
        _refuse_over_other(actor_row, member)
        if member.status == Status.BANNED:
            raise ClubError("already_banned", _("They are banned already."))
        member.status, member.role = Status.BANNED, Role.MEMBER
        member.save(update_fields=["status", "role"])
        _audit(actor, "ban", club, member.user)
    return member


def appoint_admin(actor: Any, member: ClubMember, admin: bool = True) -> ClubMember:
    """The owner makes a member an admin (or, `admin` False, an admin a member again)."""
    with transaction.atomic():
        club = _locked(member.club)
        _refuse_unless_owner(actor, club)
        member = ClubMember.objects.select_for_update().get(pk=member.pk)
        if member.status != Status.ACTIVE or member.role == Role.OWNER:
            raise ClubError("not_a_member", _("Only a member may be made an admin."))
        wanted = Role.ADMIN if admin else Role.MEMBER
        if member.role == wanted:
            raise ClubError("no_change", _("Nothing to change."))
        member.role = wanted
        member.save(update_fields=["role"])
        _audit(actor, "appoint admin" if admin else "dismiss admin", club, member.user)
    return member


def transfer_ownership(actor: Any, member: ClubMember) -> Club:
    """The owner hands the club to a member; the old owner stays as an admin."""
    with transaction.atomic():
        club = _locked(member.club)
        _refuse_unless_owner(actor, club)
        member = ClubMember.objects.select_for_update().get(pk=member.pk)
        if member.status != Status.ACTIVE or member.user_id == actor.pk:
            raise ClubError("not_a_member", _("Only another member may become the owner."))
        _refuse_too_many_owned(member.user)
        ClubMember.objects.filter(club=club, user_id=actor.pk).update(role=Role.ADMIN)
        member.role = Role.OWNER
        member.save(update_fields=["role"])
        club.owner_id = member.user_id
        club.save(update_fields=["owner"])
        _audit(actor, "transfer ownership", club, member.user)
    return club


def set_announcement(actor: Any, club: Club, text: Any) -> Club:
    with transaction.atomic():
        club = _locked(club)
        _refuse_unless_manager(actor, club)
        club.announcement = _text(text, MAX_TEXT)
        club.save(update_fields=["announcement"])
        _audit(actor, "announcement", club)
    return club


def set_policy(actor: Any, club: Club, policy: Any) -> Club:
    if policy not in Club.Policy.values:
        raise ClubError("bad_policy", "policy must be 'open' or 'approval'")
    with transaction.atomic():
        club = _locked(club)
        _refuse_unless_owner(actor, club)
        club.policy = policy
        club.save(update_fields=["policy"])
        _audit(actor, "policy", club, policy=policy)
    return club


def reset_invite(actor: Any, club: Club) -> Club:
    """A new invite code: links passed around before stop working (a leaked invite)."""
    with transaction.atomic():
        club = _locked(club)
        _refuse_unless_manager(actor, club)
        club.invite_code = Club._meta.get_field("invite_code").get_default()
        club.save(update_fields=["invite_code"])
        _audit(actor, "new invite", club)
    return club


# --- what a member does -----------------------------------------------------------------------


def leave(user: Any, club: Club) -> None:
    """A member (or someone waiting for approval) leaves; the owner hands the club on first."""
    with transaction.atomic():
        club = _locked(club)
        row = membership(user, club)
        if row is None or row.status == Status.BANNED:
            raise ClubError("not_member", _("You are not a member of this club."))
        if row.role == Role.OWNER:
            raise ClubError("owner_leaves", _("Hand the club to another member before you leave."))
        row.delete()


def mark_seen(user: Any, club: Club) -> None:
    """A member opened the club's page: their "last seen" there."""
    ClubMember.objects.filter(club=club, user_id=user.pk, status=Status.ACTIVE).update(
        last_seen=timezone.now()
    )


def open_table(user: Any, club: Club, bots: int = 0, bot_level: str = DEFAULT_LEVEL) -> Table:
    """A club table with the club's rules, its opener seated in East and `bots` bots beside them.
    Private (the lobby does not list it); the club's members may watch it (games.table.access)."""
    if not is_member(user, club):
        raise ClubError("not_member", _("You are not a member of this club."))
    players = get_ruleset(club.variant).players
    if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots < players:
        raise ClubError("bad_bots", _("This rule set has only %(n)d other seats.") % {"n": players - 1})
    with transaction.atomic():
        table = opening.create_table(user, club.variant, public=False, options=club.options)
        Table.objects.filter(pk=table.pk).update(club=club)
        commands.sit(table.pk, user, 0)
        commands.set_stake(table.pk, user, club.base)
        for index in range(1, 1 + bots):
            commands.add_bot(table.pk, user, index, bot_level)
    table.club = club
    return table


def tables_of(club: Club) -> Any:
    """The club's open tables, newest first."""
    return (
        Table.objects.filter(club=club)
        .exclude(status=Table.Status.CLOSED)
        .filter(Q(seats__user__isnull=False))
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-created")
    )
