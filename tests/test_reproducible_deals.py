"""The test suite deals reproducibly (tests/conftest.py, `_reproducible_deals`): a hand's salt
comes from the test's name and a counter, so a failure that depends on the deal replays."""

from __future__ import annotations

import hashlib
import os

import pytest
from django.contrib.auth.models import User

from games.models import Table
from games.table import commands
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db


def _salt_of(table: Table) -> str:
    return Table.objects.get(pk=table.pk).hand.setup["salt"]


def test_each_hand_takes_the_next_salt_of_this_test(alice: User, request: pytest.FixtureRequest) -> None:
    salts = []
    for _ in range(2):
        table = bot_table(alice, "two_player", base=1)
        commands.start_hand(table.pk, alice)
        salts.append(_salt_of(table))
    expected = [hashlib.sha256(f"{request.node.nodeid}:{i}".encode()).hexdigest() for i in range(2)]
    assert salts[0] != salts[1]
    if os.environ.get("MAHJONG_TEST_RANDOM_DEALS"):
        assert not set(salts) & set(expected)  # dealt from the CSPRNG, as asked
    else:
        assert salts == expected
