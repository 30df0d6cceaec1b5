"""RULES §6.4 optional extras through the hand machine: 开局换牌, 搓牌, the 海底捞月 reserve."""

from __future__ import annotations

import pytest

from games.engine.actions import Action, apply, legal_actions, new_hand, replay
from games.engine.errors import EngineError
from games.engine.invariants import violations
from games.engine.simulate import play_hand
from games.engine.state import evolve
from games.engine.tiles import parse, tiles_of

T = parse


def test_all_extras_are_off_by_default():
    state = new_hand("two_player", 3)
    assert state.phase == "turn"
    assert all(a.type != "cuopai" for a in legal_actions(state, state.turn))
    assert state.option("reserve") is False


# -- 开局换牌 -------------------------------------------------------------------


def test_exchange_opens_a_pre_hand_phase_for_both_players():
    state = new_hand("two_player", 5, options={"exchange": True})
    assert state.phase == "choose"
    for seat in (0, 1):
        legal = legal_actions(state, seat)
        assert legal[0] == Action("exchange")  # keeping everything is listed first (the timeout default)
        assert all(a.type == "exchange" for a in legal)


def test_exchange_returns_any_subset_and_draws_as_many():
    state = new_hand("two_player", 5, options={"exchange": True})
    held = tiles_of(state.players[1].concealed)
    returned = tuple(held[:3])  # three tiles: not listed in legal, accepted all the same
    assert Action("exchange", tiles=returned) not in legal_actions(state, 1)
    after, _ = apply(state, 1, Action("exchange", tiles=returned))
    p = after.players[1]
    assert p.hand_size == 13
    assert violations(after) == []
    # still waiting for seat 0; then play starts with the dealer's draw
    assert after.phase == "choose" and legal_actions(after, 1) == []
    after, _ = apply(after, 0, Action("exchange"))
    assert after.phase == "turn" and after.players[after.dealer].hand_size == 14
    assert violations(after) == []


def test_the_dealer_exchanges_from_fourteen_tiles():
    # the seed: "莊家發完14張牌、閑家發完13張牌后,系統允許玩家選擇需要換掉的麻將牌"
    for seed in range(6):
        state = new_hand("two_player", seed, options={"exchange": True}, dealer=seed % 2)
        dealer, other = state.dealer, 1 - state.dealer
        assert state.phase == "choose"
        assert state.players[dealer].hand_size == 14 and state.players[other].hand_size == 13
        assert violations(state) == []
        fourteenth = state.players[dealer].drawn
        assert fourteenth is not None
        assert Action("exchange", tiles=(fourteenth,)) in legal_actions(state, dealer)
        head = state.head
        state, _ = apply(state, other, Action("exchange"))
        state, _ = apply(state, dealer, Action("exchange", tiles=(fourteenth,)))
        # play starts with the dealer's discard: no further draw from the wall
        assert state.phase == "turn" and state.turn == dealer and state.head == head + 1
        assert state.players[dealer].hand_size == 14 and state.players[other].hand_size == 13
        assert all(a.type in ("discard", "kong", "win") for a in legal_actions(state, dealer))
        assert violations(state) == []


def test_exchange_only_of_tiles_held_and_only_once():
    state = new_hand("two_player", 5, options={"exchange": True})
    missing = next(t for t in range(34) if t in T("123456789m1234567z") and not state.players[1].concealed[t])
    with pytest.raises(EngineError):
        apply(state, 1, Action("exchange", tiles=(missing,)))
    state, _ = apply(state, 1, Action("exchange"))
    with pytest.raises(EngineError):
        apply(state, 1, Action("exchange"))


def test_exchange_replays_exactly():
    state = new_hand("two_player", 8, options={"exchange": True})
    returned = tuple(tiles_of(state.players[1].concealed)[:2])
    log = [(1, Action("exchange", tiles=returned)), (0, Action("exchange"))]
    final = state
    for seat, a in log:
        final, _ = apply(final, seat, a)
    again, _ = replay("two_player", 8, log, options={"exchange": True})
    assert again == final


# -- 搓牌 ---------------------------------------------------------------------


def test_cuopai_offers_a_swap_of_the_drawn_tile_for_a_wall_tile():
    state = new_hand("two_player", 2, options={"cuopai": True, "cuopai_p": 1.0})
    seat = state.turn
    offers = [a for a in legal_actions(state, seat) if a.type == "cuopai"]
    assert offers, "with p = 1 every draw is offered"
    wanted = offers[0].tile
    in_wall_before = state.wall[state.head : state.tail].count(wanted)
    after, _ = apply(state, seat, offers[0])
    p = after.players[seat]
    assert p.drawn == wanted and p.concealed[wanted] == state.players[seat].concealed[wanted] + 1
    assert after.wall[after.head : after.tail].count(wanted) == in_wall_before - 1
    assert after.wall_left == state.wall_left
    assert all(a.type != "cuopai" for a in legal_actions(after, seat)), "one swap per draw"
    assert violations(after) == []


def test_cuopai_never_offered_when_p_is_zero_or_after_a_claim():
    state = new_hand("two_player", 2, options={"cuopai": True, "cuopai_p": 0.0})
    assert all(a.type != "cuopai" for a in legal_actions(state, state.turn))
    state = new_hand("two_player", 2, options={"cuopai": True, "cuopai_p": 1.0})
    claimed = evolve(state, turn_start="claim")
    assert all(a.type != "cuopai" for a in legal_actions(claimed, state.turn))


# -- 游戏中换牌: a pung from the wall offered after a draw ------------------------------------

SWAP = {"swap_pung": True, "swap_pung_p": 1.0}


def _offer(state):
    return next((a for a in legal_actions(state, state.turn) if a.type == "swap"), None)


