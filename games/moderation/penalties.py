"""Penalties and the graded abandonment policy (RULES §1.8, §3.3 Y4).

Penalty rows are appended, never deleted: a reversal is a PenaltyReversal row plus a
compensating ledger entry. Points move only through accounts.ledger.

Abandonment: an escape is leaving a hand in progress that has another person at the table (or
staying disconnected from it past the grace period); leaving between hands, a timed-out Continue
and leaving a table whose other seats are all bots are never escapes (docs/operations.md "Stakes
and escapes"). Every escape within ESCAPE_WINDOW counts; the first escape in the window bans
sitting for FIRST_BAN, each further one doubles it, capped at MAX_BAN. Nobody is blamed when the
server restarted while they were away (their disconnect began no earlier than RESTART_SLACK
before a recorded server start) or when an admin closed the table or kicked them (those paths
never call record_escape).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.models import LedgerEntry
from common.rows import RowSql
from games.models import Hand, Table
from games.moderation.models import Ban, Penalty, PenaltyReversal
from games.sockets.models import ServerStart

ESCAPE_WINDOW = timedelta(hours=24)
FIRST_BAN = timedelta(minutes=10)
MAX_BAN = timedelta(hours=24)
RESTART_SLACK = timedelta(seconds=60)

log = logging.getLogger(__name__)


# --- server restarts ------------------------------------------------------------------------


def record_server_start() -> None:
    """Called once per server process at start-up (mahjong_site.asgi and run_clock)."""
    try:
        ServerStart.objects.create()
    except Exception:  # never keep a server from starting (e.g. before the first migrate)
        log.warning("could not record the server start", exc_info=True)


def restarted_since(moment: datetime) -> bool:
    """Did a server process start at or after `moment` (less the slack)?"""
    return ServerStart.objects.filter(started__gte=moment - RESTART_SLACK).exists()


def escape_is_blameless(reason: str, disconnected_at: datetime | None) -> bool:
    """A disconnect that a server restart caused (or overlapped) is nobody's fault."""
    return reason == Penalty.Reason.DISCONNECT and (
        disconnected_at is None or restarted_since(disconnected_at)
    )


# --- automatic penalties --------------------------------------------------------------------


def record_escape(
    table: Table,
    hand: Hand,
    user: AbstractBaseUser,
    reason: str,
    disconnected_at: datetime | None = None,
    now: datetime | None = None,
) -> Penalty | None:
    """An escape from a running hand with another person at the table (the caller decides that):
    the Penalty row and the graded ban, at once. The points are paid when the hand is settled
    (`settle_escapes`). Returns None when already recorded for this hand or nobody is to blame.
    """
    now = now or timezone.now()
    if Penalty.objects.filter(hand=hand, user=user, reason__in=Penalty.ESCAPES).exists():
        return None
    if escape_is_blameless(reason, disconnected_at):
        return None
    penalty = Penalty.objects.create(table=table, hand=hand, user=user, reason=reason, amount=0)
    escalate_ban(user, penalty, now)
    return penalty


