"""The public leaderboards: per variant ranked by rating, overall by balance (docs/history.md).

Public, so hands still behind their table's spectator delay are left out — their results,
balances, ranks and ratings — until it passes (docs/operations.md, "Security").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Avg, Count, Max, Q, QuerySet, Sum

from accounts.models import LedgerEntry, Profile
from common import settings_store
from games.history import ranks
from games.history.ratings import hands_behind_the_delay, public_skills
from games.models import Hand, ScoreEntry


@dataclass
class Standing:
    username: str
    balance: int
    hands: int
    wins: int
    average: float
    biggest: int
    rating: float | None
    mu: float | None = None
    sigma: float | None = None
    rank: dict[str, Any] | None = None  # the tier in this variant (games.history.ranks)

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "username": self.username,
            "balance": self.balance,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "average_points": round(self.average, 2),
            "biggest_hand": self.biggest,
            "rating": round(self.rating, 3) if self.rating is not None else None,
            "mu": self.mu,
            "sigma": self.sigma,
            "rank": self.rank,
        }


@dataclass
class Leaderboard:
    variant: str | None
    min_hands: int
    ranked: list[Standing]
    provisional: list[Standing]


def _entries(variant: str | None, unseen: QuerySet) -> QuerySet:
    # Bots have no user: they are never on a leaderboard.
    q = ScoreEntry.objects.filter(user__isnull=False, hand__status=Hand.Status.OVER).exclude(hand__in=unseen)
    return q.filter(hand__table__variant=variant) if variant else q


def _balances_shown(user_ids: list[int], unseen: QuerySet) -> dict[int, int]:
    """Balances as the public sees them: without what hands still behind their table's spectator
    delay moved (their results, and escape penalties settled with them) — a balance that moved at
    once would tell a delayed spectator the result."""
    balances = dict(Profile.objects.filter(user_id__in=user_ids).values_list("user_id", "balance"))
    moved = (
        LedgerEntry.objects.filter(user_id__in=user_ids)
        .filter(Q(hand__in=unseen) | Q(penalty__hand__in=unseen))
        .values("user_id")
        .annotate(total=Sum("delta"))
    )
    for row in moved:
        balances[row["user_id"]] = balances.get(row["user_id"], 0) - row["total"]
    return balances


def _wins(variant: str | None, unseen: QuerySet) -> dict[int, int]:
    wins: dict[int, int] = defaultdict(int)
    for user_id, seat, winners in _entries(variant, unseen).values_list(
        "user_id", "seat", "hand__result__winners"
    ):
        if isinstance(winners, list) and seat in winners:
            wins[user_id] += 1
    return wins


def leaderboard(variant: str | None = None, limit: int = 100) -> Leaderboard:
    """Per variant: ranked by rating (ordinal); overall: by balance. Players below the minimum
    number of hands are listed apart as provisional. It is public: hands still behind their
    table's spectator delay are left out (their results, balances, ranks and ratings) until it passes."""
    min_hands = settings_store.current().rating_min_hands
    unseen = hands_behind_the_delay()
    stats = (
        _entries(variant, unseen)
        .values("user_id", "user__username")
        .annotate(hands=Count("id"), average=Avg("delta"), biggest=Max("delta"), total=Sum("delta"))
    )
    wins = _wins(variant, unseen)
    user_ids = [s["user_id"] for s in stats]
    balances = _balances_shown(user_ids, unseen)
    # as the public sees them: without what hands still behind the delay moved
    ratings = (
        {user_id: skill for (user_id, _), skill in public_skills(user_ids, variant).items()}
        if variant
        else {}
    )
    standings = []
    for s in stats:
        rating = ratings.get(s["user_id"])
        standings.append(
            Standing(
                username=s["user__username"],
                balance=balances.get(s["user_id"], 0),
                hands=s["hands"],
                wins=wins.get(s["user_id"], 0),
                average=float(s["average"] or 0),
                biggest=max(int(s["biggest"] or 0), 0),
                rating=rating.ordinal if rating else None,
                mu=rating.mu if rating else None,
                sigma=rating.sigma if rating else None,
            )
        )
    if variant:
        standings.sort(key=lambda s: (-(s.rating if s.rating is not None else -1e9), -s.balance, s.username))
    else:
        standings.sort(key=lambda s: (-s.balance, s.username))
    if variant:
        _add_ranks(variant, standings, {s["user__username"]: s["user_id"] for s in stats})
    ranked = [s for s in standings if s.hands >= min_hands][:limit]
    provisional = [s for s in standings if s.hands < min_hands][:limit]
    return Leaderboard(variant, min_hands, ranked, provisional)


def _add_ranks(variant: str, standings: list[Standing], user_ids: dict[str, int]) -> None:
    tiers = ranks.tiers_for(variant, list(user_ids.values()))
    for s in standings:
        rank = tiers.get(user_ids[s.username], ranks.Standing())
        s.rank = {**ranks.tier_names(rank.tier), "tier": rank.tier, "points": rank.points}
