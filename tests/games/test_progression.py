"""Table progression between hands through the ruleset: dealer, wind rounds, match length, counters."""

from __future__ import annotations

import pytest

from games.engine.tiles import EAST, NORTH, SOUTH, WEST
from games.models import Hand, Match, Table
from games.table import commands
from tests.games.conftest import bot_table, play_to_end

pytestmark = pytest.mark.django_db


def _play_hands_until(table: Table, owner, done, limit: int = 40) -> list[Hand]:
    commands.set_auto(table.pk, owner, True)  # the server plays the owner's seat (托管)
    commands.start_hand(table.pk, owner)
    now = None
    for _ in range(limit):
        now = play_to_end(table.pk, now)
        table.refresh_from_db()
        if done(table):
            break
        commands.continue_play(table.pk, owner)
    return list(Hand.objects.filter(table=table).order_by("pk"))


def _match_over(table: Table) -> bool:
    return Match.objects.filter(table=table, ended__isnull=False).exists()


def test_a_one_round_cantonese_house_game_ends_when_the_deal_has_gone_round(alice):
    table = bot_table(alice, "cantonese", base=1)
    Table.objects.filter(pk=table.pk).update(options={"rounds": 1})
    table.refresh_from_db()
    hands = _play_hands_until(table, alice, _match_over)
    ended = Match.objects.get(table=table, ended__isnull=False)
    played = [h for h in hands if h.match_id == ended.pk]
    # §4.1 house option: the deal passes all four seats in one East round; then the match is over
    assert {h.round_wind for h in played} == {EAST}
    first = played[0].dealer
    assert [h.dealer for h in played][-1] == (first + 3) % 4
    commands.continue_play(table.pk, alice)
    table.refresh_from_db()
    new_hand = Hand.objects.filter(table=table).order_by("-pk").first()
    assert new_hand.match_id != ended.pk and new_hand.round_wind == EAST


def test_a_cantonese_match_plays_four_wind_rounds_with_one_random_dealer_draw(alice):
    table = bot_table(alice, "cantonese", base=1)
    hands = _play_hands_until(table, alice, _match_over, limit=200)
    match = Match.objects.get(table=table, ended__isnull=False)
    played = [h for h in hands if h.match_id == match.pk]
    assert len(played) == len(hands)  # one match: the dealer was drawn once, at its start
    winds = [h.round_wind for h in played]
    assert winds == sorted(winds) and set(winds) == {EAST, SOUTH, WEST, NORTH}
    first = played[0].dealer
    for before, after in zip(played, played[1:], strict=False):
        assert after.dealer in (before.dealer, (before.dealer + 1) % 4)  # the deal passes to 下家
        if after.round_wind != before.round_wind:  # a new wind round starts with the first dealer
            assert after.dealer == first and before.dealer == (first + 3) % 4
    assert [(h.dealer - first) % 4 + 1 for h in played] == [h.round_hand for h in played]
    assert played[0].round_hand == 1 and played[-1].round_hand == 4


def test_the_shanghai_table_carries_its_counters_into_the_next_hand(alice):
    table = bot_table(alice, "shanghai", base=1)
    hands = _play_hands_until(table, alice, lambda t: Hand.objects.filter(table=t).count() >= 2)
    second = hands[1]
    assert "huangfan" in (second.setup.get("counters") or {})