def escape_share(due: int, recipients: int, most_a_hand_costs: int, can_pay: int | None = None) -> int:
    """Each recipient's share of an escape penalty of `due` points (RULES §1.8: equal shares, the
    remainder dropped), never more than the hand could have cost the escaper (`most_a_hand_costs`:
    escape shares are no transfer channel) nor more than they can pay (`can_pay`, in total)."""
    if recipients <= 0:
        return 0
    share = min(due // recipients, most_a_hand_costs)
    if can_pay is not None:
        share = min(share, max(0, can_pay) // recipients)
    return max(0, share)


def settle_escapes(
    table: Table,
    hand: Hand,
    people: Sequence[AbstractBaseUser],
    most_a_hand_costs: int,
    can_pay: Callable[[AbstractBaseUser], tuple[int, int]],
) -> None:
    """Pay the escape penalties of `hand` into its settlement (after the hand's own results).

    `people`: everyone who sat in the hand. The recipients are those of them not charged for
    escaping it (someone who left only after every other person had gone was wronged, not an
    escaper). `can_pay(user)` → (points available, points to keep for running hands elsewhere).
    Nothing is charged that nobody receives: no points are destroyed."""
    rows = list(
        Penalty.objects.filter(hand=hand, reason__in=Penalty.ESCAPES, amount=0).select_related("user")
    )
    if not rows:
        return
    charged = {p.user_id for p in Penalty.objects.filter(hand=hand, reason__in=Penalty.ESCAPES)}
    recipients = [u for u in people if u.pk not in charged]
    for penalty in rows:
        available, keep = can_pay(penalty.user)
        share = escape_share(table.escape_penalty, len(recipients), most_a_hand_costs, available)
        if not share:
            continue
        paid = -ledger.post(
            penalty.user,
            -share * len(recipients),
            LedgerEntry.Kind.PENALTY,
            hand=hand,
            penalty=penalty,
            keep=keep,
        ).delta
        share = paid // len(recipients)  # (`available` was read in this transaction: all of it)
        for other in recipients:
            ledger.post(other, share, LedgerEntry.Kind.PENALTY_SHARE, hand=hand, penalty=penalty)
        Penalty.objects.filter(pk=penalty.pk).update(amount=paid)


def record_false_wins(hand: Hand, state: Any, users: Sequence[AbstractBaseUser | None]) -> list[Penalty]:
    """Penalty rows for the false wins (诈胡, §3.3 Y4) of a finished hand.

    The engine already put their payments into the hand's result, so the points moved with the
    hand's ledger entry; these rows record who, why and how much. Bots never false-win.
    """
    rows = []
    for reason, seat, payments in getattr(state, "penalties", ()):
        user = users[seat] if seat < len(users) else None
        if reason != "false_win" or user is None:
            continue
        rows.append(
            Penalty.objects.create(
                table_id=hand.table_id,
                hand=hand,
                user=user,
                reason=Penalty.Reason.FALSE_WIN,
                amount=-payments[seat],
            )
        )
    return rows


# --- the admin's penalties and grants -------------------------------------------------------


@transaction.atomic
def manual_penalty(
    user: AbstractBaseUser, amount: int, by: AbstractBaseUser | None, note: str = "", hand: Hand | None = None
) -> Penalty:
    if amount <= 0:
        raise ValueError("a penalty is a positive number of points")
    penalty = Penalty.objects.create(
        user=user,
        hand=hand,
        table_id=hand.table_id if hand else None,
        reason=Penalty.Reason.MANUAL,
        amount=0,
        note=note[:200],
        created_by=by,
    )
    paid = -ledger.post(
        user, -amount, LedgerEntry.Kind.PENALTY, hand=hand, penalty=penalty, note=note, by=by
    ).delta
    Penalty.objects.filter(pk=penalty.pk).update(amount=paid)
    penalty.amount = paid
    return penalty


@transaction.atomic
def reverse_penalty(penalty: Penalty, by: AbstractBaseUser | None, note: str = "") -> PenaltyReversal | None:
    """Give the points back with a compensating ledger row; the penalty row stays. Once only.

    The other players keep any share they received: points are virtual, and taking them back
    could push someone who has since lost them below zero.
    """
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if PenaltyReversal.objects.filter(penalty=penalty).exists():
        return None
    reversal = PenaltyReversal.objects.create(penalty=penalty, by=by, note=note[:200])
    if penalty.amount:
        ledger.post(
            penalty.user,
            penalty.amount,
            LedgerEntry.Kind.PENALTY_REVERSAL,
            hand=penalty.hand,
            penalty=penalty,
            note=note,
            by=by,
        )
    # A reversed escape no longer counts towards bans; lift the ban it caused.
    Ban.objects.filter(penalty=penalty, ends__gt=timezone.now()).update(ends=timezone.now())
    return reversal


def grant_points(
    user: AbstractBaseUser, amount: int, by: AbstractBaseUser | None, note: str = ""
) -> LedgerEntry:
    if amount == 0:
        raise ValueError("a grant moves some points")
    return ledger.post(user, amount, LedgerEntry.Kind.ADMIN_GRANT, note=note, by=by)


# --- bans -----------------------------------------------------------------------------------


def ban_length(escapes_in_window: int) -> timedelta:
    """10 minutes for the first escape in the window, doubling for each further one, capped."""
    if escapes_in_window <= 0:
        return timedelta(0)
    return min(FIRST_BAN * 2 ** (escapes_in_window - 1), MAX_BAN)


def escapes_in_window(user: AbstractBaseUser | int, now: datetime) -> int:
    """The unreversed escapes `user` (or a user id) made in the ESCAPE_WINDOW before `now`."""
    user_id = user if isinstance(user, int) else user.pk
    return _escape_bans(now).filter(user_id=user_id).count()


def _escape_bans(now: datetime) -> QuerySet[Ban]:
    """The bans escapes brought in the ESCAPE_WINDOW before `now`, less those reversed."""
    return Ban.objects.filter(
        manual=False,
        penalty__isnull=False,
        starts__gt=now - ESCAPE_WINDOW,
        starts__lte=now,
    ).exclude(penalty__reversal__isnull=False)


def ban_if_escaping(user: AbstractBaseUser | int, now: datetime) -> timedelta:
    """The ban an escape now would bring (what the board states beside the leave button)."""
    return ban_length(escapes_in_window(user, now) + 1)


def bans_if_escaping(user_ids: list[int], now: datetime) -> dict[int, timedelta]:
    """`ban_if_escaping` of several users in one statement (a hand's start states it for every
    seat)."""
    escapes = dict(
        _escape_bans(now)
        .filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(escapes=Count("pk"))
        .values_list("user_id", "escapes")
    )
    return {user_id: ban_length(escapes.get(user_id, 0) + 1) for user_id in user_ids}


def escalate_ban(user: AbstractBaseUser, penalty: Penalty, now: datetime) -> Ban:
    """Ban `user` for an escape: longer the more (unreversed) escapes they made in the window."""
    escapes = escapes_in_window(user, now) + 1
    return Ban.objects.create(
        user=user,
        starts=now,
        ends=now + ban_length(escapes),
        reason=f"{escapes} escape(s) in 24 hours",  # Ban.reason_text says it in the reader's language
        penalty=penalty,
    )


def ban_user(
    user: AbstractBaseUser,
    minutes: int,
    by: AbstractBaseUser | None,
    reason: str = "",
    now: datetime | None = None,
) -> Ban:
    now = now or timezone.now()
    return Ban.objects.create(
        user=user,
        starts=now,
        ends=now + timedelta(minutes=minutes),
        reason=reason,
        manual=True,
        created_by=by,
    )


def active_ban(user: AbstractBaseUser | None, now: datetime | None = None) -> Ban | None:
    """The ban that keeps `user` from sitting down now (the one ending last), if any."""
    if user is None or not user.is_authenticated:
        return None
    now = now or timezone.now()
    # Asked at every sit-down (a hundred tables filling at once): precompiled, not the ORM's.
    where = [("user_id", "=", user.pk), ("starts", "<=", now), ("ends", ">", now)]
    return _BAN_ROWS.first(where, order=("ends", "DESC"))


_BAN_ROWS = RowSql(Ban)


def ban_message(ban: Ban) -> str:
    until = date_format(timezone.localtime(ban.ends), "Y-m-d H:i")
    return _("You may not sit down until %(until)s (%(reason)s).") % {
        "until": until,
        "reason": ban.reason_text,
    }
