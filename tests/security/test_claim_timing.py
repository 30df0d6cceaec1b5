"""What an outsider observes of a discard is the same whether or not a bot may claim it.

The outsider's observable is when the next version shows after a discard. It is measured on the
server's own schedule, not by sleeping: a fake clock runs the table from one scheduled event to the
next (the clock's deadlines and the end of each pause, the only moments a frame can change), and at
each the outsider's frame is rendered as a socket would render it then. Over 100 discards the best
classifier of "a window opened" from that interval must do no better than always guessing the more
common answer."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.clock.ticks import timeout
from games.models import Hand, Table
from games.rendering.presenters import context_for
from games.table import commands, store
from games.table.hand_log import hand_state
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db

DISCARDS = 100


def shown_version(table_id: int, at: datetime) -> int:
    """The version a spectator's frame carries at `at` (as the socket renders it then)."""
    ctx = store.load(Table.objects.get(pk=table_id), at)
    return context_for(ctx, None)["table"]["version"]


def next_event(table: Table, now: datetime) -> datetime | None:
    """The next moment the spectator's frame may change: a deadline of the clock, or a pause's end."""
    moments = [m for m in (table.deadline, table.pause_until) if m is not None and m > now]
    due = [table.deadline] if table.deadline is not None and table.deadline <= now else []
    return min(due + moments) if due or moments else None


def step(table_id: int, now: datetime) -> tuple[datetime | None, Table]:
    """Run the clock up to the next scheduled moment; (that moment, the table after it)."""
    table = Table.objects.get(pk=table_id)
    at = next_event(table, now)
    if at is None:
        return None, table
    if table.deadline is not None and table.deadline <= at:
        timeout(table_id, table.deadline_version, at)
    return at, Table.objects.get(pk=table_id)


def discard_intervals(owner: User, wanted: int) -> list[tuple[bool, float]]:
    """(a window opened, seconds from the discard to the next version a spectator sees) per discard."""
    out: list[tuple[bool, float]] = []
    now = timezone.now()
    while len(out) < wanted:
        table = bot_table(owner, "shanghai", base=1)
        commands.set_auto(table.pk, owner, True)  # every seat is played by the server
        commands.start_hand(table.pk, owner)
        out += _one_hand(table.pk, now, wanted - len(out))
        owner.profile.refresh_from_db()
    return out


def _one_hand(table_id: int, now: datetime, wanted: int) -> list[tuple[bool, float]]:
    out: list[tuple[bool, float]] = []
    table = Table.objects.get(pk=table_id)
    while len(out) < wanted and table.hand is not None and table.hand.status == "playing":
        before = table.hand.actions_count
        at, table = step(table_id, now)
        if at is None:
            break
        now = at
        hand = table.hand
        if hand is None or hand.status != "playing" or hand.actions_count == before:
            continue
        discard = _discard_at(hand, before)
        if discard is None:
            continue
        window, version = discard, shown_version(table_id, now)
        start = now
        while True:  # until the spectator sees a newer version
            at, table = step(table_id, now)
            if at is None or table.hand is None or table.hand.status != "playing":
                break
            now = at
            if shown_version(table_id, now) != version:
                out.append((window, (now - start).total_seconds()))
                break
    return out


def _discard_at(hand: Hand, before: int) -> bool | None:
    """Whether the first action logged after `before` was a discard that opened a window (None:
    it was no discard)."""
    row = hand.actions.filter(seq=before + 1).values_list("action", flat=True).first()
    if row is None or row.get("type") != "discard":
        return None
    ghost = Hand(pk=hand.pk, seed=hand.seed, setup=hand.setup, actions_count=before + 1)
    return hand_state(ghost, "shanghai").phase == "claim"


def best_threshold_hits(samples: list[tuple[bool, float]]) -> int:
    """How many samples the best classifier "a window opened iff the interval is above (or below)
    t" gets right (a count, not a ratio: 1 − 0.18 is not 0.82 in floating point)."""
    n = len(samples)
    best = 0
    cuts = sorted({s for _, s in samples})
    for cut in [cuts[0] - 1, *cuts]:
        above_is_window = sum((s > cut) == w for w, s in samples)
        best = max(best, above_is_window, n - above_is_window)
    return best


def test_an_outsider_cannot_tell_from_timing_whether_a_bot_could_claim(alice: User) -> None:
    samples = discard_intervals(alice, DISCARDS)
    windows = sum(w for w, _ in samples)
    assert len(samples) == DISCARDS and 0 < windows < DISCARDS, windows
    chance = max(windows, DISCARDS - windows)  # always guessing the more common answer
    with_window = sorted(s for w, s in samples if w)
    without = sorted(s for w, s in samples if not w)
    assert best_threshold_hits(samples) <= chance, (with_window, without)


def test_every_early_action_gets_the_same_error_window_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe just after the pause: a person still thinking in a window (outsiders see a longer
    pause) or play already moved on — the outsider's refusal reads the same."""
    from tests.games.claim_window import CLAIMED, UNCLAIMED, four_people
    from tests.games.test_claim_windows import Run

    claimed = Run(four_people("p-"), monkeypatch, CLAIMED)
    unclaimed = Run(four_people("q-"), monkeypatch, UNCLAIMED)
    for ms in (200, 1250, 3000):
        assert claimed.probes(ms) == unclaimed.probes(ms), ms
