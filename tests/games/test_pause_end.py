"""The end of the pause after a discard is sent only to the seat play moved on to (its draw and
its moves): everybody else keeps the paused board, counted down by the client, until the next
change everybody sees — window or none, so the end of the pause tells nobody outside whether a
window opened (docs/protocol.md, "Claim windows"). Neither is it rendered for them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import orjson
import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.engine.scenario import scenario
from games.models import Table
from games.rendering.heads import frame_head
from games.rendering.presenters import context_for, shared_load
from games.sockets.news import PauseEnd, news, seen, seen_of
from games.table import commands, play, snapshots, store
from tests.games.claim_window import ROBBER, four_people, rigged_table
from tests.games.test_services import table_at_a_claim


def nothing_new_at_pause_end(snapshot: snapshots.Snapshot, user: Any) -> bool:
    """One socket's answer read on its own from the snapshot, as each socket read it before the
    end of a pause was read once per table."""
    ctx = store.loaded_from(snapshot)
    seat = ctx.seat_of(user) if ctx is not None else None
    return PauseEnd(ctx, snapshot).nothing_new(seat.index if seat is not None else None)


MOVES = orjson.dumps([{"type": "discard", "tile": "1m"}])
NONE = orjson.dumps([])
NO_CLAIM = orjson.dumps(None)


def test_nobody_is_rendered_again_while_the_window_stays_open(alice: User, bob: User) -> None:
    table, _claim, _now = table_at_a_claim(alice)
    shared_load(table.pk)  # the snapshot of this version, as a socket's render keeps it
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    state = snapshot.states[(snapshot.hand.pk, snapshot.hand.actions_count)]  # type: ignore[union-attr]
    assert state.phase == "claim" and state.window is not None
    assert nothing_new_at_pause_end(snapshot, alice)  # in the window: her frame had her options
    assert nothing_new_at_pause_end(snapshot, None)  # a spectator: veiled while it is open
    outside = [s for s in snapshot.seats if s.index not in state.window.waiting_for() and s.index != 0]
    if not outside:
        pytest.skip("every seat may claim this discard")
    outside[0].user_id = bob.pk  # bob plays a seat the window does not include
    try:
        assert nothing_new_at_pause_end(snapshot, bob)
    finally:
        snapshots.forget(table.pk)


def test_the_end_of_the_pause_is_news_only_to_the_seat_whose_moves_it_brings() -> None:
    paused = (7, True, NONE, NO_CLAIM)
    # play moved on, nothing else changed: no news for a viewer with no new moves …
    assert not news(paused, (8, False, NONE, NO_CLAIM), moved_on=True)
    # … but for the seat to play (its draw: its moves)
    assert news(paused, (8, False, MOVES, NO_CLAIM), moved_on=True)
    # something everybody sees changed with it (a claim applied, a seat gone): a frame for all
    assert news(paused, (8, False, NONE, NO_CLAIM), moved_on=False)
    assert news(paused, (9, True, NONE, NO_CLAIM), moved_on=False)
    # the pause ran out on a claimant's board (same version, same options): its client counted it
    assert not news((7, True, MOVES, NO_CLAIM), (7, False, MOVES, NO_CLAIM), moved_on=False)
    # its own answer is news to it
    assert news((7, True, MOVES, NO_CLAIM), (7, True, NONE, orjson.dumps({"type": "pong"})), moved_on=False)
    # an unpaused board one version on is always news (only a paused one stands for the next)
    assert news((7, False, NONE, NO_CLAIM), (8, False, NONE, NO_CLAIM), moved_on=True)
    assert news(None, paused, moved_on=False)


@pytest.mark.django_db
def test_the_seat_to_play_sees_nothing_of_its_draw_in_the_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's 9m opens no window and seat 1, ready on 5p, draws 7z at once: until the pause
    ends its frame shows its hand as before the draw — nor any waits help built from the drawn
    tile (which discard keeps it ready), or it would know a pause early that nobody could claim."""
    people = four_people("draw-")
    hands = ["1m1m1m2m3m4m5m6m7m8m9m9s9s", ROBBER, "1s2s3s4s6s7s8s1z1z2z2z3z3z", "4z4z5z5z6z6z7z7z1p1p2p2p3p"]
    state = scenario("shanghai", hands, draws="9m7z")
    monkeypatch.setattr(play, "new_hand", lambda *_args, **_kw: state)
    table = rigged_table(people, monkeypatch, min_pause_ms=5000)
    commands.perform(table.pk, people[0], table.version, {"type": "discard", "tile": "9m"})
    table = Table.objects.get(pk=table.pk)
    paused = context_for(store.load(table), people[1])
    assert paused["table"]["paused"] and b'"7z"' not in orjson.dumps(paused)
    assert paused["view"]["waits"] == [{"tile": "5p", "unseen": 4}] and paused["view"]["discard_waits"] == []
    later = context_for(store.load(table, timezone.now() + timedelta(seconds=6)), people[1])
    assert not later["table"]["paused"] and later["view"]["discard_waits"][0]["discard"] == "7z"


