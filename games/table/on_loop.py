"""A socket's act, made where it costs least: a hand action that this process's snapshot can
decide (games.table.unlocked) is made on the event loop and its one statement sent from there on
the loop's own connection (common.loop_db), without the hop to a play thread and back
(docs/benchmarks.md, "Cost per action: the hand action's statement on the loop"). Everything
else — a table command, a refusal, a table that moved on, the hand's end, SQLite, no free
connection — goes to a play thread (`commands.perform`), which answers as it always did: nothing
was written on the loop then, since a change made on a snapshot writes in one statement or not at all.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.contrib.auth.models import AbstractBaseUser
from django.db import InterfaceError, OperationalError

from common import loop_db
from common.db_threads import on_play_thread
from common.rows import refused_if_first
from games.models import Table
from games.table import commands, statements, timing, unlocked


async def perform(
    table_id: int, user: AbstractBaseUser | None, version: Any, action: Any, socket_id: int | None = None
) -> Table:
    """`commands.perform` of a socket's act (`socket_id`: a sit's, which goes to a thread)."""
    if socket_id is None and loop_db.has_room():
        table = await _on_loop(table_id, user, version, action)
        if table is not None:
            return table
    return await on_play_thread(commands.perform, table_id, user, version, action, None, socket_id)


async def _on_loop(table_id: int, user: AbstractBaseUser | None, version: Any, action: Any) -> Table | None:
    """The hand action made on this loop, or None (nothing written: do it on a thread)."""
    body = commands.hand_action_body(user, version, action)
    if body is None:
        return None
    made = unlocked.made_unlocked(table_id, None, timing.set_deadline, body)
    if made is None:
        return None
    t, (statement, values) = made
    try:
        statements.count_one()  # (the load test's count of statements per action)
        row = await loop_db.fetch_one(statement, values)
    except loop_db.Busy:
        return None
    except (psycopg.OperationalError, psycopg.InterfaceError) as error:  # (as a play thread's would)
        lost = OperationalError if isinstance(error, psycopg.OperationalError) else InterfaceError
        raise lost(str(error)) from error
    except psycopg.Error as error:
        if refused_if_first(error):  # the table moved on: nothing written
            return None
        raise
    return t.table if row is not None and t.written(tuple(row[1:])) else None
