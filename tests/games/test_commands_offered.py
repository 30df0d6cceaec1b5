"""games/table/commands.py: while a hand runs, `legal` asks only the table commands that may be
offered then (`Command.mid_hand`); every other command offers nothing mid-hand, to anybody."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import pytest

from games.models import Table
from games.table import commands
from games.table.commands import COMMANDS, OFFERED_MID_HAND, OFFERED_TO


def _seat(index: int, **flags: Any) -> SimpleNamespace:
    fields = {"empty": False, "is_bot": False, "accepted": False, "continue_choice": False}
    fields.update(auto=False, left=False, pending=None)
    fields.update(flags)
    return SimpleNamespace(index=index, **fields)


def _tables_mid_hand() -> list[SimpleNamespace]:
    """Tables whose hand runs, with every kind of seat and stake state around it."""
    out = []
    for in_settlement, stake_state in itertools.product((False, True), (Table.Stake.UNSET, "agreed")):
        seats = [_seat(0), _seat(1, empty=True), _seat(2, is_bot=True), _seat(3, left=True)]
        table = SimpleNamespace(variant="shanghai", base=1, stake_state=stake_state, owner_id=1)
        out.append(SimpleNamespace(hand_running=True, in_settlement=in_settlement, seats=seats, table=table))
    return out


VIEWERS = [
    None,
    _seat(0),
    _seat(0, auto=True),
    _seat(0, left=True),
    _seat(0, pending={"type": "pong"}),
    _seat(0, accepted=True, continue_choice=True),
]


@pytest.mark.parametrize("name", [name for name, c in COMMANDS.items() if not c.mid_hand])
def test_a_command_not_marked_mid_hand_offers_nothing_while_a_hand_runs(name: str) -> None:
    user = SimpleNamespace(pk=1, is_authenticated=True)
    for t, seat in itertools.product(_tables_mid_hand(), VIEWERS):
        assert COMMANDS[name].offer(t, user, seat) == [], (name, seat)  # type: ignore[arg-type]


def test_the_mid_hand_commands_are_offered_mid_hand() -> None:
    """auto, leave and undo are what a seated player may send besides its hand's moves."""
    user = SimpleNamespace(pk=1, is_authenticated=True)
    t = _tables_mid_hand()[0]
    offered = [
        entry
        for c in COMMANDS.values()
        if c.mid_hand
        for entry in c.offer(t, user, _seat(0, pending={"type": "pong"}))  # type: ignore[arg-type]
    ]
    assert [e["type"] for e in offered] == ["auto", "leave", "undo"]
    for allowed, listed in OFFERED_MID_HAND.items():
        assert listed == tuple(c for c in OFFERED_TO[allowed] if c.mid_hand)
    assert commands.OFFERED_MID_HAND is OFFERED_MID_HAND
