"""The live table's public names, re-exported from `games.table` for the views, the API, the
clock, scripts and tests (new code imports the `games.table` module it needs)."""

from __future__ import annotations

from games.table.changes import Expected, change
from games.table.commands import (
    COMMANDS,
    accept_stake,
    act,
    add_bot,
    continue_play,
    leave,
    legal_for,
    perform,
    remove_bot,
    set_auto,
    set_stake,
    sit,
    stand,
    start_hand,
    undo,
)
from games.table.errors import ServiceError
from games.table.hand_log import hand_state
from games.table.loaded import Loaded
from games.table.opening import create_table, validate_options
from games.table.play import SHORT_OF_POINTS, START_ERRORS
from games.table.presence import Connection, connect, disconnect, drop_socket, move_presence
from games.table.seating import INSUFFICIENT_POINTS
from games.table.stake import validate_stake
from games.table.store import group_name, load, loaded_from
from games.table.timers import NOT_CONTINUED, timeout
from games.table.timing import (
    DISCONNECTED_DELAY,
    RECONNECT_WINDOW,
    SETTLEMENT_SECONDS,
    continue_seconds,
    paused,
    seat_due,
    shown_version,
)

__all__ = [
    "COMMANDS",
    "DISCONNECTED_DELAY",
    "INSUFFICIENT_POINTS",
    "NOT_CONTINUED",
    "RECONNECT_WINDOW",
    "SETTLEMENT_SECONDS",
    "SHORT_OF_POINTS",
    "START_ERRORS",
    "Connection",
    "Expected",
    "Loaded",
    "ServiceError",
    "accept_stake",
    "act",
    "add_bot",
    "change",
    "connect",
    "continue_play",
    "continue_seconds",
    "create_table",
    "disconnect",
    "drop_socket",
    "group_name",
    "hand_state",
    "leave",
    "legal_for",
    "load",
    "loaded_from",
    "move_presence",
    "paused",
    "perform",
    "remove_bot",
    "seat_due",
    "set_auto",
    "set_stake",
    "shown_version",
    "sit",
    "stand",
    "start_hand",
    "timeout",
    "undo",
    "validate_options",
    "validate_stake",
]
