"""The end of a hand: settle with the balance floor (and what running hands elsewhere hold), pay
the escape penalties into it, write the scores, carry dealer, wind and
counters to the next hand, free the seats of those who left or ran out of points."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts.services import balance_of, change_balance
from games.engine import match
from games.engine.rulesets import get_ruleset
from games.engine.rulesets.base import only_between
from games.engine.state import HandState
from games.engine.view import view_for
from games.history.ranks import record_hand_ranks
from games.history.ratings import record_hand_ratings
from games.models import Hand, Match, ScoreEntry, Table
from games.moderation.models import Penalty
from games.moderation.penalties import record_false_wins, settle_escapes
from games.table import holds
from games.table.seating import INSUFFICIENT_POINTS, after_seat_change, free_seat
from games.table.store import Change
from games.tournaments import hooks as tournament_hooks

BOT_BALANCE = 10**9  # bots have no account; a large notional balance for the balance floor


def finish_hand(t: Change) -> None:
    """Settle with the balance floor, write scores, carry dealer/wind/counters, apply §1.6.
    The one place a hand is settled, scored and logged (an admin's close too)."""
    table, hand, state = t.table, t.hand, t.state
    assert hand is not None and state is not None and state.result is not None
    t.balances_changed()
    result = state.result
    rules = get_ruleset(table.variant)
    discarder = result.from_seat if result.by == "discard" else None
    humans = [s.user_id is not None for s in t.seats]
    # Points held by a player's running hands at other tables are not this hand's to take
    # (games.table.holds): the floor of §1.5 stops there.
    keep = [holds.held_elsewhere(s.user, table.pk) if s.user_id else 0 for s in t.seats]
    balances = [
        max(0, balance_of(s.user) - held) if s.user_id else BOT_BALANCE
        for s, held in zip(t.seats, keep, strict=True)
    ]
    virtual = tournament_hooks.virtual_stake(table)  # a tournament's points move no balance
    if virtual:
        balances = [BOT_BALANCE] * len(t.seats)
    # What the hand pays as played, and the part between people that moves real points (a
    # bot has no account; a payment to or from one is practice, shown but never applied).
    notional = rules.settle(result, balances, discarder)
    final = notional if all(humans) else rules.settle(only_between(result, humans), balances, discarder)
    practice = [n - f for n, f in zip(notional, final, strict=True)]
    applied = [
        change_balance(seat.user, delta, "hand", hand, keep=held) if seat.user_id and not virtual else 0
        for seat, delta, held in zip(t.seats, final, keep, strict=True)
    ]
    record_false_wins(hand, state, [s.user if s.user_id else None for s in t.seats])
    people = [s.user for s in t.seats if s.user_id]
    settle_escapes(table, hand, people, holds.most_a_hand_costs(table), _can_pay(table))
    after: list[int | None] = []
    for seat, delta in zip(t.seats, applied, strict=True):
        if seat.user_id:
            balance = balance_of(seat.user)  # after the hand and any escape penalty paid into it
            ScoreEntry.objects.create(
                hand=hand, seat=seat.index, user=seat.user, delta=delta, balance_after=balance
            )
            after.append(balance)
        else:
            ScoreEntry.objects.create(hand=hand, seat=seat.index, delta=0)  # a bot holds no points
            after.append(None)
    public = view_for(state, None)
    hand.status = Hand.Status.OVER
    hand.ended = t.now
    hand.result = public.get("result")
    hand.settlement = {
        "payments": list(final),
        "practice": practice,  # per seat: payments with a bot, not applied
        "balances": after,
        "penalties": [
            {"seat": _seat_index(t, p.user_id), "amount": p.amount, "reason": p.reason}
            # (an escape nothing could pay moved nothing: the ban stands, the list shows points)
            for p in Penalty.objects.filter(hand=hand).exclude(amount=0)
        ],
        "hands": [s.get("hand", []) for s in public["seats"]],
        # who played each seat: an escaped player's seat is freed just below, and the settlement
        # still names who paid (None: a bot, named in the viewer's language when shown)
        "names": [s.user.get_username() if s.user_id else None for s in t.seats],
        # which seats bots played: a table closed or left since still names them ("Bot 2")
        "bots": [bool(s.is_bot) for s in t.seats],
    }
    rank_changes = record_hand_ranks(hand, table.variant)  # ranked quick matches only
    if rank_changes:
        hand.settlement["ranks"] = rank_changes
        for change in rank_changes:
            t.seats[change["seat"]].rank = change["after"]
    hand.save()
    record_hand_ratings(hand)
    t.state = None
    table.pause_until = None
    table.act_since = None
    _carry(table, hand, state)
    for seat in t.seats:
        seat.pending = seat.pending_until = None
        if seat.left:  # the escaped player's seat is freed once the hand is over
            free_seat(t, seat)
        elif seat.user_id and not virtual and balance_of(seat.user) < table.minimum_balance:
            table.notices[str(seat.user_id)] = INSUFFICIENT_POINTS
            free_seat(t, seat)
        else:
            seat.continue_choice = True if seat.is_bot else None
    if any(s.empty for s in t.seats):
        after_seat_change(t)
    tournament_hooks.after_hand(t)  # a tournament table ends with its round, or plays on


def _can_pay(table: Table) -> Callable[[AbstractBaseUser], tuple[int, int]]:
    """What an escaper can pay after the hand's own result: (available, held elsewhere)."""

    def can_pay(user: AbstractBaseUser) -> tuple[int, int]:
        held = holds.held_elsewhere(user, table.pk)
        return max(0, balance_of(user) - held), held

    return can_pay


def _seat_index(t: Change, user_id: int) -> int | None:
    return next((s.index for s in t.seats if s.user_id == user_id), None)


def _carry(table: Table, hand: Hand, state: HandState) -> None:
    """Next dealer from the result; the round wind moves on when the deal has gone round, and a
    match of counted wind rounds (cantonese) ends when they are played (games.engine.match)."""
    assert state.result is not None
    rules = get_ruleset(table.variant)
    place, over = match.after_hand(
        table.variant, table.options or {}, _place(table, hand), state.result.next_dealer
    )
    if over:  # the next hand opens a new match, with a dealer drawn at random
        ended = hand.ended or timezone.now()
        Match.objects.filter(pk=hand.match_id, ended__isnull=True).update(ended=ended)
    table.round_wind = place.round_wind
    table.dealer = place.dealer
    table.counters = rules.carry_counters(state, state.result)


def _place(table: Table, hand: Hand) -> match.MatchPlace:
    """Where the match stood for `hand`: its wind, its dealer, and who dealt the match's first hand."""
    first = Hand.objects.filter(match=hand.match).order_by("number").values_list("dealer", flat=True).first()
    return match.MatchPlace(
        table.round_wind, table.dealer, hand.dealer if first is None else first, table.players
    )
