"""The one registry of table commands: name → handler, who may send it, its version rule, and
what `legal` offers of it. `perform` (every client's door), `legal_for` (what a viewer may send
now, which the board's buttons show), the board's table-action buttons (games.rendering) and the
fuzzer (scripts/fuzz.py) all read `COMMANDS`; anything else a client sends is a hand action.

Each command also has a function by table id (`sit(table_id, user, seat)` …) for the views, the
API, matchmaking, scripts and tests: the same handler under the same lock, with no version."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engine.bots import DEFAULT_LEVEL
from games.engine.rulesets import get_ruleset
from games.engine.view import legal_json
from games.models import Seat, Table
from games.table import play, seating, stake, timing
from games.table.changes import Expected, change, change_hand, checked
from games.table.errors import ServiceError
from games.table.loaded import Loaded
from games.table.store import Change


class Who(Enum):
    """Who may send a command (its handler checks the rest)."""

    ANYONE = "anyone logged in"
    SEATED = "a seated person"
    MANAGER = "a seated person or the owner"

    def allows(self, t: Loaded, user: AbstractBaseUser) -> bool:
        return self in Who.allowed(t, user, t.seat_of(user))

    @staticmethod
    def allowed(t: Loaded, user: AbstractBaseUser, seat: Seat | None) -> frozenset[Who]:
        """Every `Who` this user (in `seat`, if any) is."""
        if seat is not None:
            return _EVERYONE
        return _OWNER if t.table.owner_id == user.pk else _LOGGED_IN

    def check(self, t: Loaded, user: AbstractBaseUser) -> None:
        if not self.allows(t, user):
            if self is Who.MANAGER:
                raise ServiceError("not_seated", "only seated people or the owner may do that")
            raise ServiceError("not_seated", "you are not seated at this table")


_EVERYONE = frozenset(Who)
_OWNER = frozenset({Who.ANYONE, Who.MANAGER})
_LOGGED_IN = frozenset({Who.ANYONE})

Body = Callable[[Change], None]  # what a command does to a loaded table
Handler = Callable[[Change, AbstractBaseUser, dict[str, Any], "int | None"], None]
Offer = Callable[[Loaded, AbstractBaseUser, "Seat | None"], list[dict[str, Any]]]


@dataclass(frozen=True)
class Command:
    name: str
    run: Handler  # (t, user, the action sent, the socket it came over)
    who: Who
    offer: Offer  # the `legal` entries of this command for a viewer allowed by `who`
    same_decision: bool = False  # version rule: any version since the decision began (hand actions)
    mid_hand: bool = False  # its `offer` may list something while a hand runs (else it lists nothing)


def _between_hands(t: Loaded) -> bool:
    return not t.hand_running


def _offer_sit(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    if seat is not None or t.hand_running:
        return []
    return [{"type": "sit", "seat": s.index} for s in t.seats if s.empty]


def _offer_seats(kind: str, which: Callable[[Seat], bool]) -> Offer:
    def offer(t: Loaded, _user: AbstractBaseUser, _seat: Seat | None) -> list[dict[str, Any]]:
        return [{"type": kind, "seat": s.index} for s in t.seats if which(s)] if _between_hands(t) else []

    return offer


def _offer_set_stake(t: Loaded, user: AbstractBaseUser, _seat: Seat | None) -> list[dict[str, Any]]:
    if t.hand_running or not stake.may_set_stake(t, user):
        return []
    table = t.table
    even = get_ruleset(table.variant).even_stake
    return [{"type": "set_stake", "base": table.base or (2 if even else 1), "even": even}]


def _offer_start(t: Loaded, _user: AbstractBaseUser, _seat: Seat | None) -> list[dict[str, Any]]:
    ready = not t.hand_running and not t.in_settlement and play.ready_to_start(t) is None
    return [{"type": "start"}] if ready else []


def _offer_accept(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    unaccepted = seat is not None and not seat.accepted and t.table.stake_state != Table.Stake.UNSET
    return [{"type": "accept_stake"}] if unaccepted and not t.hand_running else []


def _offer_continue(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    owed = seat is not None and t.in_settlement and not seat.continue_choice
    return [{"type": "continue"}] if owed and not t.hand_running else []


def _offer_auto(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    return (
        [{"type": "auto", "on": not seat.auto}]
        if seat is not None and t.hand_running and not seat.left
        else []
    )


def _offer_leave(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    """Mid-hand (an escape) and in the settlement; otherwise `stand` frees the seat."""
    if seat is None or seat.left:
        return []
    return [{"type": "leave"}] if t.hand_running or t.in_settlement else []


def _offer_stand(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    return [{"type": "stand"}] if seat is not None and not t.hand_running and not t.in_settlement else []


def _offer_undo(t: Loaded, _user: AbstractBaseUser, seat: Seat | None) -> list[dict[str, Any]]:
    return [{"type": "undo"}] if seat is not None and t.hand_running and seat.pending is not None else []


# In the order `legal` lists them (the board shows them in this order too).
COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("sit", lambda t, u, a, sock: seating.sit(t, u, a.get("seat"), sock), Who.ANYONE, _offer_sit),
        Command(
            "add_bot",
            lambda t, u, a, _s: seating.add_bot(t, u, a.get("seat"), a.get("level", DEFAULT_LEVEL)),
            Who.MANAGER,
            _offer_seats("add_bot", lambda s: s.empty),
        ),
        Command(
            "remove_bot",
            lambda t, u, a, _s: seating.remove_bot(t, u, a.get("seat")),
            Who.MANAGER,
            _offer_seats("remove_bot", lambda s: s.is_bot),
        ),
        Command(
            "set_stake",
            lambda t, u, a, _s: stake.set_stake(t, u, a.get("base")),
            Who.ANYONE,
            _offer_set_stake,
        ),
        Command("start", lambda t, u, _a, _s: play.start_hand(t, u), Who.MANAGER, _offer_start),
        Command("accept_stake", lambda t, u, _a, _s: stake.accept_stake(t, u), Who.SEATED, _offer_accept),
        Command("continue", lambda t, u, _a, _s: play.continue_play(t, u), Who.SEATED, _offer_continue),
        Command(
            "auto",
            lambda t, u, a, _s: play.set_auto(t, u, a.get("on")),
            Who.SEATED,
            _offer_auto,
            mid_hand=True,
        ),
        Command("leave", lambda t, u, _a, _s: play.leave(t, u), Who.SEATED, _offer_leave, mid_hand=True),
        Command("stand", lambda t, u, _a, _s: seating.stand(t, u), Who.SEATED, _offer_stand),
        Command("undo", lambda t, u, _a, _s: play.undo(t, u), Who.SEATED, _offer_undo, mid_hand=True),
    )
}
# Anything else is a hand action: the engine's own (`legal_json`), for the seat it waits for.
HAND_ACTION = Command(
    "act", lambda t, u, a, _s: play.act(t, u, a), Who.SEATED, lambda *_: [], same_decision=True
)
NAMES = tuple(COMMANDS)  # the table commands' names (the fuzzer's and the board's list)
# The commands each `Who.allowed` set may be offered, in `COMMANDS`' order: looked up once per
# viewer's frame (an Enum hashes in Python: testing each command's `who` against the set was a
# tenth of building `legal`).
OFFERED_TO = {
    allowed: tuple(c for c in COMMANDS.values() if c.who in allowed)
    for allowed in (_EVERYONE, _OWNER, _LOGGED_IN)
}
# The same while a hand runs, when most commands offer nothing (every frame of play is built then:
# asking each of them was most of `legal`'s table part; tests/games/test_commands_offered.py).
OFFERED_MID_HAND = {
    allowed: tuple(c for c in commands if c.mid_hand) for allowed, commands in OFFERED_TO.items()
}


def perform(
    table_id: int,
    user: AbstractBaseUser | None,
    version: Any,
    action: Any,
    now: datetime | None = None,
    socket_id: int | None = None,
) -> Table:
    """Run one `legal` entry a client sent back, if the table is still at `version` (checked
    under the change's lock). `now`: the time of a hand action (tests on a fake clock; else the
    real time); `socket_id`: the socket it came over (`seating.sit`)."""
    command, expect = _accepted(user, version, action)
    when = now if command is HAND_ACTION else None  # (a table command happens now, as it always did)
    return run(command, table_id, user, action, expect, when, socket_id)


def _accepted(user: AbstractBaseUser | None, version: Any, action: Any) -> tuple[Command, Expected]:
    """`perform`'s checks of what a client sent, before any table is read: its command and version."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action", "an action is an object with a 'type'")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError("bad_version", "'version' must be the version of the state you act on")
    if user is None or not user.is_authenticated:
        raise ServiceError("login_required", "log in to play")
    command = COMMANDS.get(action["type"], HAND_ACTION)
    return command, Expected(version, command.same_decision)


