"""A tournament's players and its clock: signing up, checking in, and the rounds the clock
starts and ends (creating: games.tournaments.creating; the organiser's actions:
games.tournaments.organising). Each refuses bad input with a `TournamentError` before writing
anything.

Across processes: the clock's `sweep` takes each due tournament's row with `SELECT … FOR UPDATE
SKIP LOCKED` and decides from what the database holds (the round's tables, their `ended`), so
any number of clock processes may run it, and a process killed mid-round leaves nothing half
done: a round's tables are seated in the transaction that starts the round."""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.rulesets import get_ruleset
from games.models import Table
from games.table import store
from games.table.changes import change
from games.table.play import begin_hand, ready_to_start
from games.tournaments import hooks, pairing, seats
from games.tournaments.access import TournamentError, may_enter
from games.tournaments.models import Tournament, TournamentPlayer, TournamentRound, TournamentTable
from games.tournaments.standings import standings

log = logging.getLogger(__name__)

# The timers of a tournament's tables (tests start a faster clock through these).
TABLE_TIMERS: dict[str, int] = {"turn_seconds": 20, "claim_seconds": 8, "min_pause_ms": 1000, "undo_ms": 1500}


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
        if not may_enter(user, tournament):
            raise TournamentError("club_only", _("Only the club's members may enter this tournament."))
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
        if not may_enter(user, tournament):  # signed up, then left or was removed from the club
            raise TournamentError("club_only", _("Only the club's members may enter this tournament."))
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
    """The clock's pass (games.clock.ticks.tick): start the tournaments due, end finished rounds and
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
        # a table closed from outside (an admin, or the clock giving a broken table up) is over too
        closed = current.tables.filter(ended__isnull=True, table__status=Table.Status.CLOSED)
        closed.update(ended=now)
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
