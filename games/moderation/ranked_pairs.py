"""Lopsided ranked pairs, flagged for the admin beside the other point flows (accounts.flows):
two accounts meeting again and again in ranked hands with the points between them going one way.
Registered with accounts.flows.FLAG_SOURCES when the app starts (games.apps)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.flows import Flow
from games.history.models import RankChange
from games.models import ScoreEntry


def lopsided_ranked_pairs(now: datetime) -> list[Flow]:
    """Two accounts meeting again and again in ranked hands with the points between them going
    one way: one throws hands so the other climbs. Whatever their addresses (a booster need not
    share one); a rivalry where both sides win now and then stays below the share."""
    since = now - timedelta(hours=settings.RANKED_PAIR_HOURS)
    hands = set(
        RankChange.objects.filter(created__gt=since, created__lte=now).values_list("hand_id", flat=True)
    )
    entries = ScoreEntry.objects.filter(hand_id__in=hands, user__isnull=False).select_related("user", "hand")
    by_hand: dict[int, list[ScoreEntry]] = defaultdict(list)
    for entry in entries:
        by_hand[entry.hand_id].append(entry)
    together: dict[tuple[int, int], int] = defaultdict(int)  # (lower pk, higher pk): ranked hands
    won: dict[tuple[int, int], int] = defaultdict(int)  # (winner, loser): points between them
    users: dict[int, Any] = {}
    last: dict[tuple[int, int], datetime] = {}
    for hand_entries in by_hand.values():
        for a in hand_entries:
            users[a.user_id] = a.user
            for b in hand_entries:
                if a.user_id < b.user_id:
                    pair = (a.user_id, b.user_id)
                    together[pair] += 1
                    ended = a.hand.ended or a.hand.started
                    last[pair] = max(last.get(pair, ended), ended)
                if a.delta > 0 > b.delta:
                    won[(a.user_id, b.user_id)] += min(a.delta, -b.delta)
    flagged = []
    for (low, high), count in together.items():
        if count < settings.RANKED_PAIR_HANDS:
            continue
        total = won[(low, high)] + won[(high, low)]
        winner, loser = (low, high) if won[(low, high)] >= won[(high, low)] else (high, low)
        if not total or won[(winner, loser)] * 100 < settings.RANKED_PAIR_SHARE * total:
            continue
        share = won[(winner, loser)] * 100 // total
        link = _("%(count)d ranked hands together, %(share)d%% of the points to one side") % {
            "count": count,
            "share": share,
        }
        flagged.append(
            Flow(
                users[loser],
                users[winner],
                "ranked_pair",
                count,
                won[(winner, loser)],
                link,
                last[(low, high)],
            )
        )
    return flagged
