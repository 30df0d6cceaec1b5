"""The load test's set-up and accounting (scripts/loadtest.py), through the Django ORM on the
stack's database: players, tables, and the lost and duplicated actions."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lt_stack import HOST, ROOT, Stack  # noqa: E402
from lt_stats import Confirmed  # noqa: E402

if TYPE_CHECKING:
    from lt_clients import TableDriver


def django_setup(stack: Stack) -> None:
    os.environ.update(
        {
            k: v
            for k, v in stack.env().items()
            if k
            in {
                "DEBUG",
                "SECRET_KEY",
                "ALLOWED_HOSTS",
                "DATABASE_URL",
                "REDIS_URL",
                "SECURE_SSL_REDIRECT",
                "SECURE_COOKIES",
                "LOG_LEVEL",
            }
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mahjong_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_players(count: int) -> list[str]:
    """`count` users (no password: API only) with one API token each."""
    from django.contrib.auth.models import User

    from accounts.services import create_api_token

    stamp = int(time.time())
    tokens = []
    for i in range(count):
        user = User.objects.create_user(username=f"lt{stamp}_{i}")
        tokens.append(create_api_token(user))
    return tokens


def create_table(port: int, token: str, variant: str) -> int:
    body = json.dumps({"variant": variant, "base": 1, "bots": 0}).encode()
    request = urllib.request.Request(
        f"http://{HOST}:{port}/api/tables/",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(json.loads(response.read())["id"])


Key = tuple[int, int, int, str]  # (table, hand number, seat, canonical action)


def logged_actions(table_ids: list[int]) -> tuple[Counter[Key], Counter[Key]]:
    """(table, hand number, seat, action) of every row of the HandAction log: the human rows,
    and the others (bot, timeout, auto), which tell a lost action from one the server played
    for the seat instead."""
    from django.db import connection

    from games.models import HandAction

    connection.close()  # RESET_PG terminated our own connection too: take a fresh one
    rows = HandAction.objects.filter(hand__table_id__in=table_ids).values_list(
        "hand__table_id", "hand__number", "seat", "action", "actor"
    )
    human: Counter[Key] = Counter()
    other: Counter[Key] = Counter()
    for t, n, s, a, actor in rows:
        (human if actor == HandAction.Actor.HUMAN else other)[(t, n, s, canonical(a))] += 1
    return human, other


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def key(entry: Confirmed) -> Key:
    return entry.table, entry.hand, entry.seat, canonical(entry.action)


MAX_LISTED = 50  # lost / duplicated actions named one by one in the summary


def describe(
    k: Key, times: int, other: Counter[Key], sent: dict[Key, list[Confirmed]] | None = None
) -> dict[str, Any]:
    """One lost or duplicated action, named so that a failure can be looked up in the log:
    for a lost one, the versions it was sent at and answered with."""
    table, hand, seat, action = k
    entry: dict[str, Any] = {"table": table, "hand": hand, "seat": seat, "action": json.loads(action)}
    if times > 1:
        entry["times"] = times
    if sent is not None:
        entry["versions"] = [[e.sent_at, e.answer] for e in sent.get(k, [])]
    if other[k]:  # logged, but as played by the server (timeout, 托管, bot)
        entry["logged_as_server"] = other[k]
    return entry


SETTLE_TIMEOUT = 120.0  # seconds the accounting waits for the clock to commit held claims


def held_claims(table_ids: list[int]) -> int:
    """Seats of these tables holding a confirmed claim the clock has not committed yet."""
    from django.db import connection

    from games.models import Seat

    connection.close()  # RESET_PG terminated our own connection too: take a fresh one
    return Seat.objects.filter(table_id__in=table_ids, pending__isnull=False).count()


def settle(table_ids: list[int]) -> dict[str, Any]:
    """Wait until no seat holds a claim: a confirmed claim is held for its undo window and
    then committed by the clock, which may be seconds behind (busy dropping a killed process's
    sockets, say). Counting before that counted held claims as lost."""
    began = time.monotonic()
    held = held_claims(table_ids)
    while held and time.monotonic() - began < SETTLE_TIMEOUT:
        time.sleep(0.5)
        held = held_claims(table_ids)
    return {"settle_s": round(time.monotonic() - began, 1), "held_at_end": held}


def account(drivers: list[TableDriver], settled: dict[str, Any] | None = None) -> dict[str, Any]:
    """lost, duplicated and unconfirmed, comparing the clients' logs with the database; the
    lost and duplicated actions are listed too (`lost_actions`, `duplicated_actions`).
    `settled`: what `settle` found (a claim still held then is not yet in the log)."""
    logged, other = logged_actions([d.table_id for d in drivers])
    confirmed = Counter(key(e) for d in drivers for e in d.confirmed)
    by_key: dict[Key, list[Confirmed]] = {}
    for d in drivers:
        for e in d.confirmed:
            by_key.setdefault(key(e), []).append(e)
    maybe = Counter(key(e) for d in drivers for e in d.unconfirmed)
    missing = confirmed - logged
    extra = logged - confirmed
    unconfirmed_applied = sum((extra & maybe).values())
    surplus = extra - maybe
    return {
        "lost": sum(missing.values()),
        "duplicated": sum(surplus.values()),
        "unconfirmed_applied": unconfirmed_applied,
        "logged_human": sum(logged.values()),
        "confirmed_hand": sum(confirmed.values()),
        "lost_actions": [describe(k, n, other, by_key) for k, n in sorted(missing.items())[:MAX_LISTED]],
        "duplicated_actions": [describe(k, n, other) for k, n in sorted(surplus.items())[:MAX_LISTED]],
        **(settled or {}),
    }


def report_ledger(ledger: dict[str, Any]) -> None:
    """Each lost and duplicated action on its own line (stderr), before the JSON lines."""
    for kind in ("lost", "duplicated"):
        for entry in ledger.get(f"{kind}_actions", []):
            print(f"[loadtest] {kind}: {json.dumps(entry)}", file=sys.stderr, flush=True)
