"""The end of a hand: settle with the balance floor, write the scores, carry dealer, wind and
counters to the next hand, free the seats of those who left or ran out of points."""

from __future__ import annotations

from django.utils import timezone

from accounts.services import balance_of, change_balance
from games.engine.rulesets import get_ruleset
from games.engine.rulesets.base import only_between
from games.engine.state import HandState
from games.engine.view import view_for
from games.models import EAST, Hand, Match, Penalty, ScoreEntry, Table
from games.penalties import record_false_wins
from games.ranks import record_hand_ranks
from games.ratings import record_hand_ratings
from games.table.seating import INSUFFICIENT_POINTS, after_seat_change, free_seat
from games.table.store import Change

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
    balances = [balance_of(s.user) if s.user_id else BOT_BALANCE for s in t.seats]
    # What the hand pays as played, and the part between people that moves real points (issue 23:
    # a bot has no account; a payment to or from one is practice, shown but never applied).
    notional = rules.settle(result, balances, discarder)
    final = notional if all(humans) else rules.settle(only_between(result, humans), balances, discarder)
    practice = [n - f for n, f in zip(notional, final, strict=True)]
    after: list[int | None] = []
    for seat, delta in zip(t.seats, final, strict=True):
        if seat.user_id:
            applied = change_balance(seat.user, delta, "hand", hand)
            balance = balance_of(seat.user)
            ScoreEntry.objects.create(
                hand=hand, seat=seat.index, user=seat.user, delta=applied, balance_after=balance
            )
            after.append(balance)
        else:
            ScoreEntry.objects.create(hand=hand, seat=seat.index, delta=0)  # a bot holds no points
            after.append(None)
    record_false_wins(hand, state, [s.user if s.user_id else None for s in t.seats])
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
            for p in Penalty.objects.filter(hand=hand)
        ],
        "hands": [s.get("hand", []) for s in public["seats"]],
        # who played each seat: an escaped player's seat is freed just below, and the settlement
        # still names who paid (None: a bot, named in the viewer's language when shown)
        "names": [s.user.get_username() if s.user_id else None for s in t.seats],
        # which seats bots played: a table closed or left since still names them ("Bot 2")
        "bots": [bool(s.is_bot) for s in t.seats],
    }
    rank_changes = record_hand_ranks(hand, table.variant)  # ranked quick matches only (issue 18)
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
        elif seat.user_id and balance_of(seat.user) < table.minimum_balance:
            table.notices[str(seat.user_id)] = INSUFFICIENT_POINTS
            free_seat(t, seat)
        else:
            seat.continue_choice = True if seat.is_bot else None
    if any(s.empty for s in t.seats):
        after_seat_change(t)


def _seat_index(t: Change, user_id: int) -> int | None:
    return next((s.index for s in t.seats if s.user_id == user_id), None)


def _carry(table: Table, hand: Hand, state: HandState) -> None:
    """Next dealer from the result; the round wind moves on when the deal has gone round."""
    assert state.result is not None
    rules = get_ruleset(table.variant)
    next_dealer = state.result.next_dealer
    first = Hand.objects.filter(match=hand.match).order_by("number").values_list("dealer", flat=True).first()
    if next_dealer != table.dealer and next_dealer == first:
        rounds_done = table.round_wind - EAST + 1
        limit = rules.match_rounds(table.options or {})
        if limit is not None and rounds_done >= limit:
            # the match's wind rounds are played (cantonese §4.1): the next hand opens a new match
            ended = hand.ended or timezone.now()
            Match.objects.filter(pk=hand.match_id, ended__isnull=True).update(ended=ended)
        table.round_wind = EAST + rounds_done % 4
    table.dealer = next_dealer
    table.counters = rules.carry_counters(state, state.result)
