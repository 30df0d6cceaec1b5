"""Read-only queries for match history, the points chart and leaderboards.

Who may see what: a finished hand of a public table is public (like a watched game); a hand of
a private table only to the people who played it and staff. A hand in progress is never in
history. A user's profile lists the matches the viewer may see.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Model, Q, QuerySet
from django.utils import timezone

from accounts.models import LedgerEntry
from common import settings_store
from games.clubs.membership import is_member
from games.engine.tiles import name
from games.matchmaking.models import QuickMatch
from games.models import Hand, Match
from games.moderation.models import Penalty
from games.rendering.board import bot_name
from games.rendering.labels import extra_name, pattern_name, round_label
from games.tournaments.models import TournamentTable

User = get_user_model()

CHART_POINTS = 300  # the chart shows the last this many balance changes


def _is_staff(viewer: AbstractBaseUser | None) -> bool:
    return bool(viewer is not None and viewer.is_authenticated and viewer.is_staff)


def played_in(hand: Hand, viewer: AbstractBaseUser | None) -> bool:
    if viewer is None or not viewer.is_authenticated:
        return False
    return viewer.pk in (hand.match.players or [])


def may_see_hand(hand: Hand, viewer: AbstractBaseUser | None) -> bool:
    """Public tables' hands are public; a private table's only to its players and staff, and a
    club table's to the club's members (docs/clubs.md)."""
    if hand.table.public or played_in(hand, viewer) or _is_staff(viewer):
        return True
    return hand.table.club_id is not None and is_member(viewer, hand.table.club_id)


def spectator_delay_of(table_id: int) -> int:
    """Seconds a quick-match table's spectators are kept behind (0: live; games.rendering.spectator_delay)."""
    with connection.cursor() as cursor:  # at every socket's arrival: one precompiled statement
        cursor.execute(_queued_or_tournament_sql(), [table_id, table_id])
        (delayed,) = cursor.fetchone()
    return settings_store.current().spectator_delay_seconds if delayed else 0


@functools.cache
def _queued_or_tournament_sql() -> str:
    """Whether a table is a quick match's or a tournament's (their spectators see it behind)."""
    q = connection.ops.quote_name

    def one(model: type[Model]) -> str:
        column = q(model._meta.get_field("table").column)
        return f"EXISTS (SELECT 1 FROM {q(model._meta.db_table)} WHERE {column} = %s)"

    return f"SELECT {one(QuickMatch)} OR {one(TournamentTable)}"


def behind_the_delay(hand: Hand, viewer: AbstractBaseUser | None, now: datetime | None = None) -> bool:
    """Whether `viewer` may not see this finished hand yet: its table's spectators are still
    behind its end. Its own players and staff see it at once; every other path (replays, records,
    histories) treats it as still playing, so nobody learns early how or when it ended."""
    if played_in(hand, viewer) or _is_staff(viewer):
        return False
    delay = spectator_delay_of(hand.table_id)
    if not delay:
        return False
    if hand.ended is None:
        return True
    return hand.ended > (now or timezone.now()) - timedelta(seconds=delay)


def visible_matches(viewer: AbstractBaseUser | None) -> Q:
    if _is_staff(viewer):
        return Q()
    q = Q(table__public=True)
    if viewer is not None and viewer.is_authenticated:
        q |= Q(hands__scores__user=viewer)
    return q


# --- match history --------------------------------------------------------------------------


@dataclass
class HandRow:
    hand: Hand
    names: list[str]
    payments: list[int]
    my_delta: int | None
    penalties: list[dict[str, Any]] = field(default_factory=list)

    @property
    def result(self) -> dict[str, Any]:
        return self.hand.result or {}

    @property
    def drawn(self) -> bool:
        return not self.result.get("winners")

    @property
    def round(self) -> str:
        """东风圈 第2局: where in the match the hand was played."""
        return round_label(name(self.hand.round_wind), self.hand.round_hand)

    @property
    def winners(self) -> list[str]:
        return [self.names[w] for w in self.result.get("winners", []) if w < len(self.names)]

    @property
    def scores(self) -> list[dict[str, Any]]:
        out = []
        for score in self.result.get("scores", []):
            breakdown = score.get("breakdown") or [[p, None] for p in score.get("patterns", [])]
            seat = score.get("seat", 0)
            variant = self.hand.table.variant
            out.append(
                {
                    "name": self.names[seat] if seat < len(self.names) else "",
                    "value": score.get("value"),
                    "patterns": [{**pattern_name(p, variant), "value": v} for p, v in breakdown],
                }
            )
        return out

    @property
    def extras(self) -> list[dict[str, Any]]:
        return [
            {**extra_name(e.get("reason", "")), "payments": e.get("payments", [])}
            for e in self.result.get("extras", [])
        ]

    @property
    def rows(self) -> list[dict[str, Any]]:
        # payments with a bot are practice: shown beside the points, never applied
        practice = (self.hand.settlement or {}).get("practice") or [0] * len(self.names)
        return [
            {"name": n, "payment": p, "practice": q}
            for n, p, q in zip(self.names, self.payments, practice, strict=False)
        ]


@dataclass
class MatchRow:
    match: Match
    names: list[str]  # as the API gives them ("bot" for a bot)
    hands: list[HandRow]
    net: int
    shown_names: list[str] = field(default_factory=list)  # as the page shows them (a bot by its table name)

    @property
    def variant(self) -> str:
        return self.match.table.variant


