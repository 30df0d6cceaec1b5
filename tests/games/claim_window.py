"""A rigged Shanghai hand for claim-window tests: four people, seat 0 deals and moves first.

With seed 6 and seat 0 dealing, seat 0's discard of 4s opens a claim window for two seats
(seat 1 may chi, seat 3 may pong) while its discard of 1p opens none: the same table, with and
without a claim to make, for the privacy and stale-version checks.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.engine.scenario import scenario
from games.engine.state import Meld, evolve
from games.engine.tiles import parse
from games.models import Table
from games.table import commands, opening, play, presence
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
    monkeypatch.setattr(play.secrets, "randbits", lambda _bits: SEED)
    monkeypatch.setattr(play.secrets, "randbelow", lambda _n: 0)
    # no salt: the deal comes from the seed alone, as for hands dealt before commitments
    monkeypatch.setattr(play, "new_salt", lambda: None)
    table = opening.create_table(people[0], "shanghai", min_pause_ms=min_pause_ms)
    commands.sit(table.pk, people[0], 0)
    commands.set_stake(table.pk, people[0], 1)
    for index, user in enumerate(people[1:], start=1):
        commands.sit(table.pk, user, index)
        commands.accept_stake(table.pk, user)
    if connect:
        for user in people:
            presence.connect(table.pk, user)
    commands.start_hand(table.pk, people[0])
    return Table.objects.get(pk=table.pk)


# An added kong: seat 0 holds a pong of 5p (from seat 3) and the fourth 5p; seat 1 either waits
# on 5p (it may rob the kong, 抢杠) or does not. Seats 2 and 3 never can.
ADDED_KONG = {"type": "kong", "tile": "5p", "kind": "added"}
ROBBER = "2m3m4m6p7p8p3s3s3s5s5s4p6p"
NO_ROBBER = "2m3m4m6p7p8p3s3s3s5s5s5s6p"


def kong_hand(seat1: str) -> Any:
    """The hand state right after seat 0 (dealer) drew, its added kong legal."""
    state = scenario(
        "shanghai",
        ["1m1m1m2m3m4m5m6m7m8m9m9s9s", seat1, "1s2s3s4s6s7s8s1z1z2z2z3z3z", "4z4z5z5z6z6z7z7z1p1p2p2p3p"],
        draws="9m",
    )
    five = parse("5p")[0]
    concealed = bytearray(state.players[0].concealed)
    for tile in parse("1m1m1m"):
        concealed[tile] -= 1
    concealed[five] += 1
    dealer = evolve(state.players[0], concealed=bytes(concealed), melds=(Meld("pong", (five,) * 3, 3, five),))
    return evolve(state, players=(dealer, *state.players[1:]))


def kong_table(people: list[User], monkeypatch: pytest.MonkeyPatch, seat1: str) -> Table:
    """A started table dealt `kong_hand(seat1)` (the hand is kept in this process's state cache:
    nothing here replays it from its seed)."""
    monkeypatch.setattr(play, "new_hand", lambda *_args, **_kw: kong_hand(seat1))
    return rigged_table(people, monkeypatch)
