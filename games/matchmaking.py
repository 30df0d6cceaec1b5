"""Quick match (issue 18): a queue per (variant, base stake, ranked) in the database.

A player joins (`join`), keeps the queue page open (each poll, `poll`, says they are still
there) and is seated at a new public table together with the others of the queue as soon as
there are enough of them (`match_queue`): the stake is fixed by the level and the hand starts.
When the longest-waiting player's own wait for bots (`bot_wait`) has passed, the open seats
are filled with bots. Ranked queues only group players whose ratings are close, the allowed
gap widening the longer they wait (`choose_group`, a pure function).

Concurrency: the queue is PostgreSQL rows, so any server process (or the clock) may match. A
matching pass holds a transaction-level advisory lock on its queue (PostgreSQL; SQLite
transactions take the database's write lock when they begin) and locks the waiting rows with
`select_for_update(skip_locked=True)`: two requests at the same instant never seat a player
twice or at two tables (tests/games/test_matchmaking.py runs them concurrently).

Leaving a table the queue started before its first `hands` hands are played is an escape
(`leaving_is_escape`): the usual penalty and graded ban (games.penalties).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.services import balance_or_none
from games import services
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.models import Hand, Penalty, QueueEntry, QuickMatch, Rating, Seat, Table
from games.penalties import active_ban, ban_message, charge_escape
from games.ratings import Skill

log = logging.getLogger(__name__)

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


class QueueError(services.ServiceError):
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
        if variant == "yihua" and base % 2:
            base += 1
        return level, base
    if isinstance(level, bool) or not isinstance(level, int):
        names = ", ".join(LEVELS)
        raise QueueError("bad_level", f"level must be one of {names} or a whole-number base stake")
    try:
        base = services.validate_stake(variant, level)
    except services.ServiceError as e:
        raise QueueError("bad_level", e.message) from None
    return str(base), base


def check_bot_wait(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BOT_WAIT:
        message = f"bot_wait must be a whole number of seconds 0–{MAX_BOT_WAIT} (0: never)"
        raise QueueError("bad_bot_wait", message)
    return value


# --- joining, polling, leaving ----------------------------------------------------------------


def seated_table(user: AbstractBaseUser) -> int | None:
    """The open table where `user` has a seat, if any."""
    seat = (
        Seat.objects.filter(user_id=user.pk)
        .exclude(table__status=Table.Status.CLOSED)
        .values_list("table_id", flat=True)
        .first()
    )
    return seat


def _refuse_ineligible(user: AbstractBaseUser, base: int, now: datetime) -> None:
    ban = active_ban(user, now)
    if ban is not None:
        raise QueueError("banned", ban_message(ban), status=403)
    table_id = seated_table(user)
    if table_id is not None:
        message = _("You have a seat at table %(table)s: leave it first.") % {"table": table_id}
        raise QueueError("already_seated", message, 409)
    if (balance_or_none(user) or 0) < 50 * base:
        raise QueueError("insufficient_points", services.INSUFFICIENT_POINTS)


def rating_of(user: AbstractBaseUser, variant: str) -> float:
    row = Rating.objects.filter(user_id=user.pk, variant=variant).first()
    return row.ordinal if row is not None else Skill().ordinal


def join(
    user: AbstractBaseUser,
    variant: Any,
    level: Any,
    ranked: Any = False,
    bot_wait: Any = DEFAULT_BOT_WAIT,
    now: datetime | None = None,
) -> int:
    """Queue `user` and return their place in the queue; then match the queue at once (GET tells
    whether that seated them). Refused, nothing written, when the input is bad or the user is
    banned, seated, short of points, or queued already."""
    now = now or timezone.now()
    level_name, base = level_base(variant, level)
    if not isinstance(ranked, bool):
        raise QueueError("bad_ranked", "ranked must be true or false")
    wait = check_bot_wait(bot_wait)
    _forget_delivered(user)
    if QueueEntry.objects.filter(user_id=user.pk, table__isnull=True, dropped="").exists():
        raise QueueError("already_queued", _("You are already in a queue: leave it first."), 409)
    _refuse_ineligible(user, base, now)
    try:
        with transaction.atomic():
            # only a delivered or dropped entry: a waiting one another request made meanwhile
            # stays, and this insert then breaks the one-entry-per-user constraint (IntegrityError)
            QueueEntry.objects.filter(user_id=user.pk).exclude(table__isnull=True, dropped="").delete()
            entry = QueueEntry.objects.create(
                user=user,
                variant=variant,
                level=level_name,
                base=base,
                ranked=ranked,
                rating=rating_of(user, variant),
                bot_wait=wait,
                bots_at=now + timedelta(seconds=wait) if wait else None,
                joined=now,
                seen=now,
            )
    except IntegrityError:  # the same user joining twice at the same instant
        raise QueueError("already_queued", _("You are already in a queue: leave it first."), 409) from None
    key = key_of(entry)
    position = _waiting(key, now).filter(Q(joined__lt=now) | Q(joined=now, pk__lt=entry.pk)).count() + 1
    match_queue(key, now)
    return position


def _forget_delivered(user: AbstractBaseUser) -> None:
    """A matched entry whose player no longer sits at its table has done its job."""
    entry = QueueEntry.objects.filter(user_id=user.pk, table__isnull=False).first()
    if entry is not None and not Seat.objects.filter(table_id=entry.table_id, user_id=user.pk).exists():
        entry.delete()


def key_of(entry: QueueEntry) -> QueueKey:
    return QueueKey(entry.variant, entry.base, entry.ranked)


def leave(user: AbstractBaseUser) -> bool:
    """Leave the queue; False when the user was not waiting in one."""
    deleted, _rows = QueueEntry.objects.filter(user_id=user.pk, table__isnull=True).delete()
    return bool(deleted)


def poll(user: AbstractBaseUser, now: datetime | None = None) -> dict[str, Any]:
    """The queue page's (or API client's) poll: still here; match if possible; the status."""
    now = now or timezone.now()
    entry = QueueEntry.objects.filter(user_id=user.pk).first()
    if entry is None:
        return {"queued": False}
    if entry.table_id is None and not entry.dropped:
        QueueEntry.objects.filter(pk=entry.pk).update(seen=now)
        match_queue(key_of(entry), now)
        entry.refresh_from_db()
    return status(entry, now)


def status(entry: QueueEntry, now: datetime) -> dict[str, Any]:
    """What the queue page and GET /api/queue/ show for an entry."""
    if entry.table_id is not None:
        if Seat.objects.filter(table_id=entry.table_id, user_id=entry.user_id).exists():
            return {"table": entry.table_id, "ws": f"/ws/tables/{entry.table_id}/"}
        entry.delete()
        return {"queued": False}
    if entry.dropped:
        entry.delete()
        return {"queued": False, "dropped": entry.dropped}
    key = key_of(entry)
    waiting = _waiting(key, now)
    ahead = waiting.filter(Q(joined__lt=entry.joined) | Q(joined=entry.joined, pk__lt=entry.pk)).count()
    waited = max(0.0, (now - entry.joined).total_seconds())
    return {
        "queued": True,
        "variant": entry.variant,
        "level": entry.level,
        "base": entry.base,
        "ranked": entry.ranked,
        "position": ahead + 1,
        "waiting": waiting.count(),
        "players": key.players,
        "waited": int(waited),
        "bot_wait": entry.bot_wait,
        "bots_in": max(0, int((entry.bots_at - now).total_seconds())) if entry.bots_at else None,
        "expected_wait": expected_wait(key),
    }


def expected_wait(key: QueueKey) -> int | None:
    """Seconds, from how long the last quick matches of this queue took; None: no history yet."""
    recent = QuickMatch.objects.filter(variant=key.variant, base=key.base, ranked=key.ranked)
    waits = list(recent.order_by("-created").values_list("waited", flat=True)[:ESTIMATE_FROM])
    return round(sum(waits) / len(waits)) if waits else None


# --- matching ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """What `choose_group` needs of a queue entry."""

    id: int
    rating: float
    joined: datetime
    bots_at: datetime | None


def gap_allowed(candidate: Candidate, now: datetime) -> float:
    return RANKED_GAP + RANKED_GAP_PER_SECOND * max(0.0, (now - candidate.joined).total_seconds())


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


def _waiting(key: QueueKey, now: datetime) -> Any:
    """The live entries of a queue (stale ones are not counted, and dropped by the next pass)."""
    return QueueEntry.objects.filter(
        variant=key.variant,
        base=key.base,
        ranked=key.ranked,
        table__isnull=True,
        dropped="",
        seen__gte=now - timedelta(seconds=STALE_SECONDS),
    )


def _lock_queue(key: QueueKey) -> None:
    """Serialise matching passes of one queue across processes (till the transaction ends)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key.lock_id()])