def _names(match: Match, usernames: dict[int, str]) -> list[str]:
    return [usernames.get(uid, "?") if uid is not None else "bot" for uid in match.players or []]


def _shown_names(match: Match, usernames: dict[int, str]) -> list[str]:
    """The seats as the live board named them, in the viewer's language ("Bot 2" / "机器人 2")."""
    return [
        usernames.get(uid, "?") if uid is not None else bot_name(index)
        for index, uid in enumerate(match.players or [])
    ]


def user_matches(user: AbstractBaseUser, viewer: AbstractBaseUser | None, limit: int = 50) -> list[MatchRow]:
    """The user's matches (newest first) with their finished hands, as `viewer` may see them."""
    matches = list(
        Match.objects.filter(hands__scores__user=user)
        .filter(visible_matches(viewer))
        .select_related("table")
        .distinct()
        .order_by("-started")[:limit]
    )
    ids = {uid for m in matches for uid in m.players or [] if uid is not None}
    usernames = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    hands = (
        Hand.objects.filter(match__in=matches, status=Hand.Status.OVER)
        .select_related("match")
        .prefetch_related("scores", "penalties__user")
        .order_by("number")
    )
    by_match: dict[int, list[HandRow]] = defaultdict(list)
    delays = _delays({m.table_id for m in matches}) if not _is_staff(viewer) else {}
    now = timezone.now()
    for hand in hands:
        if _hidden_by_delay(hand, viewer, delays, now):
            continue
        names = _shown_names(hand.match, usernames)
        scores = sorted(hand.scores.all(), key=lambda e: e.seat)
        mine = next((e.delta for e in scores if e.user_id == user.pk), None)
        penalties = [
            {"name": p.user.get_username(), "reason": p.get_reason_display(), "amount": p.amount}
            for p in hand.penalties.all()
        ]
        by_match[hand.match_id].append(HandRow(hand, names, [e.delta for e in scores], mine, penalties))
    return [
        MatchRow(
            m,
            _names(m, usernames),
            by_match[m.pk],
            sum(h.my_delta or 0 for h in by_match[m.pk]),
            _shown_names(m, usernames),
        )
        for m in matches
        if by_match[m.pk]  # a match whose every hand is still behind the delay is not listed yet
    ]


def _delays(table_ids: set[int]) -> dict[int, int]:
    """The spectator delay of each of these tables that has one (quick-match tables)."""
    delay = settings_store.current().spectator_delay_seconds
    if not delay:
        return {}
    quick = QuickMatch.objects.filter(table_id__in=table_ids).values_list("table_id", flat=True)
    events = TournamentTable.objects.filter(table_id__in=table_ids).values_list("table_id", flat=True)
    return dict.fromkeys([*quick, *events], delay)


def _hidden_by_delay(
    hand: Hand, viewer: AbstractBaseUser | None, delays: dict[int, int], now: datetime
) -> bool:
    delay = delays.get(hand.table_id)
    if not delay or played_in(hand, viewer):
        return False
    return hand.ended is None or hand.ended > now - timedelta(seconds=delay)


def matches_json(rows: Iterable[MatchRow]) -> list[dict[str, Any]]:
    """The API's form of the match history (GET /api/users/<username>/matches)."""
    return [
        {
            "id": row.match.pk,
            "variant": row.variant,
            "table": row.match.table_id,
            "started": row.match.started.isoformat(),
            "ended": row.match.ended.isoformat() if row.match.ended else None,
            "players": row.names,
            "net": row.net,
            "hands": [
                {
                    "id": h.hand.pk,
                    "number": h.hand.number,
                    "round_wind": name(h.hand.round_wind),  # with round_hand: 东风圈 第2局
                    "round_hand": h.hand.round_hand,
                    "ended": h.hand.ended.isoformat() if h.hand.ended else None,
                    "result": h.hand.result,
                    "payments": h.payments,
                    "penalties": h.penalties,
                    "replay": f"/hands/{h.hand.pk}/replay/",
                }
                for h in row.hands
            ],
        }
        for row in rows
    ]


# --- the points chart -----------------------------------------------------------------------


@dataclass
class Chart:
    width: int
    height: int
    points: str  # the SVG polyline's points
    low: int
    high: int
    first: datetime | None
    last: datetime | None
    count: int


def balance_series(user: AbstractBaseUser) -> list[tuple[datetime, int]]:
    rows = (
        LedgerEntry.objects.filter(user=user)
        .order_by("-created", "-pk")
        .values_list("created", "balance_after")
    )
    return list(reversed(rows[:CHART_POINTS]))


def chart(
    series: list[tuple[datetime, int]], width: int = 600, height: int = 160, pad: int = 8
) -> Chart | None:
    """Scale the balance after each change into an SVG polyline (evenly spaced by change)."""
    if not series:
        return None
    values = [v for _, v in series]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    coords = [
        (pad + i * step, height - pad - (v - low) * (height - 2 * pad) / span) for i, v in enumerate(values)
    ]
    if len(coords) == 1:
        coords.append((width - pad, coords[0][1]))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    return Chart(width, height, points, low, high, series[0][0], series[-1][0], len(values))


def open_penalties(user: AbstractBaseUser) -> QuerySet:
    return Penalty.objects.filter(user=user).select_related("hand", "reversal").order_by("-created")
