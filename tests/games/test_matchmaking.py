"""Quick match (games.matchmaking.queue): grouping, joining, bot fill, stale entries, escapes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.history.models import Rating
from games.matchmaking import queue
from games.matchmaking.models import QueueEntry, QuickMatch
from games.matchmaking.rules import Candidate, QueueError, choose_group, level_base
from games.matchmaking.seating import sweep
from games.models import Hand, Seat, Table
from games.moderation.models import Ban, Penalty
from games.moderation.penalties import ban_user
from games.table import commands, timers
from tests.conftest import make_user
from tests.games.conftest import bot_table, hand_over, play_to_end


def now() -> datetime:
    return timezone.now()


def candidate(n: int, rating: float = 0.0, waited: float = 0.0, bots_after: float | None = None) -> Candidate:
    start = now() - timedelta(seconds=waited)
    bots_at = None if bots_after is None else start + timedelta(seconds=bots_after)
    return Candidate(n, rating, start, bots_at)


# --- choose_group (pure) ----------------------------------------------------------------------


def test_four_unranked_players_make_a_table_in_queue_order() -> None:
    people = [candidate(i, rating=i * 10.0, waited=10 - i) for i in range(5)]
    group, bots = choose_group(people, 4, ranked=False, now=now())
    assert [c.id for c in group] == [0, 1, 2, 3] and bots == 0


def test_too_few_players_wait_until_the_bot_wait_runs_out() -> None:
    t = now()
    people = [candidate(1, waited=10, bots_after=30), candidate(2, waited=5, bots_after=None)]
    assert choose_group(people, 4, ranked=False, now=t) is None
    later = t + timedelta(seconds=21)
    group, bots = choose_group(people, 4, ranked=False, now=later)
    # player 2 chose to wait for people only: not pulled into a table with bots
    assert [c.id for c in group] == [1] and bots == 3


def test_ranked_players_far_apart_are_not_matched_until_their_window_widens(settings: Any) -> None:
    settings.RANKED_MAX_GAP = 40  # (the widening itself; its cap: tests/security/test_ranked_boosting.py)
    t = now()
    people = [candidate(1, rating=0.0), candidate(2, rating=20.0)]
    assert choose_group(people, 2, ranked=True, now=t) is None
    assert choose_group(people, 2, ranked=False, now=t) is not None
    # 20 points apart: allowed once 3 + 0.5 × waited ≥ 20, i.e. after 34 s
    assert choose_group(people, 2, ranked=True, now=t + timedelta(seconds=30)) is None
    group, bots = choose_group(people, 2, ranked=True, now=t + timedelta(seconds=35))
    assert {c.id for c in group} == {1, 2} and bots == 0


def test_ranked_prefers_the_closest_ratings() -> None:
    t = now()
    people = [candidate(1, 10.0, waited=1), candidate(2, 30.0), candidate(3, 11.0), candidate(4, 9.0)]
    people += [candidate(5, 12.0)]
    group, _bots = choose_group(people, 4, ranked=True, now=t)
    assert {c.id for c in group} == {1, 3, 4, 5}


# --- joining ----------------------------------------------------------------------------------


@pytest.fixture
def four(db: None) -> list[User]:
    return [make_user(name) for name in ("east", "south", "west", "north")]


def test_four_players_are_seated_together_and_the_hand_starts(four: list[User]) -> None:
    positions = [queue.join(u, "shanghai", "silver") for u in four]
    assert positions[:3] == [1, 2, 3]
    table = Table.objects.get()
    assert table.public and table.base == 5 and table.stake_state == Table.Stake.FIXED
    assert table.status == Table.Status.PLAYING and table.hand is not None
    assert [s.user_id for s in table.seats.order_by("index")] == [u.pk for u in four]
    quick = QuickMatch.objects.get(table=table)
    assert quick.hands == 4 and quick.bots == 0 and not quick.ranked and quick.match_id == table.match_id
    for user in four:
        assert queue.poll(user) == {"table": table.pk, "ws": f"/ws/tables/{table.pk}/"}


def test_two_player_needs_two_and_yihua_levels_are_even(four: list[User]) -> None:
    queue.join(four[0], "two_player", "bronze")
    queue.join(four[1], "two_player", "bronze")
    assert Table.objects.get().variant == "two_player"
    assert level_base("yihua", "silver") == ("silver", 6)
    assert level_base("shanghai", 7) == ("7", 7)


def test_different_levels_and_ranked_queues_do_not_mix(four: list[User]) -> None:
    queue.join(four[0], "shanghai", "bronze")
    queue.join(four[1], "shanghai", "silver")
    queue.join(four[2], "shanghai", "bronze", ranked=True)
    queue.join(four[3], "tianjin", "bronze")
    assert not Table.objects.exists()
    status = queue.poll(four[0])
    assert status["queued"] and status["waiting"] == 1 and status["position"] == 1 and status["players"] == 4


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"variant": "riichi", "level": "bronze"}, "unknown_variant"),
        ({"variant": "shanghai", "level": "platinum"}, "bad_level"),
        ({"variant": "shanghai", "level": 0}, "bad_level"),
        ({"variant": "yihua", "level": 3}, "bad_level"),
        ({"variant": "shanghai", "level": True}, "bad_level"),
        ({"variant": "shanghai", "level": "bronze", "ranked": "yes"}, "bad_ranked"),
        ({"variant": "shanghai", "level": "bronze", "bot_wait": -1}, "bad_bot_wait"),
        ({"variant": "shanghai", "level": "bronze", "bot_wait": "30"}, "bad_bot_wait"),
    ],
)
def test_bad_input_is_refused_and_queues_nobody(alice: User, kwargs: dict, code: str) -> None:
    with pytest.raises(QueueError) as refused:
        queue.join(alice, **kwargs)
    assert refused.value.code == code
    assert not QueueEntry.objects.exists()


def test_joining_twice_is_refused(alice: User) -> None:
    queue.join(alice, "shanghai", "bronze")
    with pytest.raises(QueueError) as refused:
        queue.join(alice, "tianjin", "gold")
    assert refused.value.code == "already_queued" and refused.value.status == 409
    assert QueueEntry.objects.get().variant == "shanghai"


def test_a_seated_player_cannot_queue(alice: User) -> None:
    bot_table(alice)
    with pytest.raises(QueueError) as refused:
        queue.join(alice, "shanghai", "bronze")
    assert refused.value.code == "already_seated" and not QueueEntry.objects.exists()


def test_a_banned_player_cannot_queue(alice: User) -> None:
    ban_user(alice, 30, None, "flooding")
    with pytest.raises(QueueError) as refused:
        queue.join(alice, "shanghai", "bronze")
    assert refused.value.code == "banned" and refused.value.status == 403


def test_a_player_short_of_points_cannot_queue(alice: User) -> None:
    with pytest.raises(QueueError) as refused:
        queue.join(alice, "shanghai", 100)  # 50 × 100 = 5000 > the starting 1000
    assert refused.value.code == "insufficient_points" and not QueueEntry.objects.exists()


def test_a_player_banned_while_waiting_is_dropped_with_the_reason(four: list[User]) -> None:
    for user in four[:3]:
        queue.join(user, "shanghai", "bronze")
    ban_user(four[1], 30, None, "abuse")
    queue.join(four[3], "shanghai", "bronze")
    assert not Table.objects.exists()  # three eligible players only
    status = queue.poll(four[1])
    assert status["queued"] is False and "abuse" in status["dropped"]
    assert queue.poll(four[1]) == {"queued": False}


def test_leaving_the_queue(alice: User) -> None:
    queue.join(alice, "shanghai", "bronze")
    assert queue.leave(alice) is True
    assert queue.leave(alice) is False
    assert queue.poll(alice) == {"queued": False}


# --- bots, stale entries, the clock --------------------------------------------------------------


def test_bots_fill_the_open_seats_after_the_chosen_wait(four: list[User]) -> None:
    t = now()
    queue.join(four[0], "shanghai", "bronze", bot_wait=30, now=t)
    queue.join(four[1], "shanghai", "bronze", bot_wait=60, now=t + timedelta(seconds=5))
    for user in four[:2]:
        QueueEntry.objects.filter(user=user).update(seen=t + timedelta(seconds=25))
    assert sweep(t + timedelta(seconds=29)) == 0
    assert sweep(t + timedelta(seconds=30)) == 1
    table = Table.objects.get()
    seats = list(table.seats.order_by("index"))
    assert [s.user_id for s in seats[:2]] == [four[0].pk, four[1].pk]
    assert all(s.is_bot for s in seats[2:]) and table.hand is not None
    assert QuickMatch.objects.get().bots == 2


def test_quick_match_fills_with_the_bot_level_the_site_sets(alice: User, settings: Any) -> None:
    settings.QUICK_MATCH_BOT_LEVEL = "expert"
    t = now()
    queue.join(alice, "two_player", "bronze", bot_wait=15, now=t)
    QueueEntry.objects.update(seen=t + timedelta(seconds=14))
    assert sweep(t + timedelta(seconds=16)) == 1
    bot = Table.objects.get().seats.get(index=1)
    assert bot.is_bot and bot.bot_level == "expert"


def test_the_clock_tick_runs_the_bot_fill(alice: User) -> None:
    from games.clock.ticks import tick

    t = now()
    queue.join(alice, "two_player", "bronze", bot_wait=15, now=t)
    QueueEntry.objects.update(seen=t + timedelta(seconds=14))
    tick(t + timedelta(seconds=16))
    table = Table.objects.get()
    assert table.seats.get(index=1).is_bot and table.status == Table.Status.PLAYING


def test_keep_waiting_means_no_bots(alice: User) -> None:
    t = now()
    queue.join(alice, "shanghai", "bronze", bot_wait=0, now=t)
    QueueEntry.objects.update(seen=t + timedelta(seconds=600))
    assert sweep(t + timedelta(seconds=601)) == 0
    assert queue.poll(alice, t + timedelta(seconds=602))["bots_in"] is None


def test_a_player_whose_page_stopped_polling_is_dropped(four: list[User]) -> None:
    t = now()
    queue.join(four[0], "shanghai", "bronze", now=t)
    for user in four[1:3]:
        queue.join(user, "shanghai", "bronze", now=t + timedelta(seconds=15))
    # four[0] never polled again: at t+25 they are stale and not counted
    assert queue.poll(four[1], t + timedelta(seconds=25))["waiting"] == 2
    sweep(t + timedelta(seconds=25))
    assert not QueueEntry.objects.filter(user=four[0]).exists()
    queue.join(four[3], "shanghai", "bronze", now=t + timedelta(seconds=26))
    assert not Table.objects.exists()  # three live players, not four


def test_the_expected_wait_comes_from_recent_matches(four: list[User]) -> None:
    t = now()
    queue.join(four[0], "two_player", "bronze", now=t)
    queue.join(four[1], "two_player", "bronze", now=t + timedelta(seconds=10))
    assert QuickMatch.objects.get().waited == pytest.approx(5.0)
    queue.join(four[2], "two_player", "bronze", now=t + timedelta(seconds=20))
    assert queue.poll(four[2], t + timedelta(seconds=21))["expected_wait"] == 5


def test_ranked_queue_uses_the_variant_rating(four: list[User], settings: Any) -> None:
    settings.RANKED_MAX_GAP = 40  # a gap of 34 is bridged by waiting (below the default cap: never)
    Rating.objects.create(user=four[0], variant="two_player", mu=40.0, sigma=2.0)  # ordinal 34
    t = now()
    queue.join(four[0], "two_player", "bronze", ranked=True, bot_wait=0, now=t)
    queue.join(four[1], "two_player", "bronze", ranked=True, bot_wait=0, now=t)  # ordinal 0
    assert not Table.objects.exists()
    for user in four[:2]:
        queue.poll(user, t + timedelta(seconds=19))
    assert not Table.objects.exists()
    QueueEntry.objects.update(seen=t + timedelta(seconds=69))  # polled a second before
    assert queue.poll(four[1], t + timedelta(seconds=70)).get("table")  # window 3 + 35 ≥ 34
    assert QuickMatch.objects.get().ranked


# --- leaving a quick-match table ------------------------------------------------------------------


def _quick_two_player(users: list[User]) -> Table:
    queue.join(users[0], "two_player", "bronze")
    queue.join(users[1], "two_player", "bronze")
    return Table.objects.get()


def test_leaving_between_hands_of_a_quick_match_is_no_escape(four: list[User]) -> None:
    """Between hands nothing is at stake: no penalty, no ban (docs/operations.md "Stakes and escapes")."""
    table = _quick_two_player(four)
    play_to_end(table.pk)
    assert hand_over(Table.objects.get(pk=table.pk))
    commands.leave(table.pk, four[0])
    assert not Penalty.objects.filter(user=four[0]).exists()
    assert not Ban.objects.filter(user=four[0]).exists()
    queue.join(four[0], "shanghai", "bronze")  # not banned


def test_leaving_after_the_quick_match_hands_is_free(four: list[User]) -> None:
    table = _quick_two_player(four)
    QuickMatch.objects.update(hands=1)  # the match is one hand long
    play_to_end(table.pk)
    commands.leave(table.pk, four[0])
    assert not Penalty.objects.filter(user=four[0]).exists()


def test_leaving_an_ordinary_table_between_hands_stays_free(alice: User, bob: User) -> None:
    from tests.games.conftest import two_seated

    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    commands.leave(table.pk, alice)
    assert not Penalty.objects.exists()


def test_standing_up_undecided_at_a_quick_match_is_no_escape(four: list[User]) -> None:
    table = _quick_two_player(four)
    ended_at = play_to_end(table.pk)
    hand = Hand.objects.get(table=table)
    commands.continue_play(table.pk, four[1])
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, ended_at + timedelta(seconds=61))
    assert not Seat.objects.filter(table=table, user=four[0]).exists()
    assert not Penalty.objects.filter(user=four[0], hand=hand).exists()
    assert not Ban.objects.filter(user=four[0]).exists()
