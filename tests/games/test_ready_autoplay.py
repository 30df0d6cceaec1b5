"""Two-player 报听: after declaring, the server draws and discards for the declared hand (the rules
page says so), at a table with no timer too; the board says so instead of "Your turn: choose a
tile…"; a hand that may win is still asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from games.engine.actions import Action, apply
from games.engine.scenario import scenario
from games.engine.tiles import tile
from games.rendering.fragments import render_table_html
from games.table import timing
from tests.games.test_rendering import context, table_info
from tests.moves import pass_all

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def declared_and_drawn() -> Any:
    """Seat 0 declares 报听 discarding 3z; seat 1 discards 6z; seat 0 draws 4m (not a win)."""
    state = scenario("two_player", hands=["1133557799m11z2z", "2345678m334455z"], draws="3z6z4m")
    state, _ = apply(state, 0, Action("discard", tile("3z"), ready=True))
    state = pass_all(state)
    state, _ = apply(state, 1, Action("discard", tile("6z")))
    return pass_all(state)


def due(state: Any, seat: int) -> datetime | None:
    """When the server acts for `seat` at a connected table with no timer."""
    ctx = SimpleNamespace(
        table=SimpleNamespace(act_since=NOW, claim_seconds=0, turn_seconds=0),
        state=state,
        hand=SimpleNamespace(seed=7),
    )
    person = SimpleNamespace(
        index=seat, pending=None, is_bot=False, left=False, auto=False, connected=True, disconnected_at=None
    )
    return timing.seat_due(ctx, person)  # type: ignore[arg-type]


def test_the_server_discards_the_draw_of_a_declared_hand_even_with_no_timer() -> None:
    state = declared_and_drawn()
    assert state.turn == 0 and state.players[0].ready
    assert timing.locked_by_ready(state, 0)
    when = due(state, 0)
    assert when is not None and NOW < when <= NOW + timedelta(seconds=timing.BOT_DELAY[1])


def test_an_undeclared_hand_at_a_table_with_no_timer_is_never_played_for() -> None:
    state = scenario("two_player", hands=["1133557799m11z2z", "2345678m334455z"], draws="3z6z4m")
    assert not timing.locked_by_ready(state, 0)
    assert due(state, 0) is None


def test_a_declared_hand_that_may_win_is_asked() -> None:
    state = scenario("two_player", hands=["1133557799m11z2z", "2345678m334455z"], draws="3z6z2z")
    state, _ = apply(state, 0, Action("discard", tile("3z"), ready=True))
    state, _ = apply(pass_all(state), 1, Action("discard", tile("6z")))
    state = pass_all(state)  # seat 0 draws 2z: seven pairs, a win on offer
    assert state.turn == 0 and not timing.locked_by_ready(state, 0)
    assert due(state, 0) is None


def test_the_board_says_the_server_plays_the_declared_hand() -> None:
    state = declared_and_drawn()
    html = render_table_html(context(state, 0, table_info(2, 0, variant="two_player")), "en")
    assert "ready-hint" in html and "the server discards your drawn tile" in html
    assert "choose a tile, then click it again" not in html
