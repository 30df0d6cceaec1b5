"""expert's pong of an honour worth a fan (value_pong.py): taken in Cantonese where strong passes
and the pong keeps the hand as close to ready; strong's answer everywhere else; blind."""

from __future__ import annotations

import random
from dataclasses import replace

import games.engine.bots as bots
from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import PlayerView, decide, search
from games.engine.bots.policies import PASS, strong
from games.engine.bots.seen import OtherSeat
from games.engine.bots.value_pong import fan_honours, keep_fan_honour, value_pong
from games.engine.tiles import parse, tile
from games.engine.view import view_for
from tests.engine.test_bots import reshuffle_hidden
from tests.engine.threats import turn_view

# one from ready with a red-dragon pair: passing keeps 7z7z as the pair, the pong lays it and
# throws the lone 1z — the same distance either way
ONE_AWAY = "2m3m4m6m7m3p4p5p7s8s7z7z1z"


def _quiet() -> tuple[OtherSeat, ...]:
    return tuple(OtherSeat(s, tuple(parse("9m9p9s")), (), 0, 0, False, hand_count=13) for s in (1, 2, 3))


def _offered(variant: str, hand: str, discard: str, dealer: int = 0) -> PlayerView:
    """Seat 0's view when seat 2 has just thrown `discard` (the others quiet)."""
    view = turn_view(variant, hand, _quiet(), 74, dealer=dealer)
    return replace(view, phase="claim", last_discard=(2, tile(discard), "discard"))


def test_the_fan_honours_are_the_dragons_the_seat_wind_and_the_prevailing_wind() -> None:
    east_seat = _offered("cantonese", ONE_AWAY, "7z")
    assert fan_honours(east_seat) == frozenset(parse("1z5z6z7z"))
    # seat 0 with seat 1 dealing sits North; the prevailing wind is still East
    north_seat = _offered("cantonese", ONE_AWAY, "7z", dealer=1)
    assert fan_honours(north_seat) == frozenset(parse("1z4z5z6z7z"))


def test_a_dragon_pong_at_the_same_distance_is_taken_where_strong_passes() -> None:
    view = _offered("cantonese", ONE_AWAY, "7z")
    pong = Action("pong", tile("7z"))
    legal = [PASS, pong]
    base = strong(view, legal, random.Random(1))
    assert base == PASS
    assert value_pong(view, legal, base) == pong


def test_a_wind_worth_nothing_to_this_seat_is_left_to_strong() -> None:
    # West is neither seat 0's wind (East, dealing) nor the prevailing wind
    view = _offered("cantonese", "2m3m4m6m7m3p4p5p7s8s3z3z1z", "3z")
    legal = [PASS, Action("pong", tile("3z"))]
    base = strong(view, legal, random.Random(1))
    assert value_pong(view, legal, base) == base == PASS


def test_other_variants_and_a_ready_hand_are_left_to_strong() -> None:
    legal = [PASS, Action("pong", tile("7z"))]
    assert value_pong(_offered("shanghai", ONE_AWAY, "7z"), legal, PASS) == PASS
    ready = _offered("cantonese", "2m3m4m6m7m8m3p4p5p7s8s7z7z", "7z")
    assert value_pong(ready, legal, PASS) == PASS


def test_a_win_on_offer_is_left_to_strong() -> None:
    view = _offered("cantonese", ONE_AWAY, "7z")
    legal = [PASS, Action("pong", tile("7z")), Action("win", tile("7z"))]
    assert value_pong(view, legal, PASS) == PASS


# two lone honours beside a shape with no lone suited tile: strong throws East first (the lower
# tile of two alike), which is the seat's and the prevailing wind for the dealer
TWO_LONE_HONOURS = "2m3m6m7m3p4p5p7s8s9s5s5s1z2z"


def _discards(hand: str) -> list[Action]:
    return [Action("discard", t) for t in sorted(set(parse(hand)))]


def test_a_lone_honour_worth_nothing_is_thrown_before_one_worth_a_fan() -> None:
    view = turn_view("cantonese", TWO_LONE_HONOURS, _quiet(), 74)
    legal = _discards(TWO_LONE_HONOURS)
    base = strong(view, legal, random.Random(1))
    assert base.tile == tile("1z")
    assert keep_fan_honour(view, legal, base).tile == tile("2z")


def test_two_lone_honours_worth_a_fan_are_left_to_strong() -> None:
    # South is seat 0's own wind when seat 3 deals: both honours are worth a fan
    view = turn_view("cantonese", TWO_LONE_HONOURS, _quiet(), 74, dealer=3)
    legal = _discards(TWO_LONE_HONOURS)
    base = strong(view, legal, random.Random(1))
    assert keep_fan_honour(view, legal, base) == base


