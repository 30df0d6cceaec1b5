"""The hand machine (games/engine/actions.py), rule by rule from RULES §1."""

from __future__ import annotations

import pytest

from games.engine.actions import Action, apply, auto_action, legal_actions, new_hand, replay, seats_to_act
from games.engine.errors import EngineError
from games.engine.invariants import violations
from games.engine.scenario import scenario
from games.engine.state import Meld, evolve
from games.engine.tiles import is_flower, parse, tile

P = parse
T = tile


def discard(state, seat, t):
    return apply(state, seat, Action("discard", T(t)))[0]


def test_deal_gives_13_each_and_the_dealer_draws_the_14th():
    state = new_hand("cantonese", seed=7, dealer=2)
    sizes = [p.hand_size for p in state.players]
    assert sizes == [13, 13, 14, 13]
    assert state.turn == 2 and state.phase == "turn"
    assert state.wall_left == 136 - 53
    assert violations(state) == []


def test_flowers_are_laid_open_and_replaced_at_the_deal():
    # RULES §1.10: a flower is never kept; over many seeds every dealt flower was replaced
    for seed in range(30):
        state = new_hand("shanghai", seed=seed)
        assert all(
            not any(is_flower(t) for t in range(34) if p.concealed[t] and t >= 34) for p in state.players
        )
        laid = sum(len(p.flowers) for p in state.players)
        # every laid flower cost one tile from the back of the wall
        assert state.wall_left == 144 - 53 - laid
        assert violations(state) == []


def test_a_flower_drawn_in_play_is_replaced_from_the_back():
    state = scenario(
        "shanghai",
        hands=[
            "123m456m789m123p4p",
            "1s2s3s4s5s6s7s8s9s1z1z2z2z",
            "3z3z4z4z5z5z6z6z7z7z9p9p8p",
            "11p22p33p55s66s7p7p8p",
        ],
        draws="9m3f",
        replacements="5p",
    )
    state = discard(state, 0, "9m")
    # nobody can use 9m → seat 1 draws 3f, lays it open, draws 5p from the back
    assert state.phase == "turn" and state.turn == 1
    p = state.players[1]
    assert p.flowers == (T("3f"),)
    assert p.drawn == T("5p")
    assert state.turn_start == "flower_replacement"


def _pong_vs_chi_state():
    # seat 0 discards 5m; seat 1 (next) can chi with 4m6m; seat 2 can pong with 5m5m
    return scenario(
        "shanghai",
        hands=["111z222z333z9p8s1s2s", "46m123p456p789p1s2s", "55m789s123s456s9p9s", "77m88m99m11p22p3p3p4p"],
        draws="5m",
    )


def test_pong_beats_chi_and_the_turn_moves_to_the_claimer():
    state = discard(_pong_vs_chi_state(), 0, "5m")
    assert state.phase == "claim"
    assert sorted(seats_to_act(state)) == [1, 2]
    chi = Action("chi", T("5m"), tiles=tuple(P("456m")))
    assert chi in legal_actions(state, 1)
    assert Action("pong", T("5m")) in legal_actions(state, 2)
    state, _ = apply(state, 1, chi)
    assert state.phase == "claim"  # still waiting for seat 2
    state, _ = apply(state, 2, Action("pong", T("5m")))
    assert state.phase == "turn" and state.turn == 2 and state.turn_start == "claim"
    assert state.players[2].melds[-1].kind == "pong"
    assert state.players[1].melds == ()
    # after a pong the claimer must discard: no self-draw win, no draw happened
    assert all(a.type == "discard" or a.type == "kong" for a in legal_actions(state, 2))
    assert violations(state) == []


def test_chi_only_from_the_previous_player():
    state = discard(_pong_vs_chi_state(), 0, "5m")
    # seat 3 holds no 4m/6m anyway, and seat 2 holds 5m5m but is not next: it gets no chi
    assert all(a.type != "chi" for a in legal_actions(state, 2))


def test_nobody_claims_then_the_next_player_draws():
    state = discard(_pong_vs_chi_state(), 0, "5m")
    state, _ = apply(state, 1, Action("pass"))
    state, _ = apply(state, 2, Action("pass"))
    assert state.phase == "turn" and state.turn == 1 and state.players[1].hand_size == 14


def test_several_winners_on_one_discard_in_order_next_opposite_previous():
    # seats 1 and 3 both wait on 5p; seat 0 discards it
    state = scenario(
        "shanghai",
        hands=["111z222z333z9p8s1s2s", "123m456m789s11s46p", "147m258p369s1234z", "456m789m123s99s55p"],
        draws="5p",
    )
    state = discard(state, 0, "5p")
    assert Action("win", T("5p")) in legal_actions(state, 1)
    assert Action("win", T("5p")) in legal_actions(state, 3)
    state, _ = apply(state, 3, Action("win", T("5p")))
    state, _ = apply(state, 1, Action("win", T("5p")))
    assert state.phase == "over"
    assert state.result.winners == (1, 3)  # next (1) before previous (3)
    assert state.result.by == "discard" and state.result.from_seat == 0
    assert sum(state.result.payments) == 0


def test_exposed_kong_draws_a_replacement_from_the_back():
    state = scenario(
        "shanghai",
        hands=["111z222z333z9p8s1s2s", "123m789m789s11s46p", "555m789s123s456s9p", "77m88m99m11p22p3p3p4p"],
        draws="5m",
        replacements="9m",
    )
    state = discard(state, 0, "5m")
    state, _ = apply(state, 2, Action("kong", T("5m"), kind="exposed"))
    p = state.players[2]
    assert p.melds[-1].kind == "kong" and p.melds[-1].from_seat == 0
    assert state.turn == 2 and p.drawn == T("9m") and state.turn_start == "kong_replacement"
    assert violations(state) == []


