"""Who pays for leaving: only a player who leaves a hand in progress that has another person at
the table (RULES §1.8 as the site applies it, docs/operations.md "Stakes and escapes").

Never for a timed-out Continue, never at a table whose other seats are all bots, never between
hands (a quick match included), never the other player after someone escaped; and where a
penalty does apply, the board states its exact amount and the ban that would follow."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import LedgerEntry
from games.clock.ticks import drive_table_until_idle, tick
from games.matchmaking import queue
from games.matchmaking.models import QueueEntry
from games.models import ScoreEntry, Seat, Table
from games.moderation.models import Ban, Penalty
from games.rendering.presenters import table_context
from games.table import commands, opening, presence, timers
from tests.games.conftest import balance, bot_table, hand_over, play_to_end, two_seated

pytestmark = pytest.mark.django_db


def _no_penalty(user: User) -> bool:
    return not Penalty.objects.filter(user=user).exists() and not Ban.objects.filter(user=user).exists()


def _solo_quick_match(user: User) -> Table:
    """`user` alone in the two-player quick-match queue; a bot fills the other seat."""
    t = timezone.now()
    queue.join(user, "two_player", "bronze", bot_wait=15, now=t)
    QueueEntry.objects.update(seen=t + timedelta(seconds=14))
    tick(t + timedelta(seconds=16))
    return Table.objects.get()


def _quick_pair(a: User, b: User) -> Table:
    queue.join(a, "two_player", "bronze")
    queue.join(b, "two_player", "bronze")
    return Table.objects.get()


def stakes_shown(table: Table, user: User) -> dict | None:
    return table_context(table.pk, user)["table"]["escape_stakes"]


# --- no penalty ----------------------------------------------------------------------------------


def test_a_timed_out_continue_costs_nothing(alice: User, bob: User) -> None:
    table = _quick_pair(alice, bob)
    a0 = balance(alice)
    ended_at = play_to_end(table.pk)
    after_hand = balance(alice)
    commands.continue_play(table.pk, bob)
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, ended_at + timedelta(seconds=61))
    assert not Seat.objects.filter(table=table, user=alice).exists()  # stood up…
    assert balance(alice) == after_hand and _no_penalty(alice)  # …and nothing more
    assert after_hand - a0 == ScoreEntry.objects.get(user=alice).delta


def test_a_timed_out_continue_alone_with_bots_costs_nothing(alice: User) -> None:
    table = _solo_quick_match(alice)
    ended_at = play_to_end(table.pk)
    after_hand = balance(alice)
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, ended_at + timedelta(seconds=61))
    assert not Seat.objects.filter(table=table, user=alice).exists()
    assert balance(alice) == after_hand and _no_penalty(alice)


def test_leaving_mid_hand_when_every_other_seat_is_a_bot_costs_nothing(alice: User) -> None:
    table = bot_table(alice, "shanghai", base=2)
    commands.start_hand(table.pk, alice)
    assert stakes_shown(table, alice) is None  # nothing to warn about
    a0 = balance(alice)
    commands.leave(table.pk, alice)
    play_to_end(table.pk)
    assert _no_penalty(alice)
    assert not LedgerEntry.objects.filter(kind__in=["penalty", "penalty_share"]).exists()
    assert balance(alice) == a0  # payments with bots are practice: nothing moved


def test_leaving_between_hands_costs_nothing(alice: User, bob: User) -> None:
    table = _quick_pair(alice, bob)  # a quick match: leaving used to count as an escape here
    play_to_end(table.pk)
    after_hand = balance(alice)
    assert stakes_shown(table, alice) is None
    commands.leave(table.pk, alice)
    assert balance(alice) == after_hand and _no_penalty(alice)
    queue.join(alice, "two_player", "bronze")  # not banned


def test_a_disconnect_between_hands_costs_nothing(alice: User, bob: User) -> None:
    table = _quick_pair(alice, bob)
    for user in (alice, bob):
        presence.connect(table.pk, user)
    ended_at = play_to_end(table.pk)
    balances = balance(alice), balance(bob)
    for user in (alice, bob):
        presence.disconnect(table.pk, user)
    later = ended_at + timedelta(seconds=200)  # past the grace period and the Continue countdown
    drive_table_until_idle(table.pk, later, until=lambda t: not t.seats.filter(user__isnull=False).exists())
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    assert (balance(alice), balance(bob)) == balances
    assert _no_penalty(alice) and _no_penalty(bob)


def test_the_other_player_is_not_charged_after_an_escape(alice: User, bob: User) -> None:
    """Between hands: A leaves the quick match, B stands up from the broken table."""
    table = _quick_pair(alice, bob)
    play_to_end(table.pk)
    commands.leave(table.pk, alice)
    b0 = balance(bob)
    commands.leave(table.pk, bob)
    assert balance(bob) == b0 and _no_penalty(bob)


def test_the_other_player_leaving_after_an_escape_mid_hand_is_not_charged(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    commands.leave(table.pk, alice)  # the real escape
    assert stakes_shown(table, bob) is None  # nobody else is left to wrong
    commands.leave(table.pk, bob)
    play_to_end(table.pk)
    assert _no_penalty(bob)
    assert Penalty.objects.get(user=alice).amount == 100


# --- the real escape ----------------------------------------------------------------------------


def test_a_real_escape_is_charged_and_its_cost_is_shown_first(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    assert stakes_shown(table, alice) == {"amount": 100, "ban_minutes": 10}  # 50 × base; first escape
    a0, b0 = balance(alice), balance(bob)
    commands.leave(table.pk, alice)
    ban = Ban.objects.get(user=alice)  # at once: she may not sit down elsewhere meanwhile
    assert ban.ends - ban.starts == timedelta(minutes=10)
    play_to_end(table.pk)  # the penalty is paid into the hand's settlement
    hand = Table.objects.get(pk=table.pk).hand
    deltas = {e.user_id: e.delta for e in ScoreEntry.objects.filter(hand=hand, user__isnull=False)}
    assert balance(alice) == a0 + deltas[alice.pk] - 100
    assert balance(bob) == b0 + deltas[bob.pk] + 100
    assert {"seat": 0, "amount": 100, "reason": "escape"} in hand.settlement["penalties"]
    assert Penalty.objects.get(user=alice).amount == 100


def test_the_ban_shown_is_the_one_that_would_follow(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    earlier = Penalty.objects.create(user=alice, reason=Penalty.Reason.ESCAPE, amount=1)
    now = timezone.now()
    Ban.objects.create(
        user=alice, starts=now - timedelta(hours=2), ends=now - timedelta(hours=1), penalty=earlier
    )
    commands.start_hand(table.pk, bob)
    assert stakes_shown(table, alice) == {"amount": 100, "ban_minutes": 20}  # the second in 24 h


def test_a_disconnect_mid_hand_with_another_person_is_still_an_escape(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    presence.connect(table.pk, bob)
    presence.disconnect(table.pk, bob)
    later = timezone.now() + timedelta(seconds=121)
    drive_table_until_idle(
        table.pk, later, until=lambda t: Seat.objects.filter(table=t, left=True).exists() or hand_over(t)
    )
    if hand_over(Table.objects.get(pk=table.pk)):
        pytest.skip("the hand ended within the grace period")
    assert Penalty.objects.get(user=bob).reason == Penalty.Reason.DISCONNECT
    assert Ban.objects.filter(user=bob).exists()


# --- what the board and the lobby state ----------------------------------------------------------


def _escape_table(alice: User, bob: User) -> Table:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    return table


def test_the_cost_and_ban_stand_beside_the_countdown_and_in_the_confirm_in_both_languages(
    alice: User, bob: User
) -> None:
    from games.rendering.fragments import render_table_html

    context = table_context(_escape_table(alice, bob).pk, alice)
    english = render_table_html(context, "en")
    assert "Leaving this hand: −100 points and a 10-minute ban" in english  # beside the countdown
    assert "it costs you 100 points" in english and "for 10 minutes" in english  # the confirm
    chinese = render_table_html(context, "zh-hans")
    assert "离开本局：扣 100 积分，禁止入座 10 分钟" in chinese
    assert "将扣除您 100 积分" in chinese and "10 分钟内不能" in chinese


def test_leaving_a_bots_only_hand_is_confirmed_as_free(alice: User) -> None:
    from games.rendering.fragments import render_table_html

    table = bot_table(alice, "shanghai", base=2)
    commands.start_hand(table.pk, alice)
    html = render_table_html(table_context(table.pk, alice), "en")
    assert "leaving costs no penalty" in html and "Leaving this hand:" not in html


def test_the_continue_countdown_says_it_costs_nothing(alice: User, bob: User) -> None:
    from games.rendering.fragments import render_table_html

    table = _quick_pair(alice, bob)
    play_to_end(table.pk)
    html = render_table_html(table_context(table.pk, alice), "en")
    assert "Continue within" in html and "no penalty, no ban" in html
    assert "不扣分，不禁赛" in render_table_html(table_context(table.pk, alice), "zh-hans")


def test_a_joiner_sees_the_escape_multiplier_in_the_lobby_the_table_page_and_the_json(
    alice: User, bob: User, client: object
) -> None:
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import json_view

    table = opening.create_table(alice, "shanghai", options={"escape_penalty": 80})
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    lobby = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()  # type: ignore[attr-defined]
    assert "Escape penalty <strong>80 × base</strong>" in lobby
    context = table_context(table.pk, bob)  # not seated yet: a joiner
    assert json_view(context)["table"]["options"]["escape_penalty"] == 80
    assert context["table"]["escape_multiplier"] == 80
    assert "Escape penalty 逃跑: <strong>80 × base (160)</strong>" in render_table_html(context, "en")
    plain = opening.create_table(bob, "two_player")  # no house rule: the site's 13 applies
    assert table_context(plain.pk, None)["table"]["options"]["escape_penalty"] == 13
