"""Permission matrix: who × every table and hand action × every phase, through `games.table.commands.perform`.

`perform` is the one door every face uses (socket JSON, socket HTMX, bots through the API), so
the matrix runs on it directly. Actors: anonymous, another user (logged in, not seated), a
spectator who owns nothing (same rights, named separately because it watches the table), the
wrong seat (seated, not awaited) and the right seat (seated, awaited). Phases: waiting,
playing, hand_over. For every cell: the action goes through exactly when it is one of the
actor's `legal` entries (what the server offers is what it accepts), a refusal carries an
error code from the actor's expected set, and a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games.clock.ticks import drive_table_until_idle
from games.models import HandAction, Seat, Table
from games.table import commands, errors, opening, store
from games.table.commands import legal_for
from tests.conftest import make_user
from tests.games.conftest import hand_over

pytestmark = pytest.mark.django_db

TABLE_ACTIONS: list[dict[str, Any]] = [
    {"type": "sit", "seat": 3},
    {"type": "stand"},
    {"type": "add_bot", "seat": 3},
    {"type": "remove_bot", "seat": 2},
    {"type": "set_stake", "base": 4},
    {"type": "accept_stake"},
    {"type": "start"},
    {"type": "continue"},
    {"type": "leave"},
    {"type": "auto", "on": True},
    {"type": "undo"},
]
HAND_ACTIONS: list[dict[str, Any]] = [
    {"type": "discard", "tile": "1m"},
    {"type": "chi", "tile": "3m", "tiles": ["1m", "2m"]},
    {"type": "pong", "tile": "5p"},
    {"type": "kong", "tile": "5p", "kind": "exposed"},
    {"type": "win"},
    {"type": "pass"},
    {"type": "choose", "kind": "exchange", "value": 1},
]
OUTSIDER_CODES = {
    "bad_action",
    "login_required",
    "not_seated",
    "seat_taken",
    "hand_running",
    "no_hand_over",
    "not_a_bot",
    "no_hand",
    "not_your_stake",
    "stake_fixed",
    "not_ready",
    "bad_seat",
    "already_started",
}
SEATED_CODES = {
    "not_your_turn",
    "illegal_action",
    "no_hand",
    "hand_running",
    "already_seated",
    "seat_taken",
    "not_a_bot",
    "stake_fixed",
    "already_accepted",
    "no_hand_over",
    "nothing_to_undo",
    "already_continued",
    "not_ready",
    "already_started",
    "not_your_stake",
    "wrong_phase",
    "bad_action",
    "unknown_action",
    "not_awaited",
    "seats_empty",
    "hand_over",
    "bad_tile",
    "cannot_start",
    "stake_unset",
    "not_stake_chooser",
}


def snapshot(table_id: int) -> tuple[Any, ...]:
    table = Table.objects.get(pk=table_id)
    seats = tuple(
        Seat.objects.filter(table_id=table_id)
        .order_by("index")
        .values_list("user_id", "is_bot", "accepted", "continue_choice", "auto", "left", "pending")
    )
    actions = HandAction.objects.filter(hand__table_id=table_id).count()
    return table.version, table.status, table.base, table.stake_state, table.hand_id, seats, actions


@pytest.fixture
def people(db: None) -> dict[str, User]:
    return {name: make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")}


def waiting(people: dict[str, User]) -> int:
    """alice (owner, seat 0, set the stake), bob (seat 1, accepted), a bot in 2, seat 3 empty."""
    table = opening.create_table(people["alice"], "shanghai")
    commands.sit(table.pk, people["alice"], 0)
    commands.set_stake(table.pk, people["alice"], 2)
    commands.sit(table.pk, people["bob"], 1)
    commands.accept_stake(table.pk, people["bob"])
    commands.add_bot(table.pk, people["alice"], 2)
    return table.pk


def playing(people: dict[str, User]) -> int:
    table_id = waiting(people)
    commands.sit(table_id, people["carol"], 3)
    commands.accept_stake(table_id, people["carol"])
    commands.start_hand(table_id, people["alice"])
    return table_id


def over(people: dict[str, User]) -> int:
    table_id = playing(people)
    for name in ("alice", "bob", "carol"):
        commands.set_auto(table_id, people[name], True)
    drive_table_until_idle(table_id, until=hand_over)
    return table_id


PHASES = {"waiting": waiting, "playing": playing, "hand_over": over}


def actors(table_id: int, people: dict[str, User]) -> Iterator[tuple[str, Any]]:
    """(role, user) for every role; in `playing` the right seat is the one awaited."""
    yield "anonymous", AnonymousUser()
    yield "another_user", people["dave"]
    yield "spectator", people["erin"]
    ctx = store.load(Table.objects.get(pk=table_id))
    seated = [s.user for s in ctx.seats if s.user_id]
    hand_types = {a["type"] for a in HAND_ACTIONS}
    moving = [u for u in seated if any(a["type"] in hand_types for a in offered(table_id, u))]
    if moving:  # a hand is running: the right seat is the one awaited
        yield "right_seat", moving[0]
        yield "wrong_seat", next(u for u in seated if u not in moving)
    else:  # no hand running: every seated person is in the same position
        yield "right_seat", seated[0]
        yield "wrong_seat", seated[-1]


def offered(table_id: int, user: Any) -> list[dict[str, Any]]:
    return legal_for(store.load(Table.objects.get(pk=table_id)), user)


BETWEEN_HANDS_ALIASES = ({"type": "stand"}, {"type": "leave"})


def is_offered(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    seated = any(a["type"] in {"stand", "leave"} for a in legal)
    if action["type"] == "auto" and seated:
        # docs/protocol.md: a seated person may switch 托管 at any time; `legal` offers it only
        # mid-hand (reported: between hands it is accepted without being offered).
        return True
    if action["type"] == "set_stake":  # the client may choose the amount (docs/protocol.md)
        return any(a["type"] == "set_stake" for a in legal)
    if action in BETWEEN_HANDS_ALIASES:
        # docs/protocol.md: between hands both free the seat; `legal` lists one of them
        # (stand while waiting, leave after a hand). Mid-hand only leave (an escape) is offered.
        return any(a in legal for a in BETWEEN_HANDS_ALIASES) and (
            action["type"] == "leave" or {"type": "auto", "on": True} not in legal
        )
    return action in legal


def probes(table_id: int, people: dict[str, User]) -> list[dict[str, Any]]:
    """The generic actions plus every action any actor is offered here (so real moves are tried)."""
    out = TABLE_ACTIONS + HAND_ACTIONS
    for _role, user in actors(table_id, people):
        out += [a for a in offered(table_id, user) if a not in out]
    return out


def attempt(table_id: int, user: Any, action: dict[str, Any]) -> str | None:
    """Try one action in a rolled-back savepoint: None if it went through, else the error code."""
    version = Table.objects.get(pk=table_id).version
    with transaction.atomic():
        try:
            commands.perform(table_id, user, version, action)
        except errors.ServiceError as e:
            return e.code
        transaction.set_rollback(True)
    return None


@pytest.mark.parametrize("phase", list(PHASES))
def test_permission_matrix(people: dict[str, User], phase: str) -> None:
    table_id = PHASES[phase](people)
    cells = 0
    for role, user in actors(table_id, people):
        legal = offered(table_id, user) if user.is_authenticated else []
        for action in probes(table_id, people):
            before = snapshot(table_id)
            code = attempt(table_id, user, action)
            after = snapshot(table_id)
            where = f"{phase} / {role} / {action}"
            if code is None:
                assert is_offered(action, legal), f"{where}: went through but was not offered"
            else:
                assert after == before, f"{where}: refused ({code}) yet changed the table"
                assert not is_offered(action, legal), f"{where}: offered but refused with {code}"
                expected = (
                    {"login_required"}
                    if role == "anonymous"
                    else (OUTSIDER_CODES if role in {"another_user", "spectator"} else SEATED_CODES)
                )
                assert code in expected, f"{where}: unexpected code {code}"
            cells += 1
    assert cells >= 5 * (len(TABLE_ACTIONS) + len(HAND_ACTIONS))


def test_stale_and_missing_versions_are_refused_for_everyone(people: dict[str, User]) -> None:
    table_id = playing(people)
    version = Table.objects.get(pk=table_id).version
    for _role, user in actors(table_id, people):
        for bad in (version - 1, version + 1, None, "1", True):
            before = snapshot(table_id)
            with pytest.raises(errors.ServiceError) as e:
                commands.perform(table_id, user, bad, {"type": "pass"})
            assert e.value.code in {"stale_version", "bad_version", "login_required"}
            assert snapshot(table_id) == before