def test_concealed_kong_on_own_turn():
    state = scenario(
        "shanghai",
        hands=["1111z222z333z9p8s1s", "123m456m789s11s46p", "147m258p369s2345z", "456m789m123s99s55p"],
        draws="2m",
        replacements="3m",
    )
    kong = Action("kong", T("1z"), kind="concealed")
    assert kong in legal_actions(state, 0)
    state, _ = apply(state, 0, kong)
    assert state.players[0].melds[-1].kind == "concealed_kong"
    assert state.players[0].drawn == T("3m")


def _pass_all(state):
    while state.phase == "claim":
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, Action("pass"))
    return state


def _with_pong_of_9p(state):
    """Seat 0 gives up 1s 3s 4s for a pong of 9p claimed from seat 3 earlier (10 concealed + drawn)."""
    c = bytearray(state.players[0].concealed)
    for t in P("3s4s1s"):
        c[t] -= 1
    return state.with_player(0, concealed=bytes(c), melds=(Meld("pong", (T("9p"),) * 3, 3, T("9p")),))


def test_robbing_an_added_kong():
    # seat 0 draws the 4th 9p onto its pong; seat 2 waits on 6p/9p
    state = scenario(
        "shanghai",
        hands=["111z222z333z1s2s3s4s", "234m567m123p55s46p", "123m456m789s11s78p", "456m789m123s99s55p"],
        draws="9p",
    )
    state = _with_pong_of_9p(state)
    kong = Action("kong", T("9p"), kind="added")
    assert kong in legal_actions(state, 0)
    state, _ = apply(state, 0, kong)
    assert state.phase == "claim" and state.window.kind == "rob"
    assert legal_actions(state, 2) == [Action("win", T("9p")), Action("pass")]
    assert legal_actions(state, 1) == []
    state, _ = apply(state, 2, Action("win", T("9p")))
    assert state.result.winners == (2,) and state.result.by == "robbing_kong" and state.result.from_seat == 0


def test_an_added_kong_nobody_robs_completes_with_a_replacement():
    state = scenario(
        "shanghai",
        hands=["111z222z333z1s2s3s4s", "234m567m123p55s46p", "147m258p369s1234z", "456m789m123s99s55p"],
        draws="9p",
        replacements="6s",
    )
    state, _ = apply(_with_pong_of_9p(state), 0, Action("kong", T("9p"), kind="added"))
    assert state.phase == "turn" and state.turn == 0
    assert state.players[0].melds[0].kind == "added_kong"
    assert state.players[0].drawn == T("6s") and state.turn_start == "kong_replacement"


def test_exhaustive_draw_when_the_wall_is_empty():
    state = new_hand("cantonese", seed=3)
    state = evolve(state, head=state.tail)  # nothing left to draw
    t = state.players[0].drawn
    state, _ = apply(state, 0, Action("discard", t))
    state = _pass_all(state)
    assert state.phase == "over" and state.result.drawn and state.result.winners == ()


def test_error_codes():
    state = _pong_vs_chi_state()
    with pytest.raises(EngineError) as e:
        apply(state, 1, Action("discard", T("4m")))
    assert e.value.code == "not_your_turn"
    with pytest.raises(EngineError) as e:
        apply(state, 0, Action("discard", T("9m")))  # not in hand
    assert e.value.code == "illegal_action"
    with pytest.raises(EngineError) as e:
        apply(state, 0, Action("discard", T("1z")), expected_step=state.step + 1)
    assert e.value.code == "stale_version"
    with pytest.raises(EngineError) as e:
        apply(state, 7, Action("pass"))
    assert e.value.code == "bad_seat"


def test_auto_action_passes_claims_and_discards_the_drawn_tile():
    state = _pong_vs_chi_state()
    assert auto_action(state, 0) == Action("discard", T("5m"))
    state = discard(state, 0, "5m")
    assert auto_action(state, 1) == Action("pass")
    assert auto_action(state, 0) is None


def test_auto_action_takes_a_win():
    state = scenario(
        "shanghai",
        hands=["111z222z333z9p8s1s2s", "123m456m789s11s46p", "147m258p369s1234z", "456m789m123s99s55p"],
        draws="5p",
    )
    state = discard(state, 0, "5p")
    assert auto_action(state, 1) == Action("win", T("5p"))


def test_replay_rebuilds_the_identical_state():
    from games.engine.simulate import play_hand

    for variant in ("shanghai", "cantonese", "two_player"):
        final, log, problems = play_hand(variant, 11)
        assert problems == []
        again, _ = replay(variant, 11, log)
        assert again == final


def test_action_json_round_trip_and_bad_actions():
    for a in (
        Action("discard", T("5m")),
        Action("discard", T("5m"), ready=True),
        Action("chi", T("4m"), tiles=tuple(P("345m"))),
        Action("kong", T("1z"), kind="concealed"),
        Action("pass"),
        Action("choose", kind="lazhuang", value=2),
    ):
        assert Action.from_json(a.to_json()) == a
    for bad in (
        None,
        [],
        {"type": "fly"},
        {"type": "discard", "tile": "0m"},
        {"type": "pass", "x": 1},
        {"type": "choose", "value": True},
        {"type": "discard", "tile": 5},
    ):
        with pytest.raises(EngineError) as e:
            Action.from_json(bad)
        assert e.value.code == "bad_action"
