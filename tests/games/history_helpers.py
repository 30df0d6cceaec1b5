"""Finished hands for the history, replay, rating and ledger tests (driven on a fake clock)."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.models import Hand, Table
from games.table import commands
from tests.games.conftest import bot_table, play_to_end


def finished_hand(owner: User, variant: str = "two_player", public: bool = True) -> Hand:
    """`owner` plays one hand against bots to the end."""
    table = bot_table(owner, variant, base=1)
    if not public:
        Table.objects.filter(pk=table.pk).update(public=False)
    commands.start_hand(table.pk, owner)
    play_to_end(table.pk)
    return Table.objects.get(pk=table.pk).hand


def won_hand(owner: User, variant: str = "two_player", public: bool = True) -> Hand:
    """A finished hand somebody won: the deal is random, and bots draw some hands out.

    Ten drawn hands in a row is about one chance in ten million at the bots' draw rate.
    """
    for _ in range(10):
        hand = finished_hand(owner, variant, public)
        if (hand.result or {}).get("winners"):
            return hand
    raise AssertionError("ten hands in a row were drawn")


def running_hand(owner: User, variant: str = "two_player") -> Hand:
    table = bot_table(owner, variant, base=1)
    commands.start_hand(table.pk, owner)
    return Table.objects.get(pk=table.pk).hand
