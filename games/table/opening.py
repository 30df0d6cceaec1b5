"""Opening a table: its variant, house rules and timers, checked; its seats empty."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common import settings_store
from games.engine.errors import EngineError
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.models import Seat, Table
from games.table import holds, store
from games.table.errors import ServiceError


def validate_options(variant: str, options: Any) -> dict[str, Any]:
    """The house rules if the variant's `Ruleset` admits each one (its declared ranges)."""
    if options in (None, ""):
        return {}
    try:
        return get_ruleset(variant).check_options(options)
    except EngineError as e:  # OptionError: the message names the option
        raise ServiceError("bad_option", e.message) from None


def create_table(
    owner: AbstractBaseUser,
    variant: str,
    *,
    public: bool = True,
    options: dict[str, Any] | None = None,
    turn_seconds: int | None = None,
    claim_seconds: int | None = None,
    min_pause_ms: int = 1000,
    undo_ms: int = 1500,
    grace_seconds: int | None = None,
) -> Table:
    site = settings_store.current()  # timer defaults the admin may change without a deploy
    turn_seconds = site.turn_seconds if turn_seconds is None else turn_seconds
    claim_seconds = site.claim_seconds if claim_seconds is None else claim_seconds
    grace_seconds = site.grace_seconds if grace_seconds is None else grace_seconds
    if variant not in VARIANT_IDS:
        raise ServiceError("unknown_variant", f"variant must be one of {', '.join(VARIANT_IDS)}")
    untimed = turn_seconds == 0 and claim_seconds == 0
    if untimed and public:
        raise ServiceError("bad_timer", "only a private table may play without a timer")
    if not untimed and not (3 <= turn_seconds <= 120 and 2 <= claim_seconds <= 60):
        raise ServiceError("bad_timer", "turn timer 3–120 s, claim timer 2–60 s (or both 0: no timer)")
    if not (0 <= min_pause_ms <= 5000 and 0 <= undo_ms <= 5000 and 10 <= grace_seconds <= 3600):
        raise ServiceError("bad_timer", "pause and undo 0–5000 ms, grace 10–3600 s")
    with transaction.atomic():
        refuse_too_many_tables(owner)
        return store.create(
            variant=variant,
            owner=owner,
            public=public,
            options=validate_options(variant, options),
            turn_seconds=turn_seconds,
            claim_seconds=claim_seconds,
            min_pause_ms=min_pause_ms,
            undo_ms=undo_ms,
            grace_seconds=grace_seconds,
        )


def refuse_too_many_tables(owner: AbstractBaseUser) -> None:
    """One account may own `OPEN_TABLES_PER_USER` open tables (not closed, a person seated: a
    table everybody left is no longer open) and make `TABLES_PER_USER_PER_HOUR` an hour, so it
    cannot fill the lobby. The owner's profile row is locked: two creations at once are counted
    one after the other."""
    holds.lock_balance(owner)
    made, open_tables = _tables_made_and_open(owner.pk, timezone.now() - timedelta(hours=1))
    if made >= settings.TABLES_PER_USER_PER_HOUR:
        limit = settings.TABLES_PER_USER_PER_HOUR
        message = _("You may create at most %(n)d tables an hour; try again later.") % {"n": limit}
        raise ServiceError("too_many_tables", message)
    if open_tables >= settings.OPEN_TABLES_PER_USER:
        limit = settings.OPEN_TABLES_PER_USER
        message = _("You may have at most %(n)d open tables; leave one of them first.") % {"n": limit}
        raise ServiceError("too_many_tables", message)


def _tables_made_and_open(owner_id: int, since: datetime) -> tuple[int, int]:
    """How many tables the account made since `since`, and how many of its tables are open (not
    closed, a person seated): one statement, at every table made (compiling the ORM's two
    counts cost more CPU than PostgreSQL spent running them)."""
    with connection.cursor() as cursor:
        cursor.execute(_tables_made_and_open_sql(), [since, Table.Status.CLOSED, owner_id])
        made, open_tables = cursor.fetchone()
    return made, open_tables


@functools.cache
def _tables_made_and_open_sql() -> str:
    q = connection.ops.quote_name
    table, seat = Table._meta, Seat._meta

    def column(meta: Any, name: str) -> str:
        return q(meta.get_field(name).column)

    seated = f"s.{column(seat, 'table')} = t.{column(table, 'id')} AND s.{column(seat, 'user')} IS NOT NULL"
    someone_seated = f"EXISTS (SELECT 1 FROM {q(seat.db_table)} s WHERE {seated})"
    return (
        f"SELECT count(*) FILTER (WHERE t.{column(table, 'created')} > %s),"
        f" count(*) FILTER (WHERE t.{column(table, 'status')} <> %s AND {someone_seated})"
        f" FROM {q(table.db_table)} t WHERE t.{column(table, 'owner')} = %s"
    )
