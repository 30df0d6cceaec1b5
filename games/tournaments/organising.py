"""The organiser's actions on a running tournament: pause, resume and end a table, disqualify a
player. Each one is audit-logged (games.moderation.models.AdminAuditLog) and refused with a
`TournamentError`, changing nothing, when it does not apply."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.moderation import live_tables
from games.table.changes import change
from games.table.play import begin_hand, ready_to_start
from games.tournaments import hooks
from games.tournaments.access import TournamentError, audit, can_organise
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable


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
        audit(user, "tournament_pause_table", tournament, table=table_id)


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
        audit(user, "tournament_resume_table", tournament, table=table_id)


def end_table(tournament_id: int, user: AbstractBaseUser, table_id: int, now: datetime | None = None) -> None:
    """End the round at this table now: a hand in play is settled as drawn, as an admin's close
    (games.moderation.live_tables); the hands played so far count."""
    now = now or timezone.now()
    tournament = _organised(tournament_id, user)
    with transaction.atomic():
        tt = _event_table(tournament, table_id)
        TournamentTable.objects.filter(pk=tt.pk).update(ended=now)  # first: the close plays no more
        live_tables.close_table(table_id)
        audit(user, "tournament_end_table", tournament, table=table_id)


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
        audit(user, "tournament_disqualify", tournament, player=username, reason=reason[:200])


DISQUALIFIED = gettext_noop("The organiser disqualified you from this tournament.")
