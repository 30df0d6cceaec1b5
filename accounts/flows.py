"""Point flows between linked accounts, flagged for the admin.

Free accounts each bring the starting balance; an escape's penalty is shared among the other
humans, and a hand's losers pay its winner. So throwaway accounts can pour points into one.
Two accounts are *linked* when they signed up from the same address or joined within
settings.LINKED_SIGNUP_MINUTES of each other. Flagged, over the last settings.FLAG_WINDOW_DAYS:
- every penalty share paid by an account to a linked one;
- a pair where one account lost settings.REPEATED_LOSSES hands or more to a linked one;
- whatever the addresses, every flow into one receiver from new accounts (joined within
  settings.NEW_ACCOUNT_DAYS) when settings.NEW_ACCOUNT_FEEDERS or more of them each paid it
  settings.NEW_ACCOUNT_POINTS or more (escape shares and lost hands): the throwaway-account pump;
- whatever the addresses, a lopsided ranked pair: two accounts that played settings.RANKED_PAIR_HANDS
  ranked hands or more together within settings.RANKED_PAIR_HOURS, one of them taking at least
  settings.RANKED_PAIR_SHARE percent of the points that went between them (win-trading for rank).
Nothing is blocked or reversed automatically: the admin looks (Admin → Accounts → Flagged point
flows) and acts with the existing tools (penalties, bans, reversals).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import LedgerEntry, Profile


@dataclass
class Flow:
    payer: Any
    receiver: Any
    kind: str  # "penalty_share", "hand_losses" or "ranked_pair"
    count: int  # penalty shares, hands lost, or ranked hands played together
    points: int  # points that went from payer to receiver
    link: str  # why the two accounts are linked
    last: datetime


# More kinds of flagged flow, from what accounts cannot read (games registers the ranked pairs at
# start: games.apps). Imports run one way, common → accounts → games.
FLAG_SOURCES: list[Callable[[datetime], list[Flow]]] = []


def link_between(a: Any, b: Any, profiles: dict[int, Profile]) -> str | None:
    """Why accounts `a` and `b` look like one person's, or None."""
    pa, pb = profiles.get(a.pk), profiles.get(b.pk)
    if pa is not None and pb is not None and pa.signup_ip and pa.signup_ip == pb.signup_ip:
        return _("same signup address %(address)s") % {"address": pa.signup_ip}
    apart = abs(a.date_joined - b.date_joined)
    if apart <= timedelta(minutes=settings.LINKED_SIGNUP_MINUTES):
        return _("joined %(minutes)d min apart") % {"minutes": int(apart.total_seconds() // 60)}
    return None


def flagged_flows(now: datetime | None = None) -> list[Flow]:
    """Every flagged flow of the window, newest first."""
    since = (now or timezone.now()) - timedelta(days=settings.FLAG_WINDOW_DAYS)
    shares, losses = _penalty_shares(since), _hand_losses(since)
    candidates = shares + [flow for flow in losses if flow.count >= settings.REPEATED_LOSSES]
    users = {u.pk for flow in shares + losses for u in (flow.payer, flow.receiver)}
    profiles = {p.user_id: p for p in Profile.objects.filter(user_id__in=users)}
    flagged = []
    for flow in candidates:
        link = link_between(flow.payer, flow.receiver, profiles)
        if link is not None:
            flow.link = link
            flagged.append(flow)
    flagged += _new_accounts_feeding_one(shares + losses, exclude=flagged)
    flagged += [flow for source in FLAG_SOURCES for flow in source(now or timezone.now())]
    return sorted(flagged, key=lambda flow: flow.last, reverse=True)


def is_new_account(payer: Any, at: datetime) -> bool:
    """Did `payer` join at most settings.NEW_ACCOUNT_DAYS before `at` (its flow's last point)?"""
    return at - payer.date_joined <= timedelta(days=settings.NEW_ACCOUNT_DAYS)


def _new_accounts_feeding_one(flows: list[Flow], exclude: list[Flow]) -> list[Flow]:
    """Throwaway accounts pouring points into one account, whatever their addresses (a farm
    need not share one, nor sign up minutes apart): a receiver paid at least
    settings.NEW_ACCOUNT_POINTS each by settings.NEW_ACCOUNT_FEEDERS or more new accounts
    (escape shares and hands lost together) has every such flow flagged."""
    already = {(f.payer.pk, f.receiver.pk, f.kind) for f in exclude}
    by_receiver: dict[int, dict[int, list[Flow]]] = defaultdict(lambda: defaultdict(list))
    for flow in flows:
        if is_new_account(flow.payer, flow.last):
            by_receiver[flow.receiver.pk][flow.payer.pk].append(flow)
    flagged = []
    for payers in by_receiver.values():
        feeders = {
            payer: payer_flows
            for payer, payer_flows in payers.items()
            if sum(f.points for f in payer_flows) >= settings.NEW_ACCOUNT_POINTS
        }
        if len(feeders) < settings.NEW_ACCOUNT_FEEDERS:
            continue
        for payer_flows in feeders.values():
            for flow in payer_flows:
                if (flow.payer.pk, flow.receiver.pk, flow.kind) in already:
                    continue
                flow.link = _("one of %(count)d new accounts paying this receiver") % {"count": len(feeders)}
                flagged.append(flow)
    return flagged


def _penalty_shares(since: datetime) -> list[Flow]:
    shares = LedgerEntry.objects.filter(
        kind=LedgerEntry.Kind.PENALTY_SHARE, delta__gt=0, created__gte=since, penalty__isnull=False
    ).select_related("user", "penalty__user")
    pairs: dict[tuple[int, int], Flow] = {}
    for entry in shares:
        payer = entry.penalty.user
        flow = pairs.setdefault(
            (payer.pk, entry.user_id), Flow(payer, entry.user, "penalty_share", 0, 0, "", entry.created)
        )
        flow.count += 1
        flow.points += entry.delta
        flow.last = max(flow.last, entry.created)
    return list(pairs.values())


def _hand_losses(since: datetime) -> list[Flow]:
    """Every (loser, winner) pair of the window's hands, however often."""
    # A hand's results are posted to the ledger when it is settled, the points actually moved.
    entries = LedgerEntry.objects.filter(
        kind=LedgerEntry.Kind.HAND_RESULT, hand__isnull=False, created__gte=since
    ).select_related("user")
    by_hand: dict[int, list[Any]] = defaultdict(list)
    for entry in entries:
        by_hand[entry.hand_id].append(entry)
    pairs: dict[tuple[int, int], Flow] = {}
    for hand_entries in by_hand.values():
        for loser in (e for e in hand_entries if e.delta < 0):
            for winner in (e for e in hand_entries if e.delta > 0):
                flow = pairs.setdefault(
                    (loser.user_id, winner.user_id),
                    Flow(loser.user, winner.user, "hand_losses", 0, 0, "", winner.created),
                )
                flow.count += 1
                flow.points += min(-loser.delta, winner.delta)
                flow.last = max(flow.last, winner.created)
    return list(pairs.values())
