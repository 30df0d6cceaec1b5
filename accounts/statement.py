"""The player's statement: every balance change (a LedgerEntry) with the reason a player reads.

Hand results name the hand and table (with the replay), penalties their reason and the admin's
note, shares whose penalty they came from, reversals and grants the admin's note. Built for the
profile (latest entries) and the full ledger page (docs/history.md, "Ledger").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.models import LedgerEntry

Kind = LedgerEntry.Kind
PROFILE_ENTRIES = 8  # the profile shows the latest few; the ledger page all of them
PAGE_SIZE = 50


@dataclass(frozen=True)
class StatementRow:
    created: datetime
    delta: int
    balance_after: int
    kind: str  # LedgerEntry.Kind value (a CSS hook)
    title: str  # the reason, in the viewer's language
    note: str  # the admin's note, if any
    link: str | None  # the hand's replay, if any
    link_text: str


def entries_for(user_id: int) -> Iterable[LedgerEntry]:
    """Newest first, with what the rows name loaded in the same query."""
    return LedgerEntry.objects.filter(user_id=user_id).select_related(
        "hand__table", "penalty__user", "penalty__hand__table"
    )


def _hand_text(entry: LedgerEntry) -> str:
    hand = entry.hand or (entry.penalty.hand if entry.penalty else None)
    if hand is None:
        return ""
    table = hand.table
    chinese = (get_language() or "").startswith("zh")
    return _("hand %(number)s at %(variant)s table #%(table)s") % {
        "number": hand.number,
        "variant": table.variant_name(chinese),
        "table": table.pk,
    }


def _title(entry: LedgerEntry) -> str:
    penalty = entry.penalty
    reason = penalty.get_reason_display() if penalty is not None else ""
    if entry.kind == Kind.STARTING_GRANT:
        return _("Starting points for a new account")
    if entry.kind == Kind.HAND_RESULT:
        return _("Result of %(hand)s") % {"hand": _hand_text(entry)} if entry.hand else _("Hand result")
    if entry.kind == Kind.PENALTY:
        return _("Penalty: %(reason)s") % {"reason": reason or _("penalty")}
    if entry.kind == Kind.PENALTY_SHARE:
        who = penalty.user.get_username() if penalty is not None else "?"
        return _("Your share of %(name)s's penalty (%(reason)s)") % {"name": who, "reason": reason}
    if entry.kind == Kind.PENALTY_REVERSAL:
        return _("Penalty reversed by an admin (%(reason)s)") % {"reason": reason}
    if entry.kind == Kind.ADMIN_GRANT:
        return _("Points granted by an admin")
    return _("Adjustment by an admin")


def _replay(entry: LedgerEntry) -> tuple[str | None, str]:
    hand = entry.hand or (entry.penalty.hand if entry.penalty else None)
    if hand is None or hand.ended is None:
        return None, ""
    text = _hand_text(entry) if entry.kind != Kind.HAND_RESULT else _("replay")
    return reverse("history:replay", args=[hand.pk]), text


def statement(entries: Iterable[LedgerEntry]) -> list[StatementRow]:
    rows = []
    for entry in entries:
        link, link_text = _replay(entry)
        note = entry.note or (entry.penalty.note if entry.penalty is not None else "")
        rows.append(
            StatementRow(
                created=entry.created,
                delta=entry.delta,
                balance_after=entry.balance_after,
                kind=entry.kind,
                title=_title(entry),
                note=note,
                link=link,
                link_text=link_text,
            )
        )
    return rows
