"""Standings, read from the tournament's finished hands (so they are current after every hand,
whichever process settled it). Points: the hands' payments between people (bots score for
nobody), or with duplicate deals each deal compared against its average across tables
(games.tournaments.duplicate). Ties: more hands won, then fewer deal-ins, then earlier sign-up
(docs/tournaments.md, "Standings")."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Hand
from games.tournaments import duplicate, pairing
from games.tournaments.models import Tournament, TournamentPlayer


@dataclass
class Row:
    user_id: int
    username: str
    signed_up: Any
    disqualified: bool
    points: Fraction = Fraction(0)
    raw: int = 0  # payments between people, as played
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    by_round: dict[int, Fraction] = field(default_factory=dict)
    place: int = 0

    def sort_key(self) -> tuple[Any, ...]:
        return (self.disqualified, -self.points, -self.wins, self.deal_ins, self.signed_up, self.user_id)

    def as_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.username,
            "points": round(float(self.points), 2),
            "raw_points": self.raw,
            "hands": self.hands,
            "wins": self.wins,
            "deal_ins": self.deal_ins,
            "rounds": {str(k): round(float(v), 2) for k, v in sorted(self.by_round.items())},
            "disqualified": self.disqualified,
        }


def finished_hands(tournament: Tournament) -> list[Hand]:
    rows = Hand.objects.filter(table__tournament_table__round__tournament=tournament, status=Hand.Status.OVER)
    return list(rows.select_related("match", "table__tournament_table__round").order_by("table_id", "pk"))


def deal_scores(hands: list[Hand]) -> list[tuple[Hand, int, duplicate.DealScore]]:
    """Every seat of every finished hand as a deal score: (hand, seat, score)."""
    out = []
    deal_at: dict[int, int] = defaultdict(int)
    for hand in hands:
        deal_at[hand.table_id] += 1
        settlement = hand.settlement or {}
        payments = settlement.get("payments") or []
        practice = settlement.get("practice") or [0] * len(payments)
        players = hand.match.players or []
        number = hand.table.tournament_table.round.number
        for seat, paid in enumerate(payments):
            notional = paid + (practice[seat] if seat < len(practice) else 0)
            where = pairing.position(seat, hand.dealer, len(payments))
            player = players[seat] if seat < len(players) else None
            out.append(
                (hand, seat, duplicate.DealScore(number, deal_at[hand.table_id], where, player, notional))
            )
    return out


def standings(tournament: Tournament) -> list[Row]:
    names = dict(get_user_model().objects.values_list("pk", "username").filter(pk__in=_entrants(tournament)))
    rows: dict[int, Row] = {}
    for p in TournamentPlayer.objects.filter(tournament=tournament):
        if p.checked_in is None and tournament.status == Tournament.Status.SCHEDULED:
            pass  # before the start everybody signed up is listed
        elif p.checked_in is None:
            continue  # never checked in: not in the event
        rows[p.user_id] = Row(p.user_id, names.get(p.user_id, "?"), p.signed_up, p.disqualified is not None)
    scores = deal_scores(finished_hands(tournament))
    compared = (
        dict((id(s), diff) for s, diff in duplicate.compared([s for _, _, s in scores]))
        if tournament.duplicate
        else {}
    )
    for hand, seat, score in scores:
        row = rows.get(score.player) if score.player is not None else None
        if row is None:
            continue
        paid = (hand.settlement or {}).get("payments", [0])[seat]
        result = hand.result or {}
        row.hands += 1
        row.raw += paid
        row.wins += seat in (result.get("winners") or [])
        row.deal_ins += result.get("by") == "discard" and result.get("from") == seat
        gained = compared[id(score)] if tournament.duplicate else Fraction(paid)
        row.points += gained
        row.by_round[score.round] = row.by_round.get(score.round, Fraction(0)) + gained
    ordered = sorted(rows.values(), key=Row.sort_key)
    for place, row in enumerate(ordered, start=1):
        row.place = place
    return ordered


def _entrants(tournament: Tournament) -> list[int]:
    return list(TournamentPlayer.objects.filter(tournament=tournament).values_list("user_id", flat=True))
