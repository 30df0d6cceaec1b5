"""Every change to a tournament: creating it, signing up, checking in, the clock's rounds, and
the organiser's actions on tables and players (audit-logged). Each refuses bad input with a
`TournamentError` before writing anything.

Across processes: the clock's `sweep` takes each due tournament's row with `SELECT … FOR UPDATE
SKIP LOCKED` and decides from what the database holds (the round's tables, their `ended`), so
any number of clock processes may run it, and a process killed mid-round leaves nothing half
done: a round's tables are seated in the transaction that starts the round."""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.models import AdminAuditLog, Table
from games.table import store
from games.table.changes import change
from games.table.errors import ServiceError
from games.table.opening import validate_options
from games.table.play import begin_hand, ready_to_start
from games.table.stake import validate_stake
from games.tournaments import deals, hooks, pairing, seats
from games.tournaments.models import Tournament, TournamentPlayer, TournamentRound, TournamentTable
from games.tournaments.standings import standings

log = logging.getLogger(__name__)

# The timers of a tournament's tables (tests start a faster clock through these).
TABLE_TIMERS: dict[str, int] = {"turn_seconds": 20, "claim_seconds": 8, "min_pause_ms": 1000, "undo_ms": 1500}
LIMITS = {
    "rounds": (1, 12),
    "hands_per_round": (1, 32),
    "wind_rounds": (0, 4),
    "max_players": (2, 256),
    "checkin_minutes": (0, 24 * 60),
    "grace_seconds": (10, 3600),
}


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- who may do what (the two functions clubs extend) -----------------------------------------


def can_organise(user: AbstractBaseUser | None, tournament: Tournament | None = None) -> bool:
    """Whether `user` may create a tournament (`tournament` None) or run this one. Staff today;
    a club's owner and admins for their club's events once clubs exist (a `club` field here)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament is not None and tournament.organiser_id == user.pk


def visible(user: AbstractBaseUser | None) -> Q:
    """The tournaments `user` may see: public ones, and their own (organised or entered). A
    club-only event will be visible to its club's members here."""
    if user is not None and user.is_staff:
        return Q()
    q = Q(public=True)
    if user is not None and user.is_authenticated:
        q |= Q(organiser_id=user.pk) | Q(players__user_id=user.pk)
    return q


def visible_tournaments(user: AbstractBaseUser | None) -> QuerySet[Tournament]:
    return Tournament.objects.filter(visible(user)).distinct()


# --- creating ---------------------------------------------------------------------------------


def _whole(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool):
        raise TournamentError(f"bad_{key}", _("%(field)s must be a whole number.") % {"field": key})
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise TournamentError(f"bad_{key}", _("%(field)s must be a whole number.") % {"field": key}) from None
    low, high = LIMITS[key]
    if not low <= value <= high:
        message = _("%(field)s must be between %(low)d and %(high)d.") % {
            "field": key,
            "low": low,
            "high": high,
        }
        raise TournamentError(f"bad_{key}", message)
    return value


def _when(value: Any, key: str) -> datetime:
    if isinstance(value, datetime):
        return value if timezone.is_aware(value) else timezone.make_aware(value)
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise TournamentError(
            f"bad_{key}", _("%(field)s must be a date and time.") % {"field": key}
        ) from None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)


