"""Ranks: tiers 新人, 初段 … 九段 per variant, moved by ranked results only.

A hand is ranked when it is one of the first hands of a match started by a *ranked* quick-match
queue with no bot at the table (games.matchmaking.queue). Each such hand gives every player rank
points by place (the points won in the hand; a tie shares the places' points equally), losses
weighing more the higher the tier; 100 points promote (to 50 in the next tier), falling below 0
demotes from 二段 up (to 50 in the tier below). The rule is written in docs/history.md.

The openskill rating (games.history.ratings) moves with every hand and is shown beside the tier; it
too is held back for other viewers while the hand is behind the delay (ratings.public_skills).

A ranked hand's rank change reaches nobody but the account itself and staff before the hand's
end reaches its table's delayed spectators (games.rendering.spectator_delay): until then everyone else
(the profile, its API, the leaderboard) is shown the rank as it stood before that hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _  # English msgids, translated when shown

from accounts.models import Profile
from common.rows import RowSql
from games.engine.rulesets import VARIANT_IDS
from games.history.models import Rank, RankChange, Rating
from games.history.ratings import Skill, hands_behind_the_delay, public_skills
from games.matchmaking.models import QuickMatch
from games.models import Hand, ScoreEntry

TIERS = (
    ("新人", _("Novice")),
    ("初段", _("1st dan")),
    ("二段", _("2nd dan")),
    ("三段", _("3rd dan")),
    ("四段", _("4th dan")),
    ("五段", _("5th dan")),
    ("六段", _("6th dan")),
    ("七段", _("7th dan")),
    ("八段", _("8th dan")),
    ("九段", _("9th dan")),
)
TOP = len(TIERS) - 1
PROMOTE_AT = 100  # rank points that promote
AFTER_MOVE = 50  # rank points in the new tier after a promotion or demotion
SAFE_TIERS = 2  # 新人 and 初段 never drop a tier
PLACE_POINTS = {4: (30, 10, -10, -30), 2: (30, -30)}
LOSS_PER_TIER = 5  # each tier adds this much to every loss


@dataclass(frozen=True)
class Standing:
    tier: int = 0
    points: int = 0


def tier_names(tier: int) -> dict[str, str]:
    zh, en = TIERS[tier]
    return {"id": f"dan{tier}" if tier else "novice", "zh": zh, "en": en}


def place_points(deltas: Sequence[int]) -> list[tuple[int, float]]:
    """(place, points before the tier's loss weighting) per seat. Equal hand results share the
    places they cover: a drawn four-player hand gives everyone (30 + 10 − 10 − 30) / 4 = 0."""
    table = PLACE_POINTS[len(deltas)]
    order = sorted(deltas, reverse=True)
    out = []
    for delta in deltas:
        first = order.index(delta)
        covered = [i for i, d in enumerate(order) if d == delta]
        out.append((first + 1, sum(table[i] for i in covered) / len(covered)))
    return out


def weighted(before: Standing, gained: float) -> int:
    """The rank points a place gives at a tier: every loss is LOSS_PER_TIER heavier per tier."""
    return round(gained - LOSS_PER_TIER * before.tier if gained < 0 else gained)


def apply_points(before: Standing, gained: float) -> Standing:
    """A tier's loss weighting, then promotion at PROMOTE_AT or demotion below 0."""
    points = before.points + weighted(before, gained)
    tier = before.tier
    if points >= PROMOTE_AT and tier < TOP:
        return Standing(tier + 1, AFTER_MOVE)
    if points < 0:
        if tier >= SAFE_TIERS:
            return Standing(tier - 1, AFTER_MOVE)
        return Standing(tier, 0)
    return Standing(tier, min(points, PROMOTE_AT) if tier == TOP else points)


def is_ranked_hand(hand: Hand) -> bool:
    quick = QuickMatch.objects.filter(table_id=hand.table_id).first()
    return bool(
        quick is not None
        and quick.ranked
        and quick.match_id == hand.match_id
        and hand.number <= quick.hands
        and (hand.result or {}).get("by") != "admin_closed"
    )


@transaction.atomic
def record_hand_ranks(hand: Hand, variant: str) -> list[dict[str, Any]] | None:
    """Move the ranks of a finished ranked hand's players; the changes for the settlement
    (one per seat), or None when the hand is not ranked. Once per hand."""
    if not is_ranked_hand(hand) or RankChange.objects.filter(hand=hand).exists():
        return None
    entries = list(ScoreEntry.objects.filter(hand=hand).order_by("seat"))
    if len(entries) not in PLACE_POINTS or any(e.user_id is None for e in entries):
        return None  # a bot at the table: not ranked
    if linked_players([e.user_id for e in entries]):
        return None  # one person's accounts (one signup address): nothing to rank
    rows = {
        r.user_id: r
        for r in Rank.objects.select_for_update().filter(
            variant=variant, user_id__in=[e.user_id for e in entries]
        )
    }
    changes = []
    players = [e.user_id for e in entries]
    now = timezone.now()
    for entry, (place, gained) in zip(entries, place_points([e.delta for e in entries]), strict=True):
        row = rows.get(entry.user_id) or Rank(user_id=entry.user_id, variant=variant)
        before = Standing(row.tier, row.points)
        if gained > 0:  # won again from the same opponents: worth less each time (win-trading)
            others = [p for p in players if p != entry.user_id]
            gained *= repeat_factor(entry.user_id, others, variant, now)
        after = apply_points(before, gained)
        row.tier, row.points, row.hands = after.tier, after.points, row.hands + 1
        row.save()
        RankChange.objects.create(
            hand=hand,
            user_id=entry.user_id,
            variant=variant,
            place=place,
            tier_before=before.tier,
            points_before=before.points,
            tier_after=after.tier,
            points_after=after.points,
            delta=weighted(before, gained),
        )
        changes.append(_change_json(entry, place, before, after))
    return changes


def linked_players(user_ids: Sequence[int]) -> bool:
    """Whether two of these accounts signed up from the same address (accounts.flows' strongest
    link): a ranked hand between them would be one person playing themself."""
    addresses = [
        a for a in Profile.objects.filter(user_id__in=list(user_ids)).values_list("signup_ip", flat=True) if a
    ]
    return len(addresses) != len(set(addresses))


def repeat_factor(user_id: int, others: Sequence[int], variant: str, now: datetime) -> float:
    """1 / (1 + the ranked hands this player played with these same opponents within the last
    RANK_REPEAT_HOURS): the first counts in full, the second half, the third a third…"""
    since = now - timedelta(hours=settings.RANK_REPEAT_HOURS)
    mine = RankChange.objects.filter(user_id=user_id, variant=variant, created__gt=since, created__lte=now)
    hands = mine.values_list("hand_id", flat=True)
    together = RankChange.objects.filter(hand_id__in=list(hands)).values_list("hand_id", "user_id")
    players: dict[int, set[int]] = {}
    for hand_id, uid in together:
        players.setdefault(hand_id, set()).add(uid)
    wanted = {user_id, *others}
    repeats = sum(1 for seated in players.values() if seated == wanted)
    return 1.0 / (1 + repeats)


def _change_json(entry: ScoreEntry, place: int, before: Standing, after: Standing) -> dict[str, Any]:
    moved = "promoted" if after.tier > before.tier else "demoted" if after.tier < before.tier else None
    return {
        "seat": entry.seat,
        "name": entry.user.get_username(),
        "place": place,
        "before": _shown(before),
        "after": _shown(after),
        "moved": moved,
    }


def _shown(standing: Standing) -> dict[str, Any]:
    return {"tier": standing.tier, "points": standing.points, **_names_plain(standing.tier)}


def _names_plain(tier: int) -> dict[str, str]:
    zh, en = TIERS[tier]
    return {"zh": zh, "en": en}


# --- reading ---------------------------------------------------------------------------------


def _unseen_changes(
    user_ids: Sequence[int], variant: str | None = None
) -> dict[tuple[int, str], list[RankChange]]:
    """Per (player, variant), the rank changes of hands still behind the delay, oldest first."""
    changes = RankChange.objects.filter(user_id__in=list(user_ids), hand__in=hands_behind_the_delay())
    if variant is not None:
        changes = changes.filter(variant=variant)
    out: dict[tuple[int, str], list[RankChange]] = {}
    for change in changes.order_by("created", "pk"):
        out.setdefault((change.user_id, change.variant), []).append(change)
    return out


def _as_shown(row: Rank | None, unseen: list[RankChange]) -> tuple[Standing, int]:
    """(standing, ranked hands) as the public sees them: before the oldest unseen change."""
    if unseen:
        first = unseen[0]
        return Standing(first.tier_before, first.points_before), (row.hands if row else 0) - len(unseen)
    return (Standing(row.tier, row.points), row.hands) if row else (Standing(), 0)


def ranks_of(user: AbstractBaseUser, viewer: AbstractBaseUser | None = None) -> dict[str, dict[str, Any]]:
    """Every variant's tier, rank points and openskill rating of a player (the API's `ranks`), as
    `viewer` may see them: the account itself and staff at once, anyone else without the changes
    of hands still behind their table's spectator delay."""
    rows = {r.variant: r for r in Rank.objects.filter(user_id=user.pk)}
    live = viewer is not None and viewer.is_authenticated and (viewer.pk == user.pk or viewer.is_staff)
    if live:
        ratings = {r.variant: Skill(r.mu, r.sigma) for r in Rating.objects.filter(user_id=user.pk)}
    else:
        ratings = {variant: skill for (_, variant), skill in public_skills([user.pk]).items()}
    unseen = {} if live else _unseen_changes([user.pk])
    out = {}
    for variant in VARIANT_IDS:
        row, rating = rows.get(variant), ratings.get(variant)
        standing, hands = _as_shown(row, unseen.get((user.pk, variant), []))
        out[variant] = {
            "tier": tier_names(standing.tier)["id"],
            "tier_zh": TIERS[standing.tier][0],
            "tier_en": TIERS[standing.tier][1],
            "level": standing.tier,
            "points": standing.points,
            "ranked_hands": hands,
            "rating": round(rating.ordinal, 3) if rating else None,
        }
    return out


def tiers_for(variant: str, user_ids: Sequence[int]) -> dict[int, Standing]:
    """The players' standings as the public sees them (the leaderboard's): without the changes
    of hands still behind their table's spectator delay."""
    rows = list(Rank.objects.filter(variant=variant, user_id__in=list(user_ids)))
    if not rows:  # nobody ranked yet (every new player's sit-down): no changes to hold back either
        return {}
    unseen = _unseen_changes([row.user_id for row in rows], variant)
    return {row.user_id: _as_shown(row, unseen.get((row.user_id, variant), []))[0] for row in rows}


def seat_rank(user_id: int, variant: str) -> dict[str, Any]:
    """A seat's `rank` as the board shows it beside the name: as the public sees it (the
    table's players and spectators are other viewers), without the changes of hands still behind
    their table's spectator delay. It is read at sit-down and moved by ranked hands played here."""
    # At every sit-down: one precompiled read (the ORM's compiling cost more than the read).
    row = _RANK_ROWS.first([("user_id", "=", user_id), ("variant", "=", variant)])
    if row is None:  # a new player: nothing ranked, nothing held back
        return _shown(Standing())
    unseen = _unseen_changes([user_id], variant)
    return _shown(_as_shown(row, unseen.get((user_id, variant), []))[0])


_RANK_ROWS = RowSql(Rank)
