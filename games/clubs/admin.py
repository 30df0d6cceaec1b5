"""The site admin's view of clubs: searchable, and every save or delete audited (the owners'
and admins' own actions are audited by games.clubs.services)."""

from __future__ import annotations

from django.contrib import admin

from games.clubs.models import Club, ClubMember
from games.moderation.admin_audit import AuditedAdmin


class ClubMemberInline(admin.TabularInline):
    model = ClubMember
    extra = 0
    fields = ["user", "role", "status", "joined", "last_seen"]
    readonly_fields = ["user", "joined", "last_seen"]


@admin.register(Club)
class ClubAdmin(AuditedAdmin):
    list_display = ["name", "owner", "variant", "base", "policy", "created"]
    list_filter = ["variant", "policy"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["invite_code", "created"]
    inlines = [ClubMemberInline]
