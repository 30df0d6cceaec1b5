"""Who belongs to a club and who runs it: the checks the table access rule, the replays and
the club's pages share (no imports beyond the rows, so games.table.access may use them)."""

from __future__ import annotations

from typing import Any

from games.clubs.models import Club, ClubMember


def membership(user: Any, club: Club | int | None) -> ClubMember | None:
    """`user`'s row in `club` (any status), or None; anonymous visitors have none."""
    if club is None or user is None or not user.is_authenticated:
        return None
    club_id = club.pk if isinstance(club, Club) else club
    return ClubMember.objects.filter(club_id=club_id, user_id=user.pk).first()


def is_member(user: Any, club: Club | int | None) -> bool:
    """An active member (owner and admins included): pending requests and bans are not."""
    row = membership(user, club)
    return row is not None and row.status == ClubMember.Status.ACTIVE


def can_manage(user: Any, club: Club | int | None) -> bool:
    """The owner and the admins: approve, remove, ban, write the announcement."""
    row = membership(user, club)
    return row is not None and row.manages