def hand_action_body(
    user: AbstractBaseUser | None, version: Any, action: Any
) -> Callable[[Change], None] | None:
    """What `perform` runs on the table for a hand action, its version checked first
    (games.table.on_loop); None for anything else, which `perform` answers."""
    try:
        command, expect = _accepted(user, version, action)
    except ServiceError:
        return None
    if command is not HAND_ACTION:
        return None
    return checked(expect, _body(command, user, action, None))


def run(
    command: Command,
    table_id: int,
    user: AbstractBaseUser,
    action: dict[str, Any],
    expect: Expected | None = None,
    now: datetime | None = None,
    socket_id: int | None = None,
) -> Table:
    """One command under one lock: the version (if any), who may, then the handler. A hand
    action may be made without the lock (`change_hand`): the same checks, the same handler."""
    body = _body(command, user, action, socket_id)
    if command is HAND_ACTION:
        return change_hand(table_id, now, expect, body).table
    with change(table_id, now, expect) as t:
        body(t)
    return t.table


def _body(command: Command, user: AbstractBaseUser, action: dict[str, Any], socket_id: int | None) -> Body:
    def body(t: Change) -> None:
        if command.who is not Who.ANYONE:  # (the handler of an ANYONE command asks for a login)
            seating.require_login(t, user)
            command.who.check(t, user)
        command.run(t, user, action, socket_id)

    return body


