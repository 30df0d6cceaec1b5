"""Cantonese (RULES §4) through the hand machine: 漏和, 一炮三响, 杠上开花包杠, robbing only added kongs."""

from __future__ import annotations

import pytest

from games.engine.actions import Action, apply, legal_actions, seats_to_act
from games.engine.errors import IllegalAction
from games.engine.scenario import scenario
from games.engine.tiles import tile

T = tile


def pass_all(state):
    while state.phase == "claim":
        state, _ = apply(state, seats_to_act(state)[0], Action("pass"))
    return state


def test_a_passed_win_locks_that_tile_until_the_player_draws():
    # seat 1 waits on 5p; seat 2 discards 5p and seat 1 passes; later the dealer discards 5p too
    state = scenario(
        "cantonese",
        hands=["111z222z333z9p8s1s2s", "123m456m789s11s46p", "147m258p369s1234z", "369m147p258s4z5z6z7z"],
        draws="7z6z5p2s5p",
    )
    state = pass_all(apply(state, 0, Action("discard", T("7z")))[0])
    state = pass_all(apply(state, 1, Action("discard", T("6z")))[0])
    state, _ = apply(state, 2, Action("discard", T("5p")))
    assert Action("win", T("5p")) in legal_actions(state, 1)
    state = pass_all(apply(state, 1, Action("pass"))[0])
    assert state.players[1].win_lock
    state = pass_all(apply(state, 3, Action("discard", T("2s")))[0])
    state, _ = apply(state, 0, Action("discard", T("5p")))
    # §4.2: the same tile, discarded by anyone, cannot be won until seat 1 draws, chi, pong or kong;
    # seat 1 may still chi it (4p 6p), so the claim window is open for it
    legal = legal_actions(state, 1)
    assert Action("chi", T("5p"), tiles=(12, 13, 14)) in legal
    assert Action("win", T("5p")) not in legal
    with pytest.raises(IllegalAction) as refused:
        apply(state, 1, Action("win", T("5p")))
    assert refused.value.code == "missed_win"
    state = pass_all(apply(state, 1, Action("pass"))[0])
    # seat 1 draws next: the draw ends the lock
    assert state.turn == 1 and not state.players[1].win_lock


def test_one_discard_three_winners_the_discarder_pays_each_three_times():
    state = scenario(
        "cantonese",
        hands=["111z222z333z444z5z", "123m456m789s11s46p", "234m567m789p22s46p", "345m678m123p33s55p"],
        draws="6z7z7z7z5p",
    )
    # one quiet go-round first, so that nobody's win is 人和 (a win before one's first draw)
    for seat, t in enumerate(("6z", "7z", "7z", "7z")):
        state = pass_all(apply(state, seat, Action("discard", T(t)))[0])
    state, _ = apply(state, 0, Action("discard", T("5p")))
    for seat in (1, 2, 3):
        state, _ = apply(state, seat, Action("win", T("5p")))
    result = state.result
    assert result.winners == (1, 2, 3)
    # §4.5: each winner of 一炮三响 is raised to 3 fan (value 8); §4.6: the discarder pays each 3 × 8
    assert [s.value for s in result.scores] == [8, 8, 8]
    assert result.payments == (-72, 24, 24, 24)


def test_kong_bloom_after_an_exposed_kong_the_kong_discarder_pays_for_all():
    state = scenario(
        "cantonese",
        hands=["111z222z333z444z6z", "555m123p456p789p1s", "147m258p369s1237z", "369m147p258s4z5z7z9m"],
        draws="5m",
        replacements="1s",
    )
    state, _ = apply(state, 0, Action("discard", T("5m")))
    state, _ = apply(state, 1, Action("kong", T("5m"), kind="exposed"))
    assert state.turn == 1 and state.turn_start == "kong_replacement" and state.last_kong_from == 0
    state, _ = apply(state, 1, Action("win"))
    result = state.result
    assert result.by == "self_draw" and "kong_bloom" in result.scores[0].patterns
    value = result.scores[0].value
    assert value >= 8  # kong_bloom raises the hand to 3 fan at least
    # 杠上开花包杠: counted as self-draw, the player who discarded the kong tile pays for all three
    assert result.payments == (-3 * value, 3 * value, 0, 0)


def test_a_concealed_kong_cannot_be_robbed():
    state = scenario(
        "cantonese",
        hands=["1111z222z333z9p8s1s", "123m456m789s11s79p", "147m258p369s2345z", "369m147p258s5z6z7z9m"],
        draws="8p",
        replacements="2s",
    )
    # seat 1 waits on 8p... and on 1z? no: it cannot rob a concealed kong of 1z whatever it waits on
    state, _ = apply(state, 0, Action("kong", T("1z"), kind="concealed"))
    assert state.phase == "turn" and state.turn == 0 and state.window is None


def test_the_missed_win_lock_meets_bots_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.restrictions_in_play import codes_met_in_play

    assert codes_met_in_play("cantonese", {"missed_win"}, monkeypatch) == {"missed_win"}
