"""The quick-match queue's rules (games.matchmaking.queue): its levels and limits, the input it
accepts, who may queue, and which waiting players are seated together (`choose_group`, pure:
ranked queues group only close ratings, the allowed gap widening with the wait)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from accounts.services import balance_or_none
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.history.models import Rating
from games.history.ratings import Skill
from games.matchmaking.models import QueueEntry
from games.models import Seat, Table
from games.moderation.penalties import active_ban, ban_message
from games.table import seating, stake
from games.table.errors import ServiceError

# Named stake levels; a whole number is accepted too (docs/protocol.md §5). 一花起胡 needs an
# even base, so its levels round up to the next even number.
LEVELS = {"bronze": 1, "silver": 5, "gold": 20}
BOT_WAITS = (0, 15, 30, 60, 120)  # seconds a player may choose before bots fill (0: keep waiting)
DEFAULT_BOT_WAIT = 30
MAX_BOT_WAIT = 600
STALE_SECONDS = 20  # a queue page polls every 2 s: silent this long, the player is gone
MATCHED_KEEP = timedelta(hours=2)  # a matched entry answers GET this long (while seated there)
RANKED_GAP = 3.0  # ordinal points two ranked players may differ by at once…
RANKED_GAP_PER_SECOND = 0.5  # …plus this per second the longer-waiting one has waited
ESTIMATE_FROM = 20  # recent quick matches of the queue the expected wait is averaged over


class QueueError(ServiceError):
    """A refused queue request; `status` is the HTTP status the API answers with."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(code, message)
        self.status = status


@dataclass(frozen=True)
class QueueKey:
    variant: str
    base: int
    ranked: bool

    @property
    def players(self) -> int:
        return get_ruleset(self.variant).players

    def lock_id(self) -> int:
        """A signed 64-bit number for pg_advisory_xact_lock, the same in every process."""
        digest = hashlib.blake2b(f"queue:{self.variant}:{self.base}:{self.ranked}".encode(), digest_size=8)
        return int.from_bytes(digest.digest(), "big", signed=True)


# --- input ------------------------------------------------------------------------------------


def level_base(variant: str, level: Any) -> tuple[str, int]:
    """("bronze", 1) for a named level, (str(base), base) for a whole number; refused otherwise."""
    if variant not in VARIANT_IDS:
        raise QueueError("unknown_variant", f"variant must be one of {', '.join(VARIANT_IDS)}")
    if isinstance(level, str) and level in LEVELS:
        base = LEVELS[level]
        if get_ruleset(variant).even_stake and base % 2:
            base += 1
        return level, base
    if isinstance(level, bool) or not isinstance(level, int):
        names = ", ".join(LEVELS)
        raise QueueError("bad_level", f"level must be one of {names} or a whole-number base stake")
    try:
        base = stake.validate_stake(variant, level)
    except ServiceError as e:
        raise QueueError("bad_level", e.message) from None
    return str(base), base


def check_bot_wait(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BOT_WAIT:
        message = f"bot_wait must be a whole number of seconds 0–{MAX_BOT_WAIT} (0: never)"
        raise QueueError("bad_bot_wait", message)
    return value


def seated_table(user: AbstractBaseUser) -> int | None:
    """The open table where `user` has a seat, if any."""
    seat = (
        Seat.objects.filter(user_id=user.pk)
        .exclude(table__status=Table.Status.CLOSED)
        .values_list("table_id", flat=True)
        .first()
    )
    return seat


def refuse_ineligible(user: AbstractBaseUser, base: int, now: datetime) -> None:
    ban = active_ban(user, now)
    if ban is not None:
        raise QueueError("banned", ban_message(ban), status=403)
    table_id = seated_table(user)
    if table_id is not None:
        message = _("You have a seat at table %(table)s: leave it first.") % {"table": table_id}
        raise QueueError("already_seated", message, 409)
    if (balance_or_none(user) or 0) < 50 * base:
        raise QueueError("insufficient_points", seating.INSUFFICIENT_POINTS)


def rating_of(user: AbstractBaseUser, variant: str) -> float:
    row = Rating.objects.filter(user_id=user.pk, variant=variant).first()
    return row.ordinal if row is not None else Skill().ordinal


# --- matching ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """What `choose_group` needs of a queue entry."""

    id: int
    rating: float
    joined: datetime
    bots_at: datetime | None


def gap_allowed(candidate: Candidate, now: datetime) -> float:
    """The rating gap a ranked player accepts: wider the longer they wait, up to RANKED_MAX_GAP
    (a quiet queue at an unusual level must not pair any two accounts in the end: a feeder
    account throwing hands to a far stronger main one)."""
    widened = RANKED_GAP + RANKED_GAP_PER_SECOND * max(0.0, (now - candidate.joined).total_seconds())
    return min(widened, float(settings.RANKED_MAX_GAP))


def compatible(a: Candidate, b: Candidate, now: datetime) -> bool:
    """Ranked: close enough for the longer-waiting of the two (its window is the wider)."""
    return abs(a.rating - b.rating) <= max(gap_allowed(a, now), gap_allowed(b, now))


def choose_group(
    candidates: Sequence[Candidate], players: int, ranked: bool, now: datetime
) -> tuple[list[Candidate], int] | None:
    """The players to seat together now and how many bots join them, or None.

    Candidates come in queue order (longest waiting first). A full table of people is preferred;
    failing that, once the longest-waiting player's bot wait has passed, they are seated with
    those who also accept bots (and are close enough, ranked) and bots take the rest."""
    for anchor in candidates:
        group = _grow(anchor, candidates, players, ranked, now, lambda c: True)
        if len(group) == players:
            return group, 0
    for anchor in candidates:
        if anchor.bots_at is None or anchor.bots_at > now:
            continue
        group = _grow(anchor, candidates, players, ranked, now, lambda c: c.bots_at is not None)
        return group, players - len(group)
    return None


def _grow(
    anchor: Candidate,
    candidates: Sequence[Candidate],
    players: int,
    ranked: bool,
    now: datetime,
    accepts: Callable[[Candidate], bool],
) -> list[Candidate]:
    """The anchor and whoever fits with it (all pairwise close enough when ranked), up to a table."""
    group = [anchor]
    others = [c for c in candidates if c.id != anchor.id and accepts(c)]
    if ranked:  # the closest ratings first; else queue order
        others.sort(key=lambda c: abs(c.rating - anchor.rating))
    for other in others:
        if len(group) == players:
            break
        if not ranked or all(compatible(other, member, now) for member in group):
            group.append(other)
    return group


def waiting_entries(key: QueueKey, now: datetime) -> Any:
    """The live entries of a queue (stale ones are not counted, and dropped by the next pass)."""
    return QueueEntry.objects.filter(
        variant=key.variant,
        base=key.base,
        ranked=key.ranked,
        table__isnull=True,
        dropped="",
        seen__gte=now - timedelta(seconds=STALE_SECONDS),
    )