def create(organiser: AbstractBaseUser, data: dict[str, Any], now: datetime | None = None) -> Tournament:
    """A new tournament from the organiser's settings, every one checked; its rounds' salts are
    drawn and committed to now."""
    now = now or timezone.now()
    if not can_organise(organiser):
        raise TournamentError("not_organiser", _("Only organisers may create tournaments."))
    name = str(data.get("name", "")).strip()
    if not 1 <= len(name) <= 80:
        raise TournamentError("bad_name", _("Give the tournament a name of at most 80 characters."))
    variant = data.get("variant")
    if variant not in VARIANT_IDS:
        raise TournamentError("unknown_variant", _("Choose one of the rule sets."))
    try:
        options = validate_options(variant, data.get("options"))
        base = validate_stake(variant, data.get("base", 2 if get_ruleset(variant).even_stake else 1))
    except ServiceError as e:
        raise TournamentError(e.code, e.message) from None
    numbers = {key: _whole(data, key, default) for key, default in _DEFAULTS.items()}
    seating = data.get("seating", Tournament.Seating.SWISS)
    if seating not in Tournament.Seating.values:
        raise TournamentError("bad_seating", _("Seating is random or Swiss."))
    starts_at = _when(data.get("starts_at"), "starts_at")
    opens = _when(data.get("signup_opens", now), "signup_opens")
    closes = _when(data.get("signup_closes", starts_at), "signup_closes")
    if starts_at <= now:
        raise TournamentError("bad_starts_at", _("The start must be in the future."))
    if not opens < closes <= starts_at:
        raise TournamentError("bad_signup", _("Sign-up must open before it closes, and close by the start."))
    flags = {key: data.get(key, default) for key, default in (("duplicate", False), ("public", True))}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise TournamentError(f"bad_{key}", _("%(field)s must be true or false.") % {"field": key})
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            description=str(data.get("description", ""))[:2000],
            organiser=organiser,
            variant=variant,
            options=options,
            base=base,
            seating=seating,
            starts_at=starts_at,
            signup_opens=opens,
            signup_closes=closes,
            **numbers,
            **flags,
        )
        for number in range(1, tournament.rounds + 1):
            salt = deals.new_round_salt()
            TournamentRound.objects.create(
                tournament=tournament, number=number, salt=salt, commitment=deals.round_commitment(salt)
            )
        _audit(organiser, "tournament_create", tournament)
    return tournament


_DEFAULTS = {
    "rounds": 2,
    "hands_per_round": 4,
    "wind_rounds": 0,
    "max_players": 16,
    "checkin_minutes": 30,
    "grace_seconds": 120,
}


def _audit(user: AbstractBaseUser, action: str, obj: Any, **details: Any) -> None:
    AdminAuditLog.objects.create(
        user=user,
        action=action,
        model=obj._meta.label,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        details=details,
    )


# --- players ----------------------------------------------------------------------------------


def _locked(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def sign_up(tournament_id: int, user: AbstractBaseUser, now: datetime | None = None) -> TournamentPlayer:
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)  # sign-ups one after another: the count holds
        if tournament.status != Tournament.Status.SCHEDULED or not (
            tournament.signup_opens <= now < tournament.signup_closes
        ):
            raise TournamentError("signup_closed", _("Sign-up for this tournament is not open."))
        if TournamentPlayer.objects.filter(tournament=tournament, user_id=user.pk).exists():
            raise TournamentError("already_signed_up", _("You are already signed up."))
        if TournamentPlayer.objects.filter(tournament=tournament).count() >= tournament.max_players:
            raise TournamentError("tournament_full", _("The tournament is full."))
        return TournamentPlayer.objects.create(tournament=tournament, user_id=user.pk)


def checkin_opens(tournament: Tournament) -> datetime:
    return tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)


def check_in(tournament_id: int, user: AbstractBaseUser, now: datetime | None = None) -> TournamentPlayer:
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        player = TournamentPlayer.objects.filter(tournament=tournament, user_id=user.pk).first()
        if player is None:
            raise TournamentError("not_signed_up", _("Sign up first."))
        if player.checked_in is not None:
            raise TournamentError("already_checked_in", _("You are already checked in."))
        if tournament.status != Tournament.Status.SCHEDULED or now >= tournament.starts_at:
            raise TournamentError("checkin_closed", _("Check-in is over: the tournament has started."))
        if now < checkin_opens(tournament):
            raise TournamentError("checkin_not_open", _("Check-in has not opened yet."))
        player.checked_in = now
        player.save(update_fields=["checked_in"])
        return player


def withdraw(tournament_id: int, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            raise TournamentError("started", _("The tournament has started."))
        deleted, _rows = TournamentPlayer.objects.filter(tournament=tournament, user_id=user.pk).delete()
        if not deleted:
            raise TournamentError("not_signed_up", _("You are not signed up."))


# --- the clock --------------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> int:
    """The clock's pass (games.clock.tick): start the tournaments due, end finished rounds and
    start the next, and keep running tables seated. Returns how many things it did."""
    now = now or timezone.now()
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.SCHEDULED, starts_at__lte=now) | Q(status=Tournament.Status.RUNNING)
    ).values_list("pk", flat=True)
    done = 0
    for tournament_id in list(due):
        try:
            done += advance(tournament_id, now)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s: the clock's pass failed", tournament_id)
    return done