def match_queue(key: QueueKey, now: datetime | None = None) -> list[int]:
    """Seat every group the queue can form now; returns the new tables' ids."""
    now = now or timezone.now()
    created: list[int] = []
    with transaction.atomic():
        _lock_queue(key)
        QueueEntry.objects.filter(
            variant=key.variant,
            base=key.base,
            ranked=key.ranked,
            table__isnull=True,
            seen__lt=now - timedelta(seconds=STALE_SECONDS),
        ).delete()  # players whose queue page stopped polling
        entries = list(_waiting(key, now).select_for_update(skip_locked=True).order_by("joined", "pk"))
        entries = [e for e in entries if _still_eligible(e, now)]
        while True:
            candidates = [Candidate(e.pk, e.rating, e.joined, e.bots_at) for e in entries]
            chosen = choose_group(candidates, key.players, key.ranked, now)
            if chosen is None:
                break
            group_ids = {c.id for c in chosen[0]}
            group = [e for e in entries if e.pk in group_ids]
            group.sort(key=lambda e: (e.joined, e.pk))
            table_id = _seat_group(key, group, chosen[1], now)
            if table_id is None:
                break
            created.append(table_id)
            entries = [e for e in entries if e.pk not in group_ids]
    return created


def _still_eligible(entry: QueueEntry, now: datetime) -> bool:
    """Banned, seated elsewhere or short of points since joining: dropped with the reason."""
    try:
        _refuse_ineligible(entry.user, entry.base, now)
    except QueueError as e:
        entry.dropped = e.message[:200]
        entry.save(update_fields=["dropped"])
        return False
    return True