def legal_for(t: Loaded, user: AbstractBaseUser | None) -> list[dict[str, Any]]:
    """Every action this viewer may send now: the hand's actions, then the table commands."""
    if user is None or not user.is_authenticated or t.table.status == Table.Status.CLOSED:
        return []
    seat = t.seat_of(user)
    hand: list[dict[str, Any]] = []
    awaiting = seat is not None and t.hand_running and not seat.left and seat.pending is None
    if awaiting and t.state is not None and not timing.veiled(t, seat.index):
        hand = legal_json(t.state, seat.index)
    allowed = Who.allowed(t, user, seat)
    commands = (OFFERED_MID_HAND if t.hand_running else OFFERED_TO)[allowed]
    offered = [entry for c in commands for entry in c.offer(t, user, seat)]
    return hand + offered


# --- by table id (no version) --------------------------------------------------------------------


def _by_id(name: str, table_id: int, user: Any, socket_id: int | None = None, **action: Any) -> Table:
    return run(COMMANDS[name], table_id, user, action, socket_id=socket_id)


def sit(table_id: int, user: AbstractBaseUser, index: Any, socket_id: int | None = None) -> Table:
    return _by_id("sit", table_id, user, seat=index, socket_id=socket_id)


def stand(table_id: int, user: AbstractBaseUser) -> Table:
    return _by_id("stand", table_id, user)


def add_bot(table_id: int, user: AbstractBaseUser, index: Any, level: Any = DEFAULT_LEVEL) -> Table:
    return _by_id("add_bot", table_id, user, seat=index, level=level)


def remove_bot(table_id: int, user: AbstractBaseUser, index: Any) -> Table:
    return _by_id("remove_bot", table_id, user, seat=index)


def set_stake(table_id: int, user: AbstractBaseUser, base: Any) -> Table:
    return _by_id("set_stake", table_id, user, base=base)


def accept_stake(table_id: int, user: AbstractBaseUser) -> Table:
    return _by_id("accept_stake", table_id, user)


def start_hand(table_id: int, user: AbstractBaseUser | None) -> Table:
    """`user` None: the server starts it (a quick match), with no check of who."""
    if user is None:
        with change(table_id) as t:
            play.start_hand(t, None)
        return t.table
    return _by_id("start", table_id, user)


def continue_play(table_id: int, user: AbstractBaseUser) -> Table:
    return _by_id("continue", table_id, user)


def leave(table_id: int, user: AbstractBaseUser) -> Table:
    return _by_id("leave", table_id, user)


def set_auto(table_id: int, user: AbstractBaseUser, on: Any) -> Table:
    return _by_id("auto", table_id, user, on=on)


def undo(table_id: int, user: AbstractBaseUser) -> Table:
    return _by_id("undo", table_id, user)


def act(table_id: int, user: AbstractBaseUser, action_json: Any, now: datetime | None = None) -> Table:
    """A seated person's hand action (`play.act`); `now`: see `perform`."""
    with change(table_id, now) as t:
        play.act(t, user, action_json)
    return t.table
