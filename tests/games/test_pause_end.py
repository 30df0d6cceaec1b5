"""The end of the pause after a discard renders again only the viewers whose board it may change:
a player outside a claim window the discard opened stays veiled (docs/protocol.md, "Claim
windows"), so that frame would be the one already shown, and it is not rendered at all."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.rendering.presenters import shared_load
from games.sockets.table import still_veiled
from games.table import snapshots
from tests.games.test_services import table_at_a_claim


def test_only_a_player_outside_the_open_claim_window_stays_veiled(alice: User, bob: User) -> None:
    table, _claim, _now = table_at_a_claim(alice)
    shared_load(table.pk)  # the snapshot of this version, as a socket's render keeps it
    snapshot = snapshots.at(table.pk, table.revision)
    assert snapshot is not None
    state = snapshot.states[(snapshot.hand.pk, snapshot.hand.actions_count)]  # type: ignore[union-attr]
    assert state.phase == "claim" and state.window is not None
    assert not still_veiled(snapshot, alice)  # in the window: she sees it (and answers it)
    assert not still_veiled(snapshot, None)  # a spectator: rendered as before (a delay may apply)
    outside = [s for s in snapshot.seats if s.index not in state.window.waiting_for() and s.index != 0]
    if not outside:
        pytest.skip("every seat may claim this discard")
    outside[0].user_id = bob.pk  # bob plays a seat the window does not include
    try:
        assert still_veiled(snapshot, bob)
    finally:
        snapshots.forget(table.pk)
