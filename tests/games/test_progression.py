"""Table progression between hands through the ruleset: dealer, wind rounds, match length, counters."""

from __future__ import annotations

import pytest

from games import services
from games.engine.tiles import EAST
from games.models import Hand, Match, Table
from tests.games.conftest import bot_table, play_to_end

pytestmark = pytest.mark.django_db


def _play_hands_until(table: Table, owner, done, limit: int = 40) -> list[Hand]:
    services.set_auto(table.pk, owner, True)  # the server plays the owner's seat (托管)
    services.start_hand(table.pk, owner)
    now = None
    for _ in range(limit):
        now = play_to_end(table.pk, now)
        table.refresh_from_db()
        if done(table):
            break
        services.continue_play(table.pk, owner)
    return list(Hand.objects.filter(table=table).order_by("pk"))


def test_a_cantonese_match_of_one_wind_round_ends_when_the_deal_has_gone_round(alice):
    table = bot_table(alice, "cantonese", base=1)
    hands = _play_hands_until(
        table, alice, lambda t: Match.objects.filter(table=t, ended__isnull=False).exists()
    )
    ended = Match.objects.get(table=table, ended__isnull=False)
    played = [h for h in hands if h.match_id == ended.pk]
    # §4.1: the deal passes all four seats in one East round; then the match is over
    assert {h.round_wind for h in played} == {EAST}
    first = played[0].dealer
    assert [h.dealer for h in played][-1] == (first + 3) % 4
    services.continue_play(table.pk, alice)
    table.refresh_from_db()
    new_hand = Hand.objects.filter(table=table).order_by("-pk").first()
    assert new_hand.match_id != ended.pk and new_hand.round_wind == EAST


def test_the_shanghai_table_carries_its_counters_into_the_next_hand(alice):
    table = bot_table(alice, "shanghai", base=1)
    hands = _play_hands_until(table, alice, lambda t: Hand.objects.filter(table=t).count() >= 2)
    second = hands[1]
    assert "huangfan" in (second.setup.get("counters") or {})
