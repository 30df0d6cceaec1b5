"""一花起胡 in play, tested from RULES §3 through the hand machine: dealer
rotation (§3.1), delayed kongs (§3.2), the locks Y1–Y3 and the false-win
penalty Y4 (§3.3), the one-flower minimum and seven pairs (§3.4), eight
flowers (§3.7) and robbing-kong liability (§3.8). Every hand is rigged with
`scenario` (base stake 2 unless said: the flower value is b/2 = 1, the cap
10 × b = 20); every expected outcome is worked out from RULES.md."""

from __future__ import annotations

import pytest

from games.engine.actions import (
    Action,
    Unrestricted,
    apply,
    claim_options,
    legal_actions,
    refused_win_reason,
    seats_to_act,
)
from games.engine.errors import IllegalAction
from games.engine.rulesets import get_ruleset
from games.engine.scenario import scenario
from games.engine.state import HandState, evolve
from games.engine.tiles import name, parse, tile
from tests.moves import act, pass_all, run
from tests.restrictions_in_play import codes_met_in_play

RULES = get_ruleset("yihua")
T = tile
B = 2  # base stake: score = (2 + flowers) × 2^fan, capped at 20


def legal(state: HandState, seat: int) -> list[Action]:
    return legal_actions(state, seat)


def refusal(state: HandState, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as e:
        apply(state, seat, act(text))
    return e.value.code


def why_no_win(state: HandState, seat: int) -> str | None:
    """The code a win the shape allows is refused with (a lock, the minimum)."""
    return refused_win_reason(RULES, state, seat)


def false_win(state: HandState, seat: int, text: str) -> HandState:
    """Declare a win that is not allowed: Y4 records the penalty, nothing else changes."""
    after, events = apply(state, seat, act(text))
    assert events == [{"type": "false_win", "seat": seat}]
    assert after.penalties == (*state.penalties, ("false_win", seat, _penalty(seat, state.base)))
    assert after.players == state.players and after.window == state.window
    assert (after.phase, after.turn, after.wall, after.head, after.tail) == (
        state.phase,
        state.turn,
        state.wall,
        state.head,
        state.tail,
    )
    return after


def _penalty(seat: int, base: int) -> tuple[int, ...]:
    # Y4: 2 × base from the offender, shared equally by the other three (remainder dropped)
    pay = [2 * base // 3] * 4
    pay[seat] = -2 * base
    return tuple(pay)


def game(hands: list[str], draws: str = "", **kw: object) -> HandState:
    kw.setdefault("base", B)
    return scenario("yihua", hands=hands, draws=draws, **kw)  # type: ignore[arg-type]


_QUIET = ["", "1s4s7s1p4p7p2z3z5z6z9m9s9p", "2s5s8s2p5p8p2m5m8m4z4z6z6z", "3s6s7s3p6p8p3m6m7m7z7z1z1z"]


# ---------------------------------------------------------------------------
# §3.1 dealer rotation, in play


def test_a_non_dealer_win_passes_the_deal_to_the_next_seat_not_the_winner() -> None:
    state = game(
        ["123m456m789m123p5p", _QUIET[1], "5p1s4s7s1p4p7p2z3z5z6z9m9s", _QUIET[3]],
        draws="9p",
        dealer=2,
        flowers=["1f", "", "", ""],
    )
    state = run(state, "2: discard 5p", "0: win 5p")
    assert state.result.winners == (0,)
    assert state.result.payments == (3, 0, -3, 0)  # (2 + 1 flower) × 1, the discarder pays
    assert state.result.next_dealer == 3


def test_the_dealer_stays_after_a_dealer_win() -> None:
    state = game([_QUIET[1], "2s5s8s2p5p8p2m5m8m4z4z6z7z", "123m456m789m123p5p", _QUIET[3]], "5p", dealer=2)
    state = run(state, "2: win")
    assert state.result.payments == (-2, -2, 6, -2)  # a self-draw needs no flower: 2 from each
    assert state.result.next_dealer == 2


def test_the_dealer_stays_after_a_drawn_hand() -> None:
    state = game(
        [_QUIET[1], "2s5s8s2p5p8p2m5m8m4z4z6z7z", "4z1s4s7s1p4p7p2z3z5z6z9m9s", _QUIET[3]], "9p", dealer=2
    )
    state = evolve(state, head=state.tail)  # nothing left to draw
    state = pass_all(run(state, "2: discard 9p"))
    assert state.result.drawn and state.result.next_dealer == 2


def test_the_dealer_stays_when_one_of_several_winners() -> None:
    state = game(
        [
            "123m456m789m123p5p",
            "5p2s5s8s2p8p3z3z6z6z4z4z7z",
            "123s456s789s1m1m4p6p",
            "2m5m8m3p9p9p7z7z5z5z2z2z9m",
        ],
        draws="1z6m",
        flowers=["1f", "", "2f", ""],
    )
    state = run(state, "0: discard 1z", "1: discard 5p", "0: win 5p", "2: win 5p")
    assert state.result.winners == (2, 0)
    assert state.result.payments == (3, -6, 3, 0)
    assert state.result.next_dealer == 0


# ---------------------------------------------------------------------------
# §3.2 delayed kong: on any own turn (after a draw, chi, pong or kong), never on another's


_KONGS = [
    "5p8m9m1s9s3z4z6z7z2s3s4s9p",
    "5p5p5p1z1z1z1z2z2z2z2z6m7m",
    "1m1m1m2m2m2m3m3m3m5s5s5s8s",
    "6s6s6s7s7s7s4m4m4m6p6p6p8s",
]


def test_kongs_right_after_a_pong_and_after_a_kong() -> None:
    state = run(game(_KONGS, "2p", replacements="3p"), "0: discard 5p")
    # another player's turn: only the claims, no concealed kong of 1z or 2z
    assert legal(state, 1) == [act("kong 5p exposed"), act("pong 5p"), act("pass")]
    state = run(state, "1: pong 5p")
    assert state.turn_start == "claim"
    after_pong = legal(state, 1)
    for kong in ("kong 1z concealed", "kong 2z concealed", "kong 5p added"):  # 先碰后杠
        assert act(kong) in after_pong
    state = run(state, "1: kong 1z concealed")
    assert state.turn_start == "kong_replacement" and state.players[1].drawn == T("3p")
    assert act("kong 2z concealed") in legal(state, 1) and act("kong 5p added") in legal(state, 1)


def test_a_kong_right_after_a_chi() -> None:
    state = run(game(_KONGS, "2p", replacements="3p"), "0: discard 8m", "1: chi 8m 678m")
    assert act("kong 1z concealed") in legal(state, 1)
    assert act("kong 2z concealed") in legal(state, 1)


def test_shanghai_has_no_kong_after_a_claim() -> None:
    # the control: the same hands in shanghai (§2.2: after chi or pong you must discard)
    state = scenario("shanghai", hands=_KONGS, draws="2p", replacements="3p")
    state = run(state, "0: discard 5p", "1: pong 5p")
    assert all(a.type == "discard" for a in legal_actions(state, 1))


# ---------------------------------------------------------------------------
# Y1 own-discard lock


def _y1(seat1: str, draws: str = "8m9m1m5p6m8p2s1m") -> HandState:
    """Seat 2 (one flower) waits on 1m/4m with 1234m; it draws 1m and throws it."""
    state = game(
        ["1z4z7z9m9s2z3z5z6z1s4s7s9p", seat1, "1234m123p789p567s", "2z2z5z5z7z7z1z1z9s9s3s6s4p"],
        draws=draws,
        flowers=["", "", "1f", ""],
    )
    state = run(state, "0: discard 8m", "1: discard 9m")
    assert Action("win") in legal(state, 2)  # it could win by self-draw and does not
    return run(state, "2: discard 1m", "3: discard 5p", "0: discard 6m")


def test_y1_no_win_on_a_tile_one_threw_since_ones_last_draw() -> None:
    state = run(_y1("1m2p5p8p2s5s8s3z3z6z6z4z4z"), "1: discard 1m")
    assert legal(state, 2) == [act("chi 1m 123m"), act("pass")]
    assert why_no_win(state, 2) == "own_discard_lock"
    false_win(state, 2, "win 1m")  # Y4: declaring it anyway is a false win


def test_y1_the_other_wait_is_not_locked() -> None:
    state = run(_y1("4m2p5p8p2s5s8s3z3z6z6z4z4z"), "1: discard 4m")
    assert act("win 4m") in legal(state, 2)


def test_y1_ends_with_the_players_next_draw() -> None:
    state = run(_y1("1m2p5p8p2s5s8s3z3z6z6z4z4z"), "1: discard 1m", "2: pass")
    assert state.turn == 2 and state.players[2].discarded_since_draw == frozenset()
    state = run(state, "2: discard 2s", "3: discard 1m")
    assert act("win 1m") in legal(state, 2)


def _three_honour_pongs(seat1: str, draws: str) -> HandState:
    """Seat 1 pongs 1z from seat 0, then 2z and 3z from seat 2: three melds, four tiles left."""
    state = game(
        ["1z4z7z9m9s5z6z1s4s7s9p2m4m", seat1, "2z3z5p1m4m7m2s5s8s3p6p8p4z", "7p3m6m3s6s5z5z6z6z7z7z9p9p"],
        draws=draws,
    )
    state = run(state, "0: discard 1z", "1: pong 1z", "1: discard 1s", "2: discard 2z", "1: pong 2z")
    state = run(state, "1: discard 9s", "2: discard 3z", "1: pong 3z", "1: discard 9m")
    assert len(state.players[1].melds) == 3 and state.players[1].hand_size == 4
    return state


def test_y1_does_not_block_a_single_wait() -> None:
    # the seed's case: ready on 5p/7p with four tiles, seat 1 pongs 7p instead of winning,
    # throws a 5p and waits on the other 5p alone (独吊); seat 2's 5p may then win
    state = _three_honour_pongs("1z1z2z2z3z3z5p5p7p7p1s9s9m", draws="8m5m6s1p2p4s")
    state = run(state, "2: discard 1p", "3: discard 7p")
    assert act("win 7p") in legal(state, 1)
    state = run(state, "1: pong 7p", "1: discard 5p")
    assert T("5p") in state.players[1].discarded_since_draw
    state = run(state, "2: discard 5p")
    assert act("win 5p") in legal(state, 1)
    state = pass_all(run(state, "1: win 5p"))
    assert "single_wait" in state.result.scores[0].patterns
    assert state.result.payments == (0, 20, -20, 0)  # 3 flowers, 3 fan: capped at 10 × 2


# ---------------------------------------------------------------------------
# Y2 missed-win lock (漏胡)

# seat 2 waits on 6p or 9p with 11 22 33 6 77 88 99p: 9p is pure one suit (2 fan),
# 6p also seven pairs (4 fan). With no flower: 9p = 2 × 4 = 8, 6p = 2 × 16 → cap 20.
_Y2 = [
    "9p1m4m7m1s4s7s2z3z5z6z9m9s",
    "6p2m5m8m2s5s8s1z1z4z4z6z6z",
    "1122336778899p",
    "3m6m3s6s7z7z7z5z5z2z2z3z3z",
]


def _y2(seat1: str = _Y2[1], flowers: str = "") -> HandState:
    state = game([_Y2[0], seat1, _Y2[2], _Y2[3]], "5m8m", flowers=["", "", flowers, ""])
    state = run(state, "0: discard 9p")
    assert act("win 9p") in legal(state, 2)
    return run(state, "2: pass")


def test_y2_a_passed_win_blocks_an_equal_one() -> None:
    state = _y2("9p2m5m8m2s5s8s1z1z4z4z6z6z")
    assert state.players[2].win_lock and state.players[2].passed_win_value == 8
    state = run(state, "1: discard 9p")
    assert act("win 9p") not in legal(state, 2) and act("pong 9p") in legal(state, 2)
    assert why_no_win(state, 2) == "missed_win_lock"
    false_win(state, 2, "win 9p")


def test_y2_a_strictly_higher_win_is_allowed() -> None:
    state = run(_y2(), "1: discard 6p")
    assert act("win 6p") in legal(state, 2)
    state = pass_all(run(state, "2: win 6p"))
    assert state.result.scores[0].value == 20


def test_y2_a_passed_win_at_the_cap_is_never_beaten() -> None:
    # three flowers: 9p = (2 + 3) × 4 = 20 already; 6p would be 80, capped to 20 — not higher
    state = run(_y2(flowers="1f2f3f"), "1: discard 6p")
    assert state.players[2].passed_win_value == 20
    assert act("win 6p") not in legal(state, 2) and act("chi 6p 678p") in legal(state, 2)
    assert why_no_win(state, 2) == "missed_win_lock"


# The example (seed 001 §二.2 "有加番的情况下可以胡牌"): seat 2 holds 11z 55s, three runs and
# one flower. A win on 5s scores (2 + 1) × 1 = 3 with 0 番; a win on 1z (its exposed honour pung adds
# a flower) scores (2 + 2) × 1 = 4, still 0 番: more flowers alone do not open the lock.
_Y2F = [
    "5s1m4m7m1s4s7s2z3z6z9m9p8s",
    "1z1z2m5m8m2s9s3p6p4z4z6z7z",
    "123m456m789p11z55s",
    "3m6m3s6s7z5z5z1p1p2z2z3z3z",
]


def test_y2_more_flowers_alone_do_not_open_the_lock() -> None:
    state = game(_Y2F, "9s8p", flowers=["", "", "1f", ""])
    state = run(state, "0: discard 5s")
    assert act("win 5s") in legal(state, 2)
    state = run(state, "2: pass")
    assert state.players[2].win_lock
    assert (state.players[2].passed_win_value, state.players[2].passed_win_fan) == (3, 0)
    state = run(state, "1: discard 1z")
    assert act("win 1z") not in legal(state, 2) and act("pong 1z") in legal(state, 2)
    assert why_no_win(state, 2) == "missed_win_lock"
    false_win(state, 2, "win 1z")
    # once seat 2 has drawn, the lock is gone and the same 1z wins (worth 4, seat 1 pays)
    state = run(state, "2: pass")
    state = throw_drawn(state, 2)
    state = throw_drawn(throw_drawn(state, 3), 0)
    state = run(state, "1: discard 1z")
    assert act("win 1z") in legal(state, 2)
    state = pass_all(run(state, "2: win 1z"))
    assert state.result.scores[0].value == 4 and state.result.payments == (0, -4, 4, 0)


# seat 2 waits on 7p or 5z (one flower): 7p = 3, 5z = 4 (the pung completed by the discard: 1 flower)
_Y2R = [
    "7p1m4m7m1s4s7s2z3z6z9m9p8s",
    "7p2m5m8m2s5s9s1z1z4z4z6z6z",
    "123m456m7p7p5z5z999s",
    "3m6m3s6s7z7z7z1p1p2z2z3z3z",
]


def throw_drawn(state: HandState, seat: int) -> HandState:
    """`seat` (whose turn it is, after the others passed any window) discards the tile it drew."""
    state = pass_all(state)
    assert state.turn == seat and state.players[seat].drawn is not None
    return run(state, f"{seat}: discard {name(state.players[seat].drawn)}")


@pytest.mark.parametrize("release", ["draw", "pong", "kong"])
def test_y2_ends_when_the_player_draws_pongs_or_kongs(release: str) -> None:
    state = game(_Y2R, "5m8m3p2p5p9m2m3s", replacements="3p", flowers=["", "", "1f", ""])
    state = run(state, "0: discard 7p", "2: pass")
    assert state.players[2].win_lock and state.players[2].passed_win_value == 3
    if release == "draw":
        state = throw_drawn(throw_drawn(state, 1), 2)
    elif release == "pong":
        state = run(state, "1: discard 9s", "2: pong 9s", "2: discard 9s")
    else:
        state = throw_drawn(run(state, "1: discard 9s", "2: kong 9s exposed"), 2)
    assert not state.players[2].win_lock
    state = throw_drawn(throw_drawn(state, 3), 0)
    state = run(state, "1: discard 7p")
    # worth 3, no more than the passed 3: only the end of the lock allows it
    assert act("win 7p") in legal(state, 2)


def test_y2_ends_with_a_chi() -> None:
    # seat 2 (one flower): 46m kanchan, pair 5z, 777p: 5m = 3. It passes seat 0's 5m; seat 1's 5m
    # is refused, so it chis it, throws 1s and waits on 1s/4s — a 4s worth 3 is allowed again
    state = game(
        [
            "5m1m9m1p9p2z3z6z7z2p8p4z3p",
            "5m2s5s8s2p5p8p1z1z4z4z6z6z",
            "4m6m5z5z123s789s777p",
            "3m6m3s6s7z7z1p1p2z2z3z3z9s",
        ],
        "8m3p4s",
        flowers=["", "", "1f", ""],
    )
    state = run(state, "0: discard 5m", "2: pass", "1: discard 5m")
    assert why_no_win(state, 2) == "missed_win_lock"
    state = run(state, "2: chi 5m 456m")
    assert not state.players[2].win_lock
    state = run(state, "2: discard 1s", "3: discard 4s")
    assert act("win 4s") in legal(state, 2)


# ---------------------------------------------------------------------------
# Y3 pointless chi (过牌)

_FILL = "1p2p3p7p8p9p1s1s5z"


@pytest.mark.parametrize(
    ("held", "claimed", "run_", "forbidden", "allowed"),
    [
        ("4m5m6m7m", "4m", "456m", "4m7m", "5z"),  # as R3: not t, not the other end
        ("2m3m4m5m6m", "4m", "345m", "4m", "2m6m"),  # hand tiles not adjacent: only t
    ],
)
def test_y3_no_discard_of_the_chi_tile_nor_the_other_end(
    held: str, claimed: str, run_: str, forbidden: str, allowed: str
) -> None:
    fill = _FILL[: 2 * (13 - len(parse(held)))]
    state = game(
        [
            f"{claimed}9m1z2z3z4z6z7z9s2s3s9p5p",
            held + fill,
            "2z2z2z3z3z3z4p4p4p5s5s5s8s",
            "6p6p6p7z7z7z4z4z4z1p1p8s6s",
        ],
        "1m",
    )
    state = run(state, f"0: discard {claimed}", f"1: chi {claimed} {run_}")
    discards = {a.tile for a in legal(state, 1) if a.type == "discard"}
    for t in parse(forbidden):
        assert state.players[1].concealed[t] and t not in discards
        assert refusal(state, 1, f"discard {name(t)}") == "discard_after_chi"
    for t in parse(allowed):
        assert t in discards
    state = run(state, "1: discard 1p")
    assert state.players[1].forbidden == frozenset()  # the restriction ends with the discard


def test_y3_does_not_apply_with_exactly_four_tiles_before_the_chi() -> None:
    # three honour pongs down, 4567m left: chi 4m with 5 6 leaves 4m 7m, both may go
    state = _three_honour_pongs("1z1z2z2z3z3z4m5m6m7m1s9s9m", draws="8m5m6s1p2p4s")
    state = run(state, "2: discard 1p", "3: discard 2p", "0: discard 4m", "1: chi 4m 456m")
    discards = {a.tile for a in legal(state, 1) if a.type == "discard"}
    assert discards == {T("4m"), T("7m")}


def test_y3_a_chi_that_would_leave_nothing_to_do_is_not_offered() -> None:
    # two honour pongs down, 444m 56m 77m: chi 4m with 5 6 leaves 444m 77m, all forbidden, no kong
    state = game(
        [
            "1z4m9m1s9s3z4z6z7z2s3s4s5p",
            "1z1z2z2z4m4m4m5m6m7m7m9p9s",
            "2z1p1p1p8p8p8p5s5s5s3p6p2p",
            "6s6s6s7s7s7s1m1m2m2m3m3m8s",
        ],
        "4p4p5z6p3s9m",
    )
    state = run(state, "0: discard 1z", "1: pong 1z", "1: discard 9p", "2: discard 2z", "1: pong 2z")
    state = run(state, "1: discard 9s", "2: discard 5z", "3: discard 6p", "0: discard 4m")
    raw = claim_options(Unrestricted(RULES), state, 1, 0, T("4m"))
    assert act("chi 4m 456m") in raw and act("chi 4m 456m") not in legal(state, 1)
    assert refusal(state, 1, "chi 4m 456m") == "discard_after_chi"


# ---------------------------------------------------------------------------
# Y4 false win (诈胡), through the machine


def test_y4_a_false_self_draw_costs_two_base_and_the_hand_goes_on() -> None:
    state = game(["4z1s4s7s1p4p7p2z3z5z6z9m9s", *_QUIET[1:]], "9p", base=6)
    assert Action("win") not in legal(state, 0)
    state = false_win(state, 0, "win")
    assert state.penalties == (("false_win", 0, (-12, 4, 4, 4)),)
    # the hand goes on; the penalty is part of the hand's result
    state = evolve(state, head=state.tail)
    state = pass_all(run(state, "0: discard 9p"))
    assert state.result.drawn
    assert ("false_win", (-12, 4, 4, 4)) in state.result.extras
    assert state.result.payments == (-12, 4, 4, 4)


def test_y4_a_false_win_on_a_discard_leaves_the_claim_window_open() -> None:
    state = game(_KONGS, "2p")
    state = run(state, "0: discard 8m")
    assert legal(state, 1) == [act("chi 8m 678m"), act("pass")]
    state = false_win(state, 1, "win 8m")
    assert seats_to_act(state) == [1]  # still its answer to give
    state = run(state, "1: chi 8m 678m")
    assert state.turn == 1


def test_y4_a_false_win_by_a_seat_with_no_claim_option_is_penalised() -> None:
    state = run(game(_KONGS, "2p"), "0: discard 8m")
    assert legal(state, 3) == [] and state.phase == "claim"
    false_win(state, 3, "win 8m")


# ---------------------------------------------------------------------------
# §3.4 the one-flower minimum, seven pairs


_MIN = ["5p1s4s7s1p4p7p2z3z5z6z9m9s", "123m456m789m4p6p5p5p", _QUIET[2], _QUIET[3]]


def test_no_flower_no_fan_no_win_on_a_discard() -> None:
    state = run(game(_MIN, "9p"), "0: discard 5p")
    assert legal(state, 1) == [act("pong 5p"), act("chi 5p 456p"), act("pass")]
    assert why_no_win(state, 1) == "one_flower_minimum"
    false_win(state, 1, "win 5p")  # declared anyway: Y4


def test_one_flower_is_enough_to_win_on_a_discard() -> None:
    state = run(game(_MIN, "9p", flowers=["", "1f", "", ""]), "0: discard 5p")
    assert act("win 5p") in legal(state, 1)


def test_one_fan_is_enough_to_win_on_a_discard() -> None:
    # 123m 456m 789m 11z 99m: 混一色 (1 fan) and no flower
    state = run(
        game(["5m1s4s7s1p4p7p2z3z5z6z9m9s", "123m456m789m1z1z9m9m", *_QUIET[2:]], "9p"), "0: discard 9m"
    )
    assert act("win 9m") in legal(state, 1)


def test_a_self_draw_needs_neither() -> None:
    state = run(game(["9s1s4s7s1p4p7p2z3z5z6z9m9s", *_MIN[1:]], "9p5p"), "0: discard 9p")
    assert state.turn == 1 and state.players[1].drawn == T("5p")
    assert Action("win") in legal(state, 1)


_PAIRS = ["4z1s4s7s1p4p7p2z3z5z6z9m9s", "1m1m3m3m5p5p7p7p9s9s2z2z4z", _QUIET[2], _QUIET[3]]


def test_seven_pairs_win_in_play() -> None:
    state = run(game(_PAIRS, "9p"), "0: discard 4z")
    assert act("win 4z") in legal(state, 1)
    state = pass_all(run(state, "1: win 4z"))
    assert "seven_pairs" in state.result.scores[0].patterns
    assert state.result.payments == (-8, 8, 0, 0)  # 2 × 2^2, no flower needed: 2 fan


def test_seven_pairs_is_no_shape_in_shanghai() -> None:
    state = run(scenario("shanghai", hands=_PAIRS, draws="9p"), "0: discard 4z")
    assert act("win 4z") not in legal_actions(state, 1)


# ---------------------------------------------------------------------------
# §3.7 eight flowers end the hand at once


def test_the_eighth_flower_ends_the_hand_and_each_other_player_pays_the_cap() -> None:
    state = game(
        ["5z1s4s7s1p4p7p2z3z6z9m9s9p", "19m19p19s1234567z", _QUIET[2], _QUIET[3]],
        "8m8f",
        replacements="4s",
        flowers=["", "1f2f3f4f5f6f7f", "", ""],
    )
    state = run(state, "0: discard 5z")
    state = pass_all(state)
    assert state.phase == "over"
    result = state.result
    assert result.winners == (1,) and result.by == "eight_flowers"
    assert result.payments == (-20, 60, -20, -20)
    assert result.next_dealer == 1  # a non-dealer "won": the deal moves on


def test_eight_flowers_at_the_deal_end_the_hand_before_play() -> None:
    # the deal lays flowers open through the same hook (new_hand stops when the hand is over)
    state = game(["5z1s4s7s1p4p7p2z3z6z9m9s9p", "19m19p19s1234567z", _QUIET[2], _QUIET[3]], "8m")
    state = state.with_player(1, flowers=tuple(parse("1f2f3f4f5f6f7f8f")))
    over = RULES.on_flowers(state, 1)
    assert over.phase == "over" and over.result.by == "eight_flowers"
    assert over.result.payments == (-20, 60, -20, -20)
    assert RULES.on_flowers(state.with_player(1, flowers=tuple(parse("1f2f3f4f5f6f7f"))), 1).phase == "turn"


# ---------------------------------------------------------------------------
# §3.8 robbing a kong: the konger pays each robber 3 × their score; no lock applies


def test_robbers_are_paid_three_times_by_the_konger_and_no_lock_stops_them() -> None:
    state = game(
        [
            "5p8p9m1s9s1z2z3z4z6z7z2s3s",
            "5p5p456m789m5s6s7s1s1s",
            "123m234p67p999s55z",  # one flower: waits 5p/8p
            "3p4p1p1p1p6s6s6s8m8m8m2m2m",  # no flower, no fan: waits 2p/5p
        ],
        "3m9p2p9p5p",
        flowers=["", "", "1f", ""],
    )
    state = run(state, "0: discard 5p")
    assert act("win 5p") in legal(state, 2) and act("win 5p") not in legal(state, 3)  # 一花起胡
    state = run(state, "1: pong 5p", "1: discard 1s", "2: discard 9p", "3: discard 2p", "0: discard 8p")
    state = run(state, "2: pass")
    assert state.players[2].win_lock  # Y2: it passed 8p
    state = run(state, "1: kong 5p added")
    assert act("win 5p") in legal(state, 2) and act("win 5p") in legal(state, 3)
    state = run(state, "2: win 5p", "3: win 5p")
    result = state.result
    assert result.by == "robbing_kong" and result.winners == (2, 3)
    assert [s.value for s in result.scores] == [3, 2]
    assert result.payments == (0, -15, 9, 6)


def test_passing_a_robbing_win_sets_no_missed_win_lock() -> None:
    # Y2's seed speaks of a discarded tile ("如下家B打出一張玩家A可以胡的牌而玩家A卻放棄不胡"): seat 2
    # lets seat 1's added kong of 5p stand and may still win, for the same score, on seat 1's 8p.
    state = game(
        [
            "5p8p9m1s9s1z2z3z4z6z7z2s3s",
            "5p5p456m789m5s6s7s1s1s",
            "123m234p67p999s55z",  # one flower: waits 5p/8p, each worth 3
            "3p4p1p1p1p6s6s6s8m8m8m2m2m",
        ],
        "3m9p2p9p5p",
        replacements="8p",
        flowers=["", "", "1f", ""],
    )
    state = run(state, "0: discard 5p", "2: pass", "1: pong 5p", "1: discard 1s")
    state = run(state, "2: discard 9p", "3: discard 2p", "0: discard 9p", "1: kong 5p added")
    assert state.window is not None and state.window.kind == "rob"
    assert act("win 5p") in legal(state, 2)
    state = run(state, "2: pass")
    if state.phase == "claim":
        state = pass_all(state)
    assert not state.players[2].win_lock and state.players[1].drawn == T("8p")
    state = run(state, "1: discard 8p")
    assert act("win 8p") in legal(state, 2) and why_no_win(state, 2) is None
    state = pass_all(run(state, "2: win 8p"))
    assert state.result.winners == (2,) and state.result.scores[0].value == 3


# ---------------------------------------------------------------------------
# Every restriction is active in real play: bots meet each of them


def test_every_restriction_triggers_in_bot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = {"own_discard_lock", "missed_win_lock", "discard_after_chi", "one_flower_minimum"}
    assert codes_met_in_play("yihua", wanted, monkeypatch) == wanted
