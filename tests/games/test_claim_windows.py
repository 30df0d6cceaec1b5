"""Claim windows tell nobody outside them anything: per discard, a seat that
cannot claim and a spectator see the same frames and get the same error codes whether or not a
window opened; only the seats in it see it; nobody sees another seat's countdown."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Table
from games.rendering.presenters import context_for
from games.table import commands, errors, store
from tests.games.claim_window import CHI, CLAIMED, PASS, PONG, UNCLAIMED, four_people, rigged_table

pytestmark = pytest.mark.django_db

MS = timedelta(milliseconds=1)


def context(table_id: int, user: User | None, at: datetime) -> dict[str, Any]:
    return context_for(store.load(Table.objects.get(pk=table_id), at), user)


def public(ctx: dict[str, Any], tile: str) -> dict[str, Any]:
    """What a viewer is shown, less what differs by table (ids, invite) or by the discarded tile
    itself (the two discards are different tiles) and the running countdowns."""
    out = copy.deepcopy(ctx)
    out.pop("revision", None)
    table = out["table"]
    for key in ("id", "name", "invite", "pause_ms"):
        table.pop(key)
    view = out["view"]
    river = view["seats"][0]["discards"]
    if river and river[-1] == tile:
        river[-1] = "X"
    if view.get("last_discard", {}).get("tile") == tile:
        view["last_discard"]["tile"] = "X"
    return out


def probe(table_id: int, user: User, version: int, action: dict[str, Any], at: datetime) -> str:
    with pytest.raises(errors.ServiceError) as refused:
        commands.perform(table_id, user, version, action, at)
    return refused.value.code


class Run:
    """One table: seat 0 discards `discard` at `start`; carol (seat 2) can never claim."""

    def __init__(self, people: list[User], monkeypatch: pytest.MonkeyPatch, discard: dict[str, str]) -> None:
        self.people = people
        self.tile = discard["tile"]
        self.table = rigged_table(people, monkeypatch)
        self.start = timezone.now()
        commands.perform(self.table.pk, people[0], self.table.version, discard, self.start)

    def seen(self, ms: int) -> list[dict[str, Any]]:
        at = self.start + ms * MS
        return [public(context(self.table.pk, viewer, at), self.tile) for viewer in (self.people[2], None)]

    def probes(self, ms: int) -> list[str]:
        at = self.start + ms * MS
        carol = self.people[2]
        version = context(self.table.pk, carol, at)["table"]["version"]
        tries = [
            {"type": "pong", "tile": self.tile},
            {"type": "discard", "tile": "1m"},
            PASS,
            {"type": "win"},
        ]
        return [probe(self.table.pk, carol, version, action, at) for action in tries]

    def answer(self, ms: int) -> None:
        at = self.start + ms * MS
        version = context(self.table.pk, self.people[1], at)["table"]["version"]
        commands.perform(self.table.pk, self.people[1], version, PASS, at)
        commands.perform(self.table.pk, self.people[3], version, PASS, at)


@pytest.fixture
def people() -> list[User]:
    return four_people("cw-")


def test_answers_within_the_pause_leave_nothing_to_see(
    people: list[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    claimed, unclaimed = Run(people, monkeypatch, CLAIMED), Run(people, monkeypatch, UNCLAIMED)
    assert claimed.seen(100) == unclaimed.seen(100)  # the pause, the window open
    assert claimed.probes(200) == unclaimed.probes(200) == ["not_your_turn"] * 4
    claimed.answer(300)  # both claimants pass within the pause: the window closes in it
    assert claimed.seen(500) == unclaimed.seen(500)
    assert claimed.probes(600) == unclaimed.probes(600)
    after = claimed.seen(1500)
    assert after == unclaimed.seen(1500)  # play moved on: seat 1 to move, the same version
    assert after[0]["view"]["turn"] == 1 and not after[0]["table"]["paused"]
    assert claimed.probes(1600) == unclaimed.probes(1600)


def test_a_window_answered_after_the_pause_looks_like_a_longer_pause(
    people: list[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    claimed, unclaimed = Run(people, monkeypatch, CLAIMED), Run(people, monkeypatch, UNCLAIMED)
    during = claimed.seen(3000)  # the claimants are thinking: outside, the pause goes on…
    assert during == claimed.seen(100)
    assert [s["table"]["paused"] for s in during] == [True, True]
    assert claimed.probes(3000) == unclaimed.probes(200) == ["not_your_turn"] * 4  # …with its codes
    claimed.answer(4000)
    # …and ends as it does when nobody could claim: timing is all that differs
    assert claimed.seen(4100) == unclaimed.seen(1500)
    assert claimed.probes(4200) == unclaimed.probes(1600)


def test_only_the_seats_in_the_window_see_it_and_only_their_own_countdown(
    people: list[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol, dave = people
    run = Run(people, monkeypatch, CLAIMED)
    later = run.start + 2000 * MS
    bobs = context(run.table.pk, bob, later)
    assert bobs["view"]["phase"] == "claim" and bobs["view"]["my_move"]
    assert CHI in bobs["legal"] and PONG not in bobs["legal"]
    assert 0 < bobs["table"]["deadline_ms"] <= 8000  # his claim timer
    for outsider in (alice, carol, None):
        seen = context(run.table.pk, outsider, later)
        assert seen["table"]["deadline_ms"] is None and seen["table"]["paused"]
        assert not seen["view"]["my_move"] and seen["view"]["turn"] is None
    version = bobs["table"]["version"]
    commands.perform(run.table.pk, bob, version, PASS, later)
    # bob has answered: he sees no more of the window than anybody outside it
    assert public(context(run.table.pk, bob, later), "4s")["view"]["phase"] == "claim"
    assert context(run.table.pk, bob, later)["table"]["paused"]
    assert probe(run.table.pk, bob, version, CHI, later) == "not_your_turn"
    # dave, still in it, claims with the version the window opened at
    commands.perform(run.table.pk, dave, version, PONG, later)
    daves = context(run.table.pk, dave, later)
    assert daves["table"]["seats"][3]["pending"] == PONG and daves["legal"][-1] == {"type": "undo"}
    assert context(run.table.pk, carol, later)["table"]["seats"][3]["pending"] is None


def test_answers_in_a_window_bump_no_version_anybody_sees(
    people: list[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Run(people, monkeypatch, CLAIMED)
    at = run.start + 2000 * MS
    shown = context(run.table.pk, None, at)["table"]["version"]
    commands.perform(run.table.pk, people[1], shown, PASS, at)
    commands.perform(run.table.pk, people[3], shown, PONG, at)
    commands.undo(run.table.pk, people[3])
    assert context(run.table.pk, None, at)["table"]["version"] == shown
    assert Table.objects.get(pk=run.table.pk).revision > Table.objects.get(pk=run.table.pk).version


def test_an_added_kong_looks_the_same_whether_it_may_be_robbed_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every added kong pauses, and outsiders see the board as before it until play moves on, so
    nobody learns that a seat waits on the kong's tile (抢杠)."""
    from tests.games.claim_window import ADDED_KONG, NO_ROBBER, ROBBER, kong_table

    seen: dict[str, list[Any]] = {}
    for seat1 in (ROBBER, NO_ROBBER):
        people = four_people(f"k{len(seen)}-")
        table = kong_table(people, monkeypatch, seat1)
        start = timezone.now()
        commands.perform(table.pk, people[0], table.version, ADDED_KONG, start)
        marks = []
        for ms in (100, 500, 1500):
            if ms == 500 and seat1 == ROBBER:  # bob lets the kong go, within the pause
                version = context(table.pk, people[1], start + 300 * MS)["table"]["version"]
                commands.perform(table.pk, people[1], version, PASS, start + 300 * MS)
            at = start + ms * MS
            views = [public(context(table.pk, viewer, at), "5p") for viewer in (people[2], None)]
            for view in views:  # names differ by table: seat names are the people's
                for seat in view["table"]["seats"]:
                    seat["name"] = None
                view["table"]["owner"] = view["viewer"]["user"] = None
            version = views[0]["table"]["version"]
            codes = [probe(table.pk, people[2], version, PASS, at)]
            marks.append((views, codes))
        seen[seat1] = marks
    assert seen[ROBBER] == seen[NO_ROBBER]
    (paused, _), _, (moved, _) = seen[NO_ROBBER]
    assert paused[0]["table"]["paused"] and paused[0]["view"]["seats"][0]["melds"][0]["kind"] == "pong"
    assert (
        not moved[0]["table"]["paused"] and moved[0]["view"]["seats"][0]["melds"][0]["kind"] == "added_kong"
    )
