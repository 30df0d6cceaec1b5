"""What a club's page reads: who is online, the leaderboard per period and the recent matches,
all from club tables only (docs/clubs.md)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Sum
from django.urls import reverse
from django.utils import timezone

from games.clubs.models import Club, ClubMember
from games.models import Hand, Match, ScoreEntry
from games.sockets.models import OpenSocket

PERIODS = ("week", "month", "all")


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """This week from Monday 00:00, this month from the 1st (local time); all time: None."""
    now = timezone.localtime(now or timezone.now())
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    if period == "month":
        return midnight.replace(day=1)
    return None


@dataclass
class Row:
    username: str
    hands: int
    points: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "username": self.username,
            "hands": self.hands,
            "points": self.points,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
        }


def leaderboard(club: Club, period: str = "week", now: datetime | None = None) -> list[Row]:
    """People (bots are nobody) by points won at the club's tables in the period: finished
    hands, the points they moved, and the share of them won."""
    entries = ScoreEntry.objects.filter(
        hand__table__club=club, hand__status=Hand.Status.OVER, user__isnull=False
    )
    since = period_start(period, now)
    if since is not None:
        entries = entries.filter(hand__ended__gte=since)
    wins: dict[int, int] = defaultdict(int)
    for user_id, seat, winners in entries.values_list("user_id", "seat", "hand__result__winners"):
        if isinstance(winners, list) and seat in winners:
            wins[user_id] += 1
    totals = entries.values("user_id", "user__username").annotate(hands=Count("id"), points=Sum("delta"))
    rows = [
        Row(t["user__username"], t["hands"], int(t["points"] or 0), wins.get(t["user_id"], 0)) for t in totals
    ]
    rows.sort(key=lambda r: (-r.points, -r.win_rate, r.username))
    return rows


def online_user_ids(club: Club) -> set[int]:
    """Members with a socket open at any table now (games.sockets.presence counts them)."""
    members = ClubMember.objects.filter(club=club, status=ClubMember.Status.ACTIVE).values("user_id")
    return set(OpenSocket.objects.filter(user_id__in=members).values_list("user_id", flat=True))


def review_url(hand_id: int) -> str:
    """The hand's 复盘 review page (the viewer's own seat is chosen there)."""
    return reverse("review:page", args=[hand_id])


def recent_matches(club: Club, limit: int = 10) -> list[dict[str, Any]]:
    """The club tables' latest matches, each with its finished hands' replay (and review) links."""
    matches = (
        Match.objects.filter(table__club=club)
        .select_related("table")
        .prefetch_related("hands__scores__user")
        .order_by("-started")[:limit]
    )
    out = []
    for match in matches:
        hands = [h for h in match.hands.all() if h.status == Hand.Status.OVER]
        if not hands:
            continue
        names = sorted({s.user.get_username() for h in hands for s in h.scores.all() if s.user_id})
        out.append(
            {
                "id": match.pk,
                "table": match.table_id,
                "started": match.started,
                "players": names,
                "hands": [
                    {
                        "number": h.number,
                        "replay": reverse("history:replay", args=[h.pk]),
                        "review": review_url(h.pk),
                    }
                    for h in sorted(hands, key=lambda h: h.number)
                ],
            }
        )
    return out