def advance(tournament_id: int, now: datetime) -> int:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        if tournament is None:  # another clock process has it now
            return 0
        if tournament.status == Tournament.Status.SCHEDULED:
            return start_round(tournament, 1, now)
        current = tournament.round_rows.get(number=tournament.current_round)
        tables = list(current.tables.all())
        if any(t.ended is None for t in tables):
            return keep_tables_seated(tournament, now)
        current.ended = now  # the round is over: its salt is revealed
        current.save(update_fields=["ended"])
        if tournament.current_round >= tournament.rounds:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            return 1
        return start_round(tournament, tournament.current_round + 1, now)


def round_order(tournament: Tournament, number: int, people: list[int]) -> list[list[int | None]]:
    seats_per_table = get_ruleset(tournament.variant).players
    if tournament.seating == Tournament.Seating.SWISS and number > 1:
        order = [row.user_id for row in standings(tournament) if row.user_id in set(people)]
        return pairing.swiss_tables(order, seats_per_table)
    return pairing.random_tables(people, seats_per_table, random.SystemRandom())


def start_round(tournament: Tournament, number: int, now: datetime) -> int:
    """Seat the checked-in players (not disqualified) at new tables, bots in the short seats, and
    start every table's first hand — all in this transaction."""
    people = list(
        TournamentPlayer.objects.filter(
            tournament=tournament, checked_in__isnull=False, disqualified__isnull=True
        ).values_list("user_id", flat=True)
    )
    round_row = tournament.round_rows.get(number=number)
    tournament.status = Tournament.Status.RUNNING
    tournament.current_round = number
    tournament.save(update_fields=["status", "current_round"])
    round_row.started = now
    round_row.save(update_fields=["started"])
    if not people:  # nobody checked in: the event is over before it began
        round_row.ended = now
        round_row.save(update_fields=["ended"])
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return 1
    for index, players in enumerate(round_order(tournament, number, people)):
        _open_table(tournament, round_row, index, players, now)
    return 1


def _open_table(
    tournament: Tournament, round_row: TournamentRound, index: int, players: list[int | None], now: datetime
) -> Table:
    table = store.create(
        variant=tournament.variant,
        owner=tournament.organiser,
        public=tournament.public,
        options=tournament.options,
        grace_seconds=tournament.grace_seconds,
        base=tournament.base,
        stake_state=Table.Stake.FIXED,
        **TABLE_TIMERS,
    )
    TournamentTable.objects.create(round=round_row, table=table, number=index, players=players)
    with change(table.pk, now) as t:
        for seat, user_id in zip(t.seats, players, strict=True):
            if user_id is None:
                seats.to_bot(t, seat)
            else:
                seats.seat_person(t, seat, user_id)
        begin_hand(t)
    return table


# --- the organiser's actions ------------------------------------------------------------------


def _organised(tournament_id: int, user: AbstractBaseUser) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not can_organise(user, tournament):
        raise TournamentError("not_organiser", _("Only the tournament's organisers may do that."))
    return tournament


def _event_table(tournament: Tournament, table_id: int) -> TournamentTable:
    tt = TournamentTable.objects.filter(round__tournament=tournament, table_id=table_id).first()
    if tt is None:
        raise TournamentError("no_such_table", _("That table is not one of this tournament's."))
    if tt.ended is not None:
        raise TournamentError("table_ended", _("The round is over at that table."))
    return tt


def pause_table(
    tournament_id: int, user: AbstractBaseUser, table_id: int, now: datetime | None = None
) -> None:
    """Hold the table: the hand in play stops (nobody's timer runs, the server plays nobody) and no
    next hand starts until it is resumed."""
    tournament = _organised(tournament_id, user)
    with change(table_id, now) as t:
        tt = _event_table(tournament, table_id)
        if tt.paused:
            raise TournamentError("paused", _("The table is already paused."))
        TournamentTable.objects.filter(pk=tt.pk).update(paused=True)
        t.table.__dict__.pop("_tournament_table", None)  # asked again: now paused
        if t.hand_running:
            t.table.pause_until = t.table.act_since = t.now + PAUSED_FOR
            t.new_decision(pause=True)
        _audit(user, "tournament_pause_table", tournament, table=table_id)


