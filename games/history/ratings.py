"""Skill ratings per variant with openskill's Plackett-Luce model.

After every finished hand each seat is ranked by the points it won in that hand (ties share a
rank) and the humans' mu/sigma move. Bots take part as fixed default-strength opponents: they
are never stored, never updated and never ranked.

Each player's score entry keeps the rating the hand started from (`mu_before`/`sigma_before`):
until a quick-match hand is past its table's spectator delay, everyone but the player and staff
sees the rating as it stood before it (`public_skills`), so no rating moves early.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from openskill.models import PlackettLuce

from common import settings_store
from games.history.models import Rating
from games.models import Hand, ScoreEntry

MODEL = PlackettLuce()
ADMIN_CLOSED = "admin_closed"  # HandResult.by of a hand an admin ended: nobody's skill shows in it
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def ranks_by_points(points: Sequence[int]) -> list[int]:
    """Competition ranks, 1 = most points; equal points share a rank (1, 2, 2, 4)."""
    return [1 + sum(1 for other in points if other > p) for p in points]


def rate(skills: Sequence[Skill], points: Sequence[int]) -> list[Skill]:
    """New skills after one hand in which seat i won points[i] (2- or 4-player)."""
    if len(skills) != len(points) or len(skills) < 2:
        raise ValueError("one skill and one result per seat, at least two seats")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=ranks_by_points(points))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


@transaction.atomic
def record_hand_ratings(hand: Hand) -> list[Rating]:
    """Update the ratings of the humans of a finished hand; returns their Rating rows."""
    if (hand.result or {}).get("by") == ADMIN_CLOSED:
        return []
    entries = list(ScoreEntry.objects.filter(hand=hand).order_by("seat"))
    variant = hand.table.variant
    humans = [e for e in entries if e.user_id is not None]
    if len(entries) < 2 or not humans:
        return []
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(
            variant=variant, user_id__in=[e.user_id for e in humans]
        )
    }
    before = [
        Skill(rows[e.user_id].mu, rows[e.user_id].sigma) if e.user_id in rows else Skill() for e in entries
    ]
    # ranked by the hand as played: a payment with a bot moved no points (practice) but was won
    practice = (hand.settlement or {}).get("practice") or []
    played = [e.delta + (practice[e.seat] if e.seat < len(practice) else 0) for e in entries]
    after = rate(before, played)
    updated = []
    for entry, old, skill in zip(entries, before, after, strict=True):
        if entry.user_id is None:
            continue  # a bot: a fixed default opponent, never stored
        entry.mu_before, entry.sigma_before = old.mu, old.sigma
        entry.save(update_fields=["mu_before", "sigma_before"])
        row = rows.get(entry.user_id) or Rating(user_id=entry.user_id, variant=variant)
        row.mu, row.sigma = skill.mu, skill.sigma
        row.hands += 1
        row.save()
        updated.append(row)
    return updated


def hands_behind_the_delay(now: datetime | None = None) -> QuerySet[Hand]:
    """Finished quick-match hands whose end their table's delayed spectators have not seen yet
    (the same rule as games.history.queries.behind_the_delay, for every hand at once; ranks and
    the public ratings both read it)."""
    delay = settings_store.current().spectator_delay_seconds
    if not delay:
        return Hand.objects.none()
    since = (now or timezone.now()) - timedelta(seconds=delay)
    return Hand.objects.filter(table__quick_match__isnull=False, ended__gt=since)


def public_skills(user_ids: Sequence[int], variant: str | None = None) -> dict[tuple[int, str], Skill | None]:
    """Per (player, variant) with a rating: the skill as the public sees it — as it stood before
    the oldest of the player's hands still behind its table's spectator delay (None: no rating
    before it), so a rating moves for other viewers only when the hand's end is shown."""
    rows = Rating.objects.filter(user_id__in=list(user_ids))
    unseen = ScoreEntry.objects.filter(
        user_id__in=list(user_ids), hand__in=hands_behind_the_delay(), mu_before__isnull=False
    )
    if variant is not None:
        rows = rows.filter(variant=variant)
        unseen = unseen.filter(hand__table__variant=variant)
    oldest: dict[tuple[int, str], Skill] = {}
    count: Counter[tuple[int, str]] = Counter()
    for user_id, in_variant, mu, sigma in unseen.order_by("hand__ended", "pk").values_list(
        "user_id", "hand__table__variant", "mu_before", "sigma_before"
    ):
        oldest.setdefault((user_id, in_variant), Skill(mu, sigma))
        count[(user_id, in_variant)] += 1
    out: dict[tuple[int, str], Skill | None] = {}
    for row in rows:
        key = (row.user_id, row.variant)
        if key not in oldest:
            out[key] = Skill(row.mu, row.sigma)
        else:  # a rating first made by an unseen hand did not exist before it
            out[key] = oldest[key] if row.hands > count[key] else None
    return out