def _seat_group(key: QueueKey, group: list[QueueEntry], bots: int, now: datetime) -> int | None:
    """A new public table: the group in queue order, the level's stake fixed, bots in the
    remaining seats, the first hand started. None (nothing written) if a service refuses."""
    users = [e.user for e in group]
    first = users[0]
    try:
        with transaction.atomic():
            table = services.create_table(first, key.variant, public=True)
            for index, user in enumerate(users):
                services.sit(table.pk, user, index)
            services.set_stake(table.pk, first, key.base)
            for user in users[1:]:
                services.accept_stake(table.pk, user)
            for index in range(len(users), key.players):
                services.add_bot(table.pk, first, index)
            table = services.start_hand(table.pk, first)
            QuickMatch.objects.create(
                table=table,
                match_id=table.match_id,
                variant=key.variant,
                level=group[0].level,
                base=key.base,
                ranked=key.ranked and bots == 0,
                hands=key.players,
                bots=bots,
                waited=sum((now - e.joined).total_seconds() for e in group) / len(group),
                created=now,
            )
            QueueEntry.objects.filter(pk__in=[e.pk for e in group]).update(table=table)
    except services.ServiceError as e:
        log.warning("quick match for %s failed: %s", key, e)
        return None
    return table.pk


def sweep(now: datetime | None = None) -> int:
    """The clock's pass: match queues whose bot wait has run out or that hold stale entries,
    and forget old matched entries. Returns how many tables it started."""
    now = now or timezone.now()
    due = (
        QueueEntry.objects.filter(table__isnull=True, dropped="")
        .filter(Q(bots_at__lte=now) | Q(seen__lt=now - timedelta(seconds=STALE_SECONDS)))
        .values_list("variant", "base", "ranked")
        .distinct()
    )
    started = 0
    for variant, base, ranked in list(due):
        started += len(match_queue(QueueKey(variant, base, ranked), now))
    QueueEntry.objects.filter(table__isnull=False, joined__lt=now - MATCHED_KEEP).delete()
    return started


# --- leaving a quick-match table --------------------------------------------------------------


def leaving_is_escape(table: Table, hand: Hand | None) -> bool:
    """Between hands: is freeing a seat at `table` now an escape? Yes at a queue-started table
    until its first match has played its hands (one per seat)."""
    if hand is None:
        return False
    quick = QuickMatch.objects.filter(table_id=table.pk).first()
    if quick is None or quick.match_id is None:
        return False
    return table.match_id == quick.match_id and hand.match_id == quick.match_id and hand.number < quick.hands


def charge_early_exit(
    table: Table,
    hand: Hand | None,
    user: AbstractBaseUser,
    others: Sequence[AbstractBaseUser],
    now: datetime,
    disconnected_at: datetime | None = None,
) -> Penalty | None:
    """The escape penalty (and graded ban) for leaving a quick match between its hands
    (`disconnected_at`: stood up for staying away, which a server restart excuses)."""
    if hand is None or not leaving_is_escape(table, hand):
        return None
    reason = Penalty.Reason.ESCAPE if disconnected_at is None else Penalty.Reason.DISCONNECT
    return charge_escape(table, hand, user, reason, others, disconnected_at, now)
