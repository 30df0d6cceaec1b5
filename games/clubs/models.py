"""A club and its members (docs/clubs.md). Registered with the games app by games.models; a
club's tables point at it (`Table.club`)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.rulesets import VARIANT_IDS


def new_club_code() -> str:
    """The invite code: unguessable, short enough to paste into a chat."""
    return secrets.token_urlsafe(9)


class Club(models.Model):
    class Policy(models.TextChoices):
        OPEN = "open", _("anyone with the invite joins at once")
        APPROVAL = "approval", _("an admin approves each request")

    name = models.CharField(_("name"), max_length=60, unique=True)
    description = models.TextField(_("description"), max_length=1000, blank=True)
    # The rules every club table opens with: checked as a table's are (games.table.opening).
    variant = models.CharField(_("rule set"), max_length=20, choices=[(v, v) for v in VARIANT_IDS])
    base = models.PositiveIntegerField(_("base stake"))
    options = models.JSONField(default=dict, blank=True)
    invite_code = models.CharField(max_length=32, default=new_club_code, unique=True)
    policy = models.CharField(_("joining"), max_length=10, choices=Policy.choices, default=Policy.OPEN)
    announcement = models.TextField(_("announcement"), max_length=1000, blank=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class ClubMember(models.Model):
    """One person's place in one club: a request (pending), a member, or banned from it. A
    member who leaves or is removed loses the row; a ban keeps it so that the ban holds."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        ACTIVE = "active", _("member")
        BANNED = "banned", _("banned")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    joined = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(null=True, blank=True)  # their last visit to the club's page

    class Meta:
        ordering = ["club", "joined"]
        verbose_name = _("club member")
        verbose_name_plural = _("club members")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="clubmember_once_per_club")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role}, {self.status})"

    @property
    def manages(self) -> bool:
        return self.status == self.Status.ACTIVE and self.role in (self.Role.OWNER, self.Role.ADMIN)
