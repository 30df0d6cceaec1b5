"""Tianjin (RULES §5) in play: indicator and jokers, 坐庄/拉庄, no chi, self-draw only, 小相公, kongs, 铲."""

from __future__ import annotations

import json

import pytest

from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.errors import EngineError
from games.engine.invariants import violations
from games.engine.scenario import scenario
from games.engine.state import evolve
from games.engine.tiles import name, next_in_cycle, parse, tile
from games.engine.view import view_for

T = tile


def choose_all(state, zuo=0, la=(0, 0, 0, 0)):
    for seat in range(4):
        if seat == state.dealer:
            state, _ = apply(state, seat, Action("choose", kind="zuozhuang", value=zuo))
        else:
            state, _ = apply(state, seat, Action("choose", kind="lazhuang", value=la[seat]))
    return state


def test_the_indicator_is_turned_up_from_the_tail_and_taken_out_of_play():
    for seed in range(20):
        dealt = new_hand("tianjin", seed)
        # §5.3: the indicator's kind and the next kind are jokers (3 + 4 = 7 joker tiles in play)
        assert dealt.indicator is not None and dealt.joker_dice is not None
        assert dealt.jokers == (dealt.indicator, next_in_cycle(dealt.indicator))
        assert dealt.tail == 136 - 1  # one tile fewer in the live wall: the indicator
        assert violations(dealt) == []
        assert view_for(choose_all(dealt), None)["indicator"] is not None  # shown once all chose


def test_before_the_deal_the_dealer_chooses_zuozhuang_and_the_others_lazhuang():
    state = new_hand("tianjin", 3, dealer=2)
    assert state.phase == "choose" and sorted(seats_to_act(state)) == [0, 1, 2, 3]
    assert {a.kind for a in legal_actions(state, 2)} == {"zuozhuang"}
    assert [a.value for a in legal_actions(state, 0)] == [0, 1, 2]
    state, _ = apply(state, 0, Action("choose", kind="lazhuang", value=2))
    # choices are shown all at once: nobody sees seat 0's choice yet
    assert "choices" not in view_for(state, 1)
    with pytest.raises(EngineError):
        apply(state, 0, Action("choose", kind="lazhuang", value=1))  # once only
    state = choose_all_rest(state)
    assert state.phase == "turn" and state.turn == 2
    assert view_for(state, 1)["choices"] == {"zuozhuang": True, "lazhuang": [2, 1, 0, 0]}


def _hidden_during_the_choice(view, true_hands, indicator):
    text = json.dumps(view)
    for entry in view["seats"]:
        assert "hand" not in entry and "drawn" not in entry, entry
    assert view["indicator"] is None and view["jokers"] == []
    assert "waits" not in view and "discard_waits" not in view
    assert all(json.dumps(hand) not in text for hand in true_hands)
    assert f'"indicator": "{indicator}"' not in text


def test_zuozhuang_and_lazhuang_are_chosen_blind():
    # the seed: "坐庄:在游戏开始后,玩家拿牌前…", "拉庄:在游戏开始后,玩家拿牌前…": nobody sees a tile or
    # the joker indicator until every choice is made; then the hands and the 开混 are shown
    for seed in range(5):
        state = new_hand("tianjin", seed, dealer=seed % 4)
        over = evolve(state, phase="over")  # the same deal, every hand open: the true hands
        true_hands = [view_for(over, s)["seats"][s]["hand"] for s in range(4)]
        indicator = view_for(over, None)["indicator"]
        order = [s for s in range(4) if s != state.dealer] + [state.dealer]
        for chooser in order:
            for viewer in (None, 0, 1, 2, 3):
                _hidden_during_the_choice(view_for(state, viewer), true_hands, indicator)
            kind = "zuozhuang" if chooser == state.dealer else "lazhuang"
            state, events = apply(state, chooser, Action("choose", kind=kind, value=1))
        assert state.phase == "turn"
        for seat in range(4):
            seen = view_for(state, seat)
            assert sorted(seen["seats"][seat]["hand"]) == sorted(
                true_hands[seat] + ([name(state.players[seat].drawn)] if seat == state.dealer else [])
            )
            assert seen["indicator"] == indicator and seen["jokers"]


def choose_all_rest(state):
    state, _ = apply(state, 1, Action("choose", kind="lazhuang", value=1))
    state, _ = apply(state, 3, Action("choose", kind="lazhuang", value=0))
    state, _ = apply(state, 2, Action("choose", kind="zuozhuang", value=1))
    return state


def _rigged(draws: str, hands=None, jokers="7z6z"):
    state = scenario(
        "tianjin",
        hands=hands or ["123m456m789p234s5s", "147m258p369s1234z", "258m369p147s1234z", "369m147p258s1234z"],
        draws=draws,
        jokers=jokers,
        choose=True,
    )
    return state


def test_a_self_draw_win_is_paid_with_the_pair_multipliers():
    # dealer 0 chooses 坐庄, seat 1 拉两庄: m(0,1) = 2 × 2^2 = 8; m(0,k) = 2 for seats 2, 3
    state = choose_all(_rigged("5s"), zuo=1, la=(0, 2, 0, 0))
    assert Action("win") in legal_actions(state, 0)
    state, _ = apply(state, 0, Action("win"))
    value = state.result.scores[0].value  # clean ×2 → 2
    assert value == 2
    assert state.result.payments == (2 * (8 + 2 + 2), -2 * 8, -2 * 2, -2 * 2)