def _heads_agree(ctx: store.Loaded, viewers: list[Any]) -> None:
    """A frame's head says what the rendered frame would: whether it is news is decided first."""
    for viewer in viewers:
        head = frame_head(ctx, viewer)
        context = context_for(ctx, viewer)
        assert seen_of(head.version, head.paused, head.legal, head.pending) == seen(context)
        assert (head.revision, head.moved_on) == (context["revision"], context["moved_on"])
        assert head.pause_ms == (context["table"]["pause_ms"] or 0)
        assert context_for(ctx, viewer, head) == context


@pytest.mark.django_db
def test_a_frames_head_is_what_its_frame_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    people = four_people("head-")
    hands = ["1m1m1m2m3m4m5m6m7m8m9m9s9s", ROBBER, "1s2s3s4s6s7s8s1z1z2z2z3z3z", "4z4z5z5z6z6z7z7z1p1p2p2p3p"]
    monkeypatch.setattr(play, "new_hand", lambda *_args, **_kw: scenario("shanghai", hands, draws="9m7z"))
    table = rigged_table(people, monkeypatch, min_pause_ms=5000)
    _heads_agree(store.load(table), [*people, None])
    commands.perform(table.pk, people[0], table.version, {"type": "discard", "tile": "9m"})
    table = Table.objects.get(pk=table.pk)
    paused = store.load(table)
    assert frame_head(paused, people[1]).paused
    _heads_agree(paused, [*people, None])
    moved = store.load(table, timezone.now() + timedelta(seconds=6))
    assert frame_head(moved, people[1]).moved_on and not frame_head(moved, people[1]).paused
    _heads_agree(moved, [*people, None])


def test_a_held_claims_head_is_what_its_frame_shows(alice: User, bob: User) -> None:
    table, claim, now = table_at_a_claim(alice)
    _heads_agree(store.load(table), [alice, bob, None])
    open_window = store.load(table, now + timedelta(seconds=30))  # on the table's clock, the pause over
    assert frame_head(open_window, bob).paused and not frame_head(open_window, bob).pause_ms  # veiled
    _heads_agree(open_window, [alice, bob, None])
    commands.perform(table.pk, alice, table.version, claim.to_json())
    held = store.load(Table.objects.get(pk=table.pk))
    assert frame_head(held, alice).pending == claim.to_json()
    _heads_agree(held, [alice, bob, None])


def test_the_end_of_a_pause_is_read_once_for_every_seat(alice: User) -> None:
    table, _claim, _now = table_at_a_claim(alice)
    shared_load(table.pk)
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    try:
        end = PauseEnd(store.loaded_from(snapshot), snapshot)
        # the same answers as each socket's own read of the snapshot, each seat's read once
        assert end.nothing_new(0) == nothing_new_at_pause_end(snapshot, alice)
        assert end.nothing_new(None) == nothing_new_at_pause_end(snapshot, None)
        end.ctx = None  # (a second answer would read it again)
        assert end.nothing_new(0) == nothing_new_at_pause_end(snapshot, alice)
        assert PauseEnd(None).nothing_new(0) is False  # no snapshot: rendered from a load
    finally:
        snapshots.forget(table.pk)