def test_the_pung_exchange_is_a_house_rule_off_by_default():
    for seed in range(10):
        state = new_hand("two_player", seed)
        assert state.option("swap_pung") is False and _offer(state) is None


def test_after_a_draw_the_system_offers_a_pung_of_the_wall_for_three_tiles_of_the_players_choice():
    # the seed: "輪到玩家自己摸到牌后選擇出牌時(有一定概率),系統將在所有沒打出和沒配到玩家手上的牌中選擇一個
    # 刻子給予玩家換牌": a kind with three tiles in the drawable wall; the player gives three tiles back
    state = new_hand("two_player", 4, options=SWAP)
    seat = state.turn
    offer = _offer(state)
    assert offer is not None and len(offer.tiles) == 3 and offer.tile not in offer.tiles
    kind = offer.tile
    live = state.wall[state.head : state.tail]
    assert live.count(kind) >= 3
    held = state.players[seat].concealed
    given = tuple(sorted(t for t in tiles_of(held) if t != kind)[:3])  # not the suggested three
    after, events = apply(state, seat, Action("swap", kind, tiles=given))
    assert events == [{"type": "swap", "seat": seat}]  # the opponent learns no tile
    p = after.players[seat]
    assert p.concealed[kind] == held[kind] + 3 and p.hand_size == 14
    assert after.wall[after.head : after.tail].count(kind) == live.count(kind) - 3
    assert after.wall_left == state.wall_left and after.turn == seat and after.phase == "turn"
    assert _offer(after) is None, "one offer per draw"
    assert violations(after) == []


def test_a_pung_exchange_must_give_three_held_tiles_and_take_the_offered_kind():
    state = new_hand("two_player", 4, options=SWAP)
    seat, offer = state.turn, _offer(state)
    held = tiles_of(state.players[seat].concealed)
    missing = next(t for t in T("123456789m1234567z") if t not in held and t != offer.tile)
    others = [t for t in held if t != offer.tile]
    bad = [
        Action("swap", offer.tile, tiles=tuple(others[:2])),  # two tiles
        Action("swap", offer.tile, tiles=(*others[:2], missing)),  # one not held
        Action("swap", next(t for t in T("1234567z") if t != offer.tile), tiles=tuple(others[:3])),
    ]
    for action in bad:
        with pytest.raises(EngineError):
            apply(state, seat, action)
    with pytest.raises(EngineError):  # not the other player's to take
        apply(state, 1 - seat, offer)


def test_no_pung_exchange_after_a_claim_or_a_ready_declaration_or_when_p_is_zero():
    assert _offer(new_hand("two_player", 4, options={**SWAP, "swap_pung_p": 0.0})) is None
    state = new_hand("two_player", 4, options=SWAP)
    assert _offer(evolve(state, turn_start="claim")) is None
    assert _offer(state.with_player(state.turn, ready=True)) is None


def test_the_offers_come_from_the_hands_salt_and_the_record_verifies():
    from games.engine.record import hand_record, verify_record
    from games.engine.wall import new_salt

    options = {**SWAP, "swap_pung_p": 0.5}
    for _ in range(5):  # the salt alone decides the offer (the seed is not used once there is a salt)
        salt = new_salt()
        first = new_hand("two_player", 9, salt=salt, options=options)
        assert _offer(first) == _offer(new_hand("two_player", 77, salt=salt, options=options))
    swaps = 0
    for seed in range(40):
        salt = new_salt()
        state, log, problems = play_hand("two_player", seed, bot="random", salt=salt, options=options)
        assert problems == []
        swaps += sum(1 for _s, a in log if a.type == "swap")
        actions = [(s, a.to_json(), "bot") for s, a in log]
        record = hand_record("two_player", seed, {"options": options, "salt": salt}, actions, ["a", "b"])
        assert verify_record(record)["ok"]
    assert swaps > 0, "random bots take some offers"


# -- the 海底捞月 reserve -----------------------------------------------------------


def test_reserve_tiles_are_not_drawn_and_nobody_ready_means_a_drawn_hand():
    final, log, problems = play_hand("two_player", 4, bot="random", options={"reserve": True, "reserve_n": 8})
    assert problems == []
    if final.result.drawn and not final.ready_order:
        assert final.wall_left == 8 and not final.reserve_drawn


def test_reserve_tile_goes_to_the_ready_player_and_a_win_on_it_is_a_self_draw():
    state = new_hand("two_player", 6, options={"reserve": True, "reserve_n": 8})
    # bring the wall down to the reserve plus one tile, with seat 1 declared ready
    state = evolve(state, head=state.tail - 9, ready_order=(1,))
    state = state.with_player(1, ready=True)
    seat = state.turn
    t = state.players[seat].drawn
    state, _ = apply(state, seat, Action("discard", t))
    while state.phase == "claim":
        waiting = [s for s in (0, 1) if legal_actions(state, s)]
        state, _ = apply(state, waiting[0], Action("pass"))
    # the other seat drew the last normal tile; after its discard only the reserve is left
    assert state.wall_left == 8
    other = state.turn
    t = state.players[other].drawn
    state, _ = apply(state, other, Action("discard", t))
    while state.phase == "claim":
        waiting = [s for s in (0, 1) if legal_actions(state, s)]
        state, _ = apply(state, waiting[0], Action("pass"))
    if state.phase == "turn":
        assert state.reserve_drawn and state.turn == 1 and state.wall_left == 7
        # whatever seat 1 does next, no further tile is drawn: the hand ends after its discard
        p = state.players[1]
        state, _ = apply(state, 1, Action("discard", p.drawn))
        while state.phase == "claim":
            waiting = [s for s in (0, 1) if legal_actions(state, s)]
            state, _ = apply(state, waiting[0], Action("pass"))
        assert state.phase == "over"
