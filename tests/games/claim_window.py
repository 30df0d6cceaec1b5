"""A rigged Shanghai hand for claim-window tests: four people, seat 0 deals and moves first.

With seed 6 and seat 0 dealing, seat 0's discard of 4s opens a claim window for two seats
(seat 1 may chi, seat 3 may pong) while its discard of 1p opens none: the same table, with and
without a claim to make, for the privacy and stale-version checks.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Table
from tests.conftest import make_user

SEED = 6
CLAIMED = {"type": "discard", "tile": "4s"}  # seat 1 may chi, seat 3 may pong
UNCLAIMED = {"type": "discard", "tile": "1p"}  # nobody may claim
CHI = {"type": "chi", "tile": "4s", "tiles": "456s"}
PONG = {"type": "pong", "tile": "4s"}
PASS = {"type": "pass"}
CLAIMANTS = (1, 3)


def four_people(prefix: str) -> list[User]:
    return [make_user(f"{prefix}{i}") for i in range(4)]


def rigged_table(
    people: list[User], monkeypatch: pytest.MonkeyPatch, connect: bool = True, min_pause_ms: int = 1000
) -> Table:
    """A started Shanghai hand dealt from SEED with seat 0 (people[0]) as dealer, its turn."""
    monkeypatch.setattr(services.secrets, "randbits", lambda _bits: SEED)
    monkeypatch.setattr(services.secrets, "randbelow", lambda _n: 0)
    table = services.create_table(people[0], "shanghai", min_pause_ms=min_pause_ms)
    services.sit(table.pk, people[0], 0)
    services.set_stake(table.pk, people[0], 1)
    for index, user in enumerate(people[1:], start=1):
        services.sit(table.pk, user, index)
        services.accept_stake(table.pk, user)
    if connect:
        for user in people:
            services.connect(table.pk, user)
    services.start_hand(table.pk, people[0])
    return Table.objects.get(pk=table.pk)