def test_no_chi_and_no_win_on_a_discard():
    # seat 1 waits on 5s and holds 4s6s-ish tiles; the dealer discards 5s: no win, no chi offered
    hands = ["123m456m789p234s5s", "123p456p789m46s11z", "258m369p147s1234z", "369m147p258s1234z"]
    state = choose_all(_rigged("1s", hands=hands))
    state, _ = apply(state, 0, Action("discard", T("5s")))
    assert all(a.type not in ("chi", "win") for a in legal_actions(state, 1))


def test_discarding_a_joker_forbids_winning_this_hand():
    # 小相公: the dealer holds a joker (7z), discards it, and can never win afterwards
    hands = ["123m456m789p234s5s", "147m258p369s1234z", "258m369p147s1234z", "369m147p258s1236z"]
    state = choose_all(_rigged("7z", hands=hands))
    state, _ = apply(state, 0, Action("discard", T("7z")))
    assert state.players[0].discarded_joker
    assert view_for(state, 2)["seats"][0]["discarded_joker"]


def test_no_pong_of_a_joker_kind():
    # seat 0 discards a joker tile (7z is a joker kind here): seat 1 holds two 7z but may not pong
    hands = ["123m456m789p234s5s", "147m258p369s12z77z", "258m369p147s1234z", "369m147p258s1234z"]
    state = choose_all(_rigged("7z", hands=hands))
    state, _ = apply(state, 0, Action("discard", T("7z")))
    assert all(a.type != "pong" for a in legal_actions(state, 1))


def test_the_first_four_discards_alike_make_the_dealer_pay_chan_even_in_a_drawn_hand():
    # every seat discards 1z in turn (dealer first); the draws give each a tile to keep
    hands = ["123m456m789p234s1z", "147m258p369s1234z", "258m369p147s1234z", "369m147p258s1234z"]
    state = choose_all(_rigged("4z9s9s9s", hands=hands))
    for seat in range(4):
        state, _ = apply(state, seat, Action("discard", T("1z")))
        while state.phase == "claim":
            waiting = seats_to_act(state)
            state, _ = apply(state, waiting[0], Action("pass"))
    assert state.first_discards == tuple(parse("1z1z1z1z"))
    state = evolve(state, head=state.tail)  # end the hand drawn at the next draw
    state, _ = apply(state, 0, Action("discard", state.players[0].drawn))
    while state.phase == "claim":
        state, _ = apply(state, seats_to_act(state)[0], Action("pass"))
    assert state.result.drawn
    assert ("chan", (-3, 1, 1, 1)) in state.result.extras


def _discard_and_pass(state, seat, text):
    state, _ = apply(state, seat, Action("discard", T(text)))
    while state.phase == "claim":
        state, _ = apply(state, seats_to_act(state)[0], Action("pass"))
    return state


def _end_drawn(state):
    state = evolve(state, head=state.tail)  # the next draw finds the wall empty
    state = _discard_and_pass(state, state.turn, name(state.players[state.turn].drawn))
    assert state.result.drawn
    return state


def test_a_concealed_kong_in_the_first_go_round_does_not_cancel_chan():
    # The seed counts discards ("如果三个闲家跟打庄家打出的牌"): seat 1 makes a concealed kong of 5m
    # before following the dealer's 1z; it claimed nobody's discard, so the go-round stands.
    hands = ["123m467m789p234s1z", "5555m258p369s123z", "289m369p147s1234z", "369m147p258s1234z"]
    state = choose_all(_rigged_with_back("4z9s9s9s", "8s", hands))
    state = _discard_and_pass(state, 0, "1z")
    state, _ = apply(state, 1, Action("kong", T("5m"), kind="concealed"))
    assert state.players[1].drawn == T("8s")
    for seat in (1, 2, 3):
        state = _discard_and_pass(state, seat, "1z")
    assert state.first_discards == tuple(parse("1z1z1z1z"))
    state = _end_drawn(state)
    assert ("chan", (-3, 1, 1, 1)) in state.result.extras


def test_a_pong_in_the_first_go_round_cancels_chan():
    # the control: seat 2 pongs the dealer's 5m, a claim that interrupts the go-round
    hands = ["123m456m789p234s5m", "147m258p369s1234z", "55m8m369p147s1234z", "369m147p258s1234z"]
    state = choose_all(_rigged_with_back("1z", "", hands))
    state, _ = apply(state, 0, Action("discard", T("5m")))
    state, _ = apply(state, 2, Action("pong", T("5m")))
    state = _discard_and_pass(state, 2, "1z")
    state = _discard_and_pass(state, 3, "1z")
    assert state.first_discards == tuple(parse("5m"))
    state = _end_drawn(state)
    assert not any(reason == "chan" for reason, _ in state.result.extras)


def _rigged_with_back(draws: str, replacements: str, hands):
    return scenario(
        "tianjin", hands=hands, draws=draws, replacements=replacements, jokers="7z6z", choose=True
    )


def test_the_joker_claim_ban_meets_bots_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.restrictions_in_play import codes_met_in_play

    assert codes_met_in_play("tianjin", {"joker_claim"}, monkeypatch) == {"joker_claim"}
