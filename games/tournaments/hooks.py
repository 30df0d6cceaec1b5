"""The few questions the table code asks about tournaments (games.table calls these, nothing
else): is this a tournament table (virtual stake, spectator delay), is it held (paused or its
round over), which deal comes next (duplicate and wind-round tables fix the dealer and, with
duplicate deals, the salt), and what follows a settled hand (the table ends when the round's
hands are played; a player gone is kept seated under 托管, a disqualified one replaced by a bot).

Every answer for an ordinary table is one indexed query that finds nothing."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_noop

from common.rows import RowSql
from games.models import Hand, Match, Table
from games.tournaments import deals, pairing
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable

ROUND_OVER = gettext_noop("The round is over at this table; the standings are on the tournament page.")
_MISSING = object()
_TOURNAMENT_ROWS = RowSql(TournamentTable)


def tournament_table(table: Table) -> TournamentTable | None:
    """The tournament row of this table (remembered on the row object for this change)."""
    found = getattr(table, "_tournament_table", _MISSING)
    if found is _MISSING:
        found = None
        # Most tables are no tournament's: the question is asked with a precompiled statement
        # first (the ORM's joined query cost a hand's start more CPU to build than to run).
        if _TOURNAMENT_ROWS.find("table_id", table.pk) is not None:
            tables = TournamentTable.objects.select_related("round__tournament")
            found = tables.filter(table_id=table.pk).first()
        table._tournament_table = found  # type: ignore[attr-defined]
    return found  # type: ignore[return-value]


def virtual_stake(table: Table) -> bool:
    """A tournament's stake is virtual: no account balance moves and no floor applies."""
    return tournament_table(table) is not None


def held(table: Table) -> bool:
    """No next hand: the organiser paused the table, or its round is over here."""
    tt = tournament_table(table)
    return tt is not None and (tt.paused or tt.ended is not None)


def planned_hands(tournament: Tournament, seats: int) -> int:
    return tournament.wind_rounds * seats if tournament.wind_rounds else tournament.hands_per_round


def fixes_deals(tournament: Tournament) -> bool:
    """Duplicate deals and wind rounds pass the dealer every deal (the same number of deals at
    every table); a plain hands-count round keeps the rules' own dealer."""
    return tournament.duplicate or tournament.wind_rounds > 0


@dataclass(frozen=True)
class Plan:
    dealer: int
    round_wind: int
    salt: str | None  # None: a fresh salt as for any hand


def planned_deal(table: Table) -> Plan | None:
    """The next hand's dealer, wind and salt when the tournament fixes them (else None)."""
    tt = tournament_table(table)
    if tt is None or not fixes_deals(tt.round.tournament):
        return None
    deal = Hand.objects.filter(table_id=table.pk).count() + 1
    seats = table.players
    salt = deals.deal_salt(tt.round.salt, deal) if tt.round.tournament.duplicate else None
    return Plan(pairing.rotated_dealer(deal, tt.number, seats), pairing.deal_wind(deal, seats), salt)


def after_hand(t: object) -> None:
    """At the end of `finish_hand` (a `games.table.store.Change`): end the table when the round's
    hands are played, else keep it ready for the next hand."""
    from games.table.store import Change  # (the table package imports this module)

    assert isinstance(t, Change)
    tt = tournament_table(t.table)
    if tt is None or tt.ended is not None:
        return
    played = Hand.objects.filter(table_id=t.table.pk, status=Hand.Status.OVER).count()
    if played >= planned_hands(tt.round.tournament, t.table.players):
        end_table(t, tt)
    else:
        keep_seated(t, tt)


def end_table(t: object, tt: TournamentTable) -> None:
    """The round is over here: the table closes (the seats keep their players, for the board)."""
    from games.table.store import Change

    assert isinstance(t, Change)
    table = t.table
    for seat in t.seats:
        if seat.user_id:
            table.notices[str(seat.user_id)] = ROUND_OVER
    if table.match_id:
        Match.objects.filter(pk=table.match_id, ended__isnull=True).update(ended=t.now)
    table.status = Table.Status.CLOSED
    table.deadline = None
    tt.ended = t.now
    TournamentTable.objects.filter(pk=tt.pk).update(ended=t.now)


def keep_seated(t: object, tt: TournamentTable) -> bool:
    """Between hands: everybody seated continues (a tournament does not wait for Continue); a
    player whose seat was freed (gone past the grace, or escaped) sits again under 托管, and a
    disqualified player's seat goes to a bot. True if a seat changed."""
    from games.table.store import Change
    from games.tournaments import seats

    assert isinstance(t, Change)
    if t.hand_running:
        return False
    out = set(
        TournamentPlayer.objects.filter(
            tournament_id=tt.round.tournament_id, disqualified__isnull=False
        ).values_list("user_id", flat=True)
    )
    changed = False
    for seat, planned in zip(t.seats, tt.players, strict=False):
        if seat.user_id is not None and seat.user_id in out:
            seats.to_bot(t, seat)
            changed = True
        elif seat.empty:
            if planned is None or planned in out:
                seats.to_bot(t, seat)
            else:
                seats.seat_person(t, seat, planned, auto=True)
            changed = True
        if not seat.empty:
            seat.accepted = True
            seat.continue_choice = True
    return changed
