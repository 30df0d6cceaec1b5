"""The load test's accounting (scripts/loadtest.py): a held claim is not a lost action, and every
lost one is named."""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from games.clock.ticks import drive_table_until_idle
from games.engine.actions import legal_actions
from games.models import Hand, Seat, Table
from games.table import commands, presence, timers
from tests.games.conftest import after_pause, bot_table, hand_over, state_of
from tests.games.test_services import table_at_a_claim

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import lt_clients  # noqa: E402
import lt_frames  # noqa: E402
import lt_ledger  # noqa: E402
import lt_stats  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_confirmed_claim_still_held_is_counted_only_once_committed(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, action, now = table_at_a_claim(alice)
    claim = action.to_json()
    commands.perform(table.pk, alice, table.version, claim, now)  # confirmed, and held
    hand = Hand.objects.get(pk=table.hand_id)
    driver = SimpleNamespace(
        table_id=table.pk,
        confirmed=[lt_stats.Confirmed(table.pk, hand.number, 0, claim, table.version, table.version + 1)],
        unconfirmed=[],
    )
    # What the old fixed wait counted while the clock had not committed the claim yet: lost.
    early = lt_ledger.account([driver])  # type: ignore[list-item]
    assert early["lost"] == 1
    assert early["lost_actions"] == [
        {
            "table": table.pk,
            "hand": hand.number,
            "seat": 0,
            "action": claim,
            "versions": [[table.version, table.version + 1]],
        }
    ]
    monkeypatch.setattr(lt_ledger, "SETTLE_TIMEOUT", 0.0)
    assert lt_ledger.settle([table.pk]) == {"settle_s": 0.0, "held_at_end": 1}  # still held: not lost yet
    timers.timeout(table.pk, Table.objects.get(pk=table.pk).revision, now + timedelta(seconds=2))
    assert not Seat.objects.filter(table=table, pending__isnull=False).exists()
    settled = lt_ledger.settle([table.pk])
    assert settled["held_at_end"] == 0
    final = lt_ledger.account([driver], settled)  # type: ignore[list-item]
    assert (final["lost"], final["duplicated"], final["lost_actions"]) == (0, 0, [])


def test_a_human_row_nobody_confirmed_is_named_as_duplicated(alice: User) -> None:
    table = bot_table(alice, "shanghai", base=1)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    drive_table_until_idle(table.pk, until=lambda t: hand_over(t) or _alices_turn(t.pk))
    table.refresh_from_db()
    state = state_of(table.pk)
    if state is None:
        pytest.skip("the hand ended before alice's turn")
    discard = next(a for a in legal_actions(state, 0) if a.type == "discard").to_json()
    commands.perform(table.pk, alice, table.version, discard, after_pause(table))
    hand = Hand.objects.get(pk=table.hand_id)
    driver = SimpleNamespace(table_id=table.pk, confirmed=[], unconfirmed=[])
    ledger = lt_ledger.account([driver])  # type: ignore[list-item]
    assert ledger["duplicated"] == 1 and ledger["lost"] == 0
    assert ledger["duplicated_actions"] == [
        {"table": table.pk, "hand": hand.number, "seat": 0, "action": discard}
    ]


def _alices_turn(table_id: int) -> bool:
    state = state_of(table_id)
    return state is not None and state.phase == "turn" and state.turn == 0


def _state_text(
    version: int, legal: list[str], seat: int | None = None, pending: object = None, **top: object
) -> bytes:
    """A state frame as the server encodes it (orjson, keys in its order, docs/protocol.md)."""
    import orjson

    seats = [
        {"index": i, "is_you": i == seat, "accepted": True, "pending": pending if i == seat else None}
        for i in range(4)
    ]
    view = {"phase": "playing", "table": {"id": 1, "hand_number": 3, "seats": seats}, "hand": {"seats": []}}
    frame = {"type": "state", "version": version, "view": view, "legal": [{"type": t} for t in legal], **top}
    return orjson.dumps(frame)


def test_a_claim_the_rules_hold_counts_until_its_confirmation() -> None:
    """Its undo window (1.5 s in which nobody else may see it) is the rules, not the server's
    speed: the latency stops at the claimer's confirmation, the rest is reported as `_seen`."""

    def client(seat: int, pending: object) -> SimpleNamespace:
        return SimpleNamespace(seat=seat, raw=_state_text(7, [], seat, pending))

    assert lt_frames.held_by_the_rules(client(2, {"type": "pong", "tile": "5p"}))  # type: ignore[arg-type]
    assert not lt_frames.held_by_the_rules(client(2, None))  # type: ignore[arg-type]
    assert not lt_frames.held_by_the_rules(SimpleNamespace(seat=0, raw=None))  # type: ignore[arg-type]


def test_a_seat_still_to_answer_in_a_claim_window_is_what_a_held_claim_waits_for() -> None:
    """A held claim (or a pass) is seen by everybody only once the rest of its window answered:
    the driver stops waiting when another seat may answer now (its own next act)."""

    def client(version: int, legal: list[str]) -> SimpleNamespace:
        return SimpleNamespace(version=version, legal=[{"type": t} for t in legal])

    assert lt_frames.awaits_answer(client(41, ["auto", "chi", "pass"]), 42)  # type: ignore[arg-type]
    assert not lt_frames.awaits_answer(client(41, ["auto", "leave"]), 42)  # type: ignore[arg-type]
    assert not lt_frames.awaits_answer(client(42, ["discard"]), 42)  # type: ignore[arg-type]  # already there


def test_a_state_frame_is_read_from_its_text_and_parsed_only_in_part() -> None:
    """The generator reads a state frame's version, `reply_to`, hand number and held claim from
    its text and parses `legal` alone on first use; a frame that offers its seat nothing is
    never parsed (the server's orjson key order)."""
    table = SimpleNamespace(table_id=1, changed=asyncio.Event(), wants=lambda client: True)
    client = lt_clients.Client(table, 0, "t", [1], lt_stats.Stats(), "table")  # type: ignore[arg-type]
    nothing = _state_text(12, [], 0)
    assert lt_frames.version_of(nothing) == 12 and lt_frames.version_of(b'{"type":"error"}') is None
    client._state(nothing, 12)
    assert client.offers_nothing() and client._legal == [] and client._frame is None and client.version == 12
    answer = _state_text(13, ["pass", "chi"], 0, reply_to=5)
    client._state(answer, 13)
    assert not client.offers_nothing() and client._frame is None
    assert client.legal == [{"type": "pass"}, {"type": "chi"}]
    assert lt_frames.reply_to_of(answer) == 5 and lt_frames.reply_to_of(nothing) is None
    assert lt_frames.reply_to_of(_state_text(13, [], reply_to="a-b")) == "a-b"
    assert lt_frames.hand_number_of(answer) == 3
    assert client.frame is not None and client.frame["legal"] == client.legal  # the whole, when asked
    assert client.arrived(13) is not None and client.arrived(12) is not None and client.arrived(14) is None


def test_latencies_that_end_while_the_run_stops_are_left_out() -> None:
    stats = lt_stats.Stats(started=0.0)
    stats.record(1.0, 0.02, "discard")
    stats.stopping = True
    stats.record(89.9, 0.6, "discard")  # its sockets were closing
    assert stats.latencies == [0.02] and list(stats.by_window) == [0]