def test_other_variants_keep_strong_discard() -> None:
    view = turn_view("shanghai", TWO_LONE_HONOURS, _quiet(), 74)
    legal = _discards(TWO_LONE_HONOURS)
    base = strong(view, legal, random.Random(1))
    assert keep_fan_honour(view, legal, base) == base


def test_the_value_pong_ignores_hidden_tiles() -> None:
    """Re-dealing the tiles seat cannot see changes none of the trial's answers."""
    checked = 0
    for seed in range(3):
        state = new_hand("cantonese", 700 + seed, base=1)
        rng = random.Random(seed)
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if state.phase == "turn" or any(a.type == "pong" for a in legal):
                other = reshuffle_hidden(state, seat, checked)
                assert view_for(other, seat) == view_for(state, seat)
                answers = {
                    search.expert_value_ponging(
                        PlayerView.of(view_for(s, seat, hints=False)),
                        legal_actions(s, seat),
                        random.Random(5),
                    )
                    for s in (state, other)
                }
                assert len(answers) == 1
                checked += 1
            state, _ = apply(state, seat, decide("strong", state, seat, rng))
    assert checked


def test_the_trial_level_seats_the_value_pong() -> None:
    levels, table = bots.with_trial("value_pong", bots.LEVELS, bots.BOTS)
    assert levels == (*bots.LEVELS, "expert_trial")
    assert table["expert_trial"] is search.expert_value_ponging


def test_the_kept_expert_pongs_for_value_and_does_not_keep() -> None:
    """The pong is on by default in Cantonese (ahead on both goal seeds), the keep off (level)."""
    assert sorted(search.FAN_PONGED) == ["cantonese"] and not search.FAN_KEPT
    view = _offered("cantonese", ONE_AWAY, "7z")
    legal = [PASS, Action("pong", tile("7z"))]
    assert strong(view, legal, random.Random(1)) == PASS
    assert search.expert(view, legal, random.Random(1)) == Action("pong", tile("7z"))
    turn = turn_view("cantonese", TWO_LONE_HONOURS, _quiet(), 74)
    discards = _discards(TWO_LONE_HONOURS)
    assert search.expert(turn, discards, random.Random(1)).tile == tile("1z")  # the keep would throw 2z


def test_elsewhere_the_kept_expert_answers_a_dragon_as_strong() -> None:
    view = _offered("shanghai", ONE_AWAY, "7z")
    legal = [PASS, Action("pong", tile("7z"))]
    assert search.expert(view, legal, random.Random(1)) == strong(view, legal, random.Random(1))


def test_the_pong_alone_pongs_and_does_not_keep() -> None:
    """The trial `fan_pong` takes the value pong's pong and leaves strong's discard alone."""
    view = _offered("cantonese", ONE_AWAY, "7z")
    legal = [PASS, Action("pong", tile("7z"))]
    assert search.expert_fan_ponging(view, legal, random.Random(1)) == Action("pong", tile("7z"))
    turn = turn_view("cantonese", TWO_LONE_HONOURS, _quiet(), 74)
    discards = _discards(TWO_LONE_HONOURS)
    assert search.expert_fan_ponging(turn, discards, random.Random(1)) == search.expert(
        turn, discards, random.Random(1)
    )


def test_the_keep_trial_keeps_and_answers_a_discard_as_the_kept_expert() -> None:
    """The trial `fan_keep` throws the guest honour first; its answer to a discard is the kept
    expert's (which pongs the dragon in Cantonese)."""
    view = _offered("cantonese", ONE_AWAY, "7z")
    legal = [PASS, Action("pong", tile("7z"))]
    kept = search.expert(view, legal, random.Random(1))
    assert search.expert_fan_keeping(view, legal, random.Random(1)) == kept == Action("pong", tile("7z"))
    turn = turn_view("cantonese", TWO_LONE_HONOURS, _quiet(), 74)
    discards = _discards(TWO_LONE_HONOURS)
    assert search.expert(turn, discards, random.Random(1)).tile == tile("1z")
    assert search.expert_fan_keeping(turn, discards, random.Random(1)).tile == tile("2z")


def test_the_trial_levels_seat_each_part() -> None:
    for name, bot in (("fan_pong", search.expert_fan_ponging), ("fan_keep", search.expert_fan_keeping)):
        levels, table = bots.with_trial(name, bots.LEVELS, bots.BOTS)
        assert levels == (*bots.LEVELS, "expert_trial")
        assert table["expert_trial"] is bot