PAUSED_FOR = timedelta(days=7)  # the pause after a discard, stretched: every check already honours it


def resume_table(
    tournament_id: int, user: AbstractBaseUser, table_id: int, now: datetime | None = None
) -> None:
    tournament = _organised(tournament_id, user)
    with change(table_id, now) as t:
        tt = _event_table(tournament, table_id)
        if not tt.paused:
            raise TournamentError("not_paused", _("The table is not paused."))
        TournamentTable.objects.filter(pk=tt.pk).update(paused=False)
        t.table.__dict__.pop("_tournament_table", None)
        if t.hand_running:
            t.table.pause_until = t.table.act_since = t.now
            t.new_decision()
        elif ready_to_start(t) is None and t.hand is not None:
            begin_hand(t)
        _audit(user, "tournament_resume_table", tournament, table=table_id)


def end_table(tournament_id: int, user: AbstractBaseUser, table_id: int, now: datetime | None = None) -> None:
    """End the round at this table now: a hand in play is settled as drawn (as an admin's close)."""
    from games.moderation import _settle_as_drawn

    tournament = _organised(tournament_id, user)
    with change(table_id, now) as t:
        tt = _event_table(tournament, table_id)
        if t.hand_running:
            t.table.pause_until = None
            _settle_as_drawn(t)  # its end (hooks.after_hand) may already close the table
        tt.refresh_from_db()
        if tt.ended is None:
            hooks.end_table(t, tt)
        _audit(user, "tournament_end_table", tournament, table=table_id)


def disqualify(
    tournament_id: int, user: AbstractBaseUser, username: str, reason: str = "", now: datetime | None = None
) -> None:
    """The player takes no further part: a bot plays their seat from the end of the hand in play
    (no escape: the organiser removed them), and they are seated in no later round."""
    now = now or timezone.now()
    tournament = _organised(tournament_id, user)
    with transaction.atomic():
        player = (
            TournamentPlayer.objects.select_for_update()
            .filter(tournament=tournament, user__username=username)
            .first()
        )
        if player is None:
            raise TournamentError("not_a_player", _("No such player in this tournament."))
        if player.disqualified is not None:
            raise TournamentError("already_disqualified", _("That player is already disqualified."))
        player.disqualified = now
        player.disqualified_reason = reason[:200]
        player.save(update_fields=["disqualified", "disqualified_reason"])
        running = TournamentTable.objects.filter(
            round__tournament=tournament, ended__isnull=True, table__seats__user_id=player.user_id
        ).values_list("table_id", flat=True)
        for table_id in list(running):
            with change(table_id, now) as t:
                seat = t.seat_of(player.user)
                if seat is None:
                    continue
                t.table.notices[str(player.user_id)] = DISQUALIFIED
                if t.hand_running:
                    seat.left = True  # a bot finishes the hand; the seat is a bot's after it
                    seat.pending = seat.pending_until = None
                else:
                    tt = hooks.tournament_table(t.table)
                    assert tt is not None
                    hooks.keep_seated(t, tt)
        _audit(user, "tournament_disqualify", tournament, player=username, reason=reason[:200])


DISQUALIFIED = gettext_noop("The organiser disqualified you from this tournament.")


def keep_tables_seated(tournament: Tournament, now: datetime) -> int:
    """A seat freed between hands (a player gone past the grace) is filled again and the hand
    started: a tournament table never waits for somebody who is not coming."""
    fixed = 0
    rows = TournamentTable.objects.filter(round__tournament=tournament, ended__isnull=True, paused=False)
    empty = rows.filter(table__seats__user__isnull=True, table__seats__is_bot=False).values_list(
        "table_id", flat=True
    )
    for table_id in set(empty):
        with change(table_id, now) as t:
            tt = hooks.tournament_table(t.table)
            if tt is None or t.hand_running or not hooks.keep_seated(t, tt):
                continue
            if ready_to_start(t) is None:
                begin_hand(t)
            fixed += 1
    return fixed
