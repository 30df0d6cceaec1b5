"""上海麻将 in play, tested from RULES §2 through the hand machine: the
restrictions R1–R4 (§2.3), kongs (§2.2), the special shapes (§2.4),
heavenly/earthly (§2.5), 三口 and several winners (§2.8), 荒番 (§2.7), the
dealer (§2.1) and the balance floor. Every hand here is rigged with
`scenario`; every expected outcome is worked out from RULES.md."""

from __future__ import annotations

import pytest

from games.engine.actions import (
    Action,
    Unrestricted,
    apply,
    claim_options,
    legal_actions,
    new_hand,
)
from games.engine.errors import IllegalAction
from games.engine.rulesets import get_ruleset
from games.engine.scenario import scenario
from games.engine.scoring import shanghai as sh
from games.engine.simulate import play_hand
from games.engine.state import HandState, evolve
from games.engine.tiles import name, parse, tile
from games.engine.view import view_for
from tests.moves import act, pass_all, run
from tests.restrictions_in_play import codes_met_in_play

RULES = get_ruleset("shanghai")
T = tile


def refusal(state: HandState, seat: int, text: str) -> str:
    """The IllegalAction code `apply` raises for this move (the state is untouched)."""
    with pytest.raises(IllegalAction) as e:
        apply(state, seat, act(text))
    return e.value.code


def raw_claims(state: HandState, seat: int) -> tuple[Action, ...]:
    """The seat's claim options with the variant's restrictions lifted (the control)."""
    assert state.window is not None
    return claim_options(Unrestricted(RULES), state, seat, state.window.seat, state.window.tile)


def legal(state: HandState, seat: int) -> list[Action]:
    return legal_actions(state, seat)


# ---------------------------------------------------------------------------
# R1 pong lock (碰牌限制)


def _r1_state(seat2: str, seat3: str, draws: str) -> HandState:
    return scenario(
        "shanghai",
        hands=[
            "5m9m19p19s1234567z",
            "5m234p678p234s678s" if "5m" not in seat3 else "234p678p234s678s4z",
            seat2,
            seat3,
        ],
        draws=draws,
    )


def test_r1_a_passed_pong_cannot_be_made_again_before_a_discard() -> None:
    state = _r1_state("4m55m6m222z333z555p", "789m123m555s777z9s", "1s2m")
    state = run(state, "0: discard 5m")
    assert act("pong 5m") in legal(state, 2)  # the option exists
    state = run(state, "2: pass", "1: discard 5m")
    # seat 2 has not discarded since it passed: the pong is gone, its chi is not
    assert act("pong 5m") in raw_claims(state, 2)
    assert legal(state, 2) == [act("chi 5m 456m"), act("pass")]
    assert refusal(state, 2, "pong 5m") == "pong_locked"


def test_r1_the_lock_ends_with_the_players_own_discard() -> None:
    state = _r1_state("1m55m9p222z333z555p", "5m789m123s555s777z", "1s9m7p8p")
    state = run(state, "0: discard 5m", "2: pass", "1: discard 9m")
    assert state.turn == 2 and state.players[2].pong_lock == {T("5m")}  # drawing does not end it
    state = run(state, "2: discard 7p")
    assert state.players[2].pong_lock == frozenset()
    state = run(state, "3: discard 5m")
    assert act("pong 5m") in legal(state, 2)


# ---------------------------------------------------------------------------
# R2 win lock (胡牌限制)

_R2_SEAT0 = "8p9m1s9s1z2z3z4z6z7z2s3s4s"
_R2_SEAT3 = "1m1p1p1p2p2p2p4z4z4z7z7z7z"


def _r2_state(seat1: str, seat2: str = "123m345p67p999s55z", draws: str = "6m2z") -> HandState:
    return scenario("shanghai", hands=[_R2_SEAT0, seat1, seat2, _R2_SEAT3], draws=draws)


def test_r2_a_passed_win_locks_every_later_discard_win() -> None:
    state = run(_r2_state("5p456m789m5s5s6s7s8s1s"), "0: discard 8p")
    assert act("win 8p") in legal(state, 2)
    state = run(state, "2: pass", "1: discard 5p")
    # 5p completes 345p 567p… but seat 2 has not drawn or claimed since it passed 8p
    assert legal(state, 2) == [act("chi 5p 345p"), act("chi 5p 456p"), act("chi 5p 567p"), act("pass")]
    assert refusal(state, 2, "win 5p") == "win_locked"


def test_r2_the_lock_ends_when_the_player_draws() -> None:
    state = run(
        _r2_state("5p456m789m5s5s6s7s8s1s", draws="6m2z9p8p"), "0: discard 8p", "2: pass", "1: discard 5p"
    )
    state = run(state, "2: pass")
    assert state.turn == 2 and not state.players[2].win_lock
    state = run(state, "2: discard 9p", "3: discard 8p")
    assert act("win 8p") in legal(state, 2)


def test_r2_the_lock_ends_when_the_player_claims() -> None:
    state = run(_r2_state("5z456m789m5s5s6s7s8s1s", draws="6m2z5p"), "0: discard 8p", "2: pass")
    assert state.players[2].win_lock
    state = run(state, "1: discard 5z", "2: pong 5z")
    assert not state.players[2].win_lock
    # 123m 345p 67p 99s + pong 5z: waiting on 5p/8p again, and it has not drawn since
    state = run(state, "2: discard 9s", "3: discard 5p")
    assert act("win 5p") in legal(state, 2)


def test_r2_never_locks_robbing_a_kong() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "5p8p9m1s9s1z2z3z4z6z7z2s3s",
            "5p5p456m789m5s6s7s1s1s",
            "123m234p67p999s55z",
            "1p1p1p4z4z4z7z7z7z8m8m8s6s",
        ],
        draws="3m9p2p9p5p",
    )
    state = run(state, "0: discard 5p")
    assert act("win 5p") in legal(state, 2)
    state = run(state, "2: pass", "1: pong 5p", "1: discard 1s", "2: discard 9p", "3: discard 2p")
    state = run(state, "0: discard 8p")
    assert act("win 8p") in legal(state, 2)
    state = run(state, "2: pass")
    assert state.players[2].win_lock and state.turn == 1
    state = run(state, "1: kong 5p added")
    assert state.window is not None and state.window.kind == "rob"
    assert legal(state, 2) == [act("win 5p"), act("pass")]
    state = run(state, "2: win 5p")
    assert state.result.winners == (2,) and state.result.by == "robbing_kong"


def test_r2_passing_a_robbing_win_sets_no_lock() -> None:
    # The seed's lock speaks only of a discarded tile ("假如A打了一个牌,B…没选择胡"): seat 2 lets
    # seat 1's added kong of 5p stand, and may still win on the 8p seat 1 throws right after.
    state = scenario(
        "shanghai",
        hands=[
            "5p8p9m1s9s1z2z3z4z6z7z2s3s",
            "5p5p456m789m5s6s7s1s1s",
            "123m234p67p999s55z",
            "1p1p1p4z4z4z7z7z7z8m8m8s6s",
        ],
        draws="3m9p2p9p5p",
        replacements="8p",
    )
    state = run(state, "0: discard 5p", "2: pass", "1: pong 5p", "1: discard 1s")
    state = run(state, "2: discard 9p", "3: discard 2p", "0: discard 9p", "1: kong 5p added")
    assert state.window is not None and state.window.kind == "rob"
    state = run(state, "2: pass")
    assert not state.players[2].win_lock and state.players[1].drawn == T("8p")
    state = run(state, "1: discard 8p")
    assert act("win 8p") in legal(state, 2)
    state = run(state, "2: win 8p")
    assert state.result.winners == (2,) and state.result.by == "discard"


def test_r2_never_locks_a_self_draw() -> None:
    state = _r2_state("5p456m789m5s5s6s7s8s1s", draws="6m2z8p")
    state = run(state, "0: discard 8p", "2: pass", "1: discard 5p", "2: pass")
    assert state.turn == 2 and state.players[2].drawn == T("8p")
    assert Action("win") in legal(state, 2)
    # the rule itself, asked directly: a locked player's self-draw is scored
    locked = state.with_player(2, win_lock=True)
    from games.engine.actions import win_context

    assert RULES.win_check(locked, 2, win_context(locked, 2, T("8p"), "self_draw")).win


# ---------------------------------------------------------------------------
# R3 discard after chi (出牌限制)

_FILL = "1p2p3p7p8p9p1s1s5z"


@pytest.mark.parametrize(
    ("held", "claimed", "run_", "forbidden", "allowed"),
    [
        ("4m5m6m7m", "4m", "456m", "4m7m", "5z"),  # holding 5 6, chi 4 → not 4 or 7
        ("1m2m3m4m5m", "4m", "234m", "4m1m", "5m"),  # holding 2 3, chi 4 → not 4 or 1
        ("2m3m4m5m6m", "4m", "345m", "4m", "2m6m"),  # holding 3 5, chi 4 → only 4
        ("1m2m3m4m", "3m", "123m", "3m", "4m"),  # holding 1 2, chi 3 → only 3
        ("6m7m8m9m", "7m", "789m", "7m", "6m"),  # holding 8 9, chi 7 → only 7
    ],
)
def test_r3_no_discard_of_the_chi_tile_nor_the_other_end(
    held: str, claimed: str, run_: str, forbidden: str, allowed: str
) -> None:
    fill = _FILL[: 2 * (13 - len(parse(held)))]
    state = scenario(
        "shanghai",
        hands=[
            f"{claimed}9m1z2z3z4z6z7z9s2s3s9p5p",
            held + fill,
            "2z2z2z3z3z3z4p4p4p5s5s5s8s",
            "6p6p6p7z7z7z4z4z4z1p1p8s6s",
        ],
        draws="1m" if claimed != "1m" else "2m",
    )
    state = run(state, f"0: discard {claimed}", f"1: chi {claimed} {run_}")
    discards = {a.tile for a in legal(state, 1) if a.type == "discard"}
    for t in parse(forbidden):
        assert state.players[1].concealed[t]  # held, so only R3 stops it
        assert t not in discards
        assert refusal(state, 1, f"discard {name(t)}") == "discard_after_chi"
    for t in parse(allowed):
        assert t in discards


def test_r3_ends_with_the_discard() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "4m9m1z2z3z4z6z7z9s2s3s9p5p",
            "4m5m6m7m1p2p3p7p8p9p1s1s5z",
            "2z2z2z3z3z3z4p4p4p5s5s5s8s",
            "6p6p6p7z7z7z4z4z4z1p1p8s6s",
        ],
        draws="1m2s3s4s9m",
    )
    state = run(state, "0: discard 4m", "1: chi 4m 456m")
    assert state.players[1].forbidden == {T("4m"), T("7m")}
    state = run(state, "1: discard 5z")
    assert state.players[1].forbidden == frozenset()
    state = run(state, "2: discard 2s", "3: discard 3s", "0: discard 4s")
    assert state.turn == 1 and act("discard 7m") in legal(state, 1)


def test_r3_a_chi_after_which_nothing_could_be_discarded_is_not_offered() -> None:
    # two honour pongs down, then 444m 56m 77m: chi 4m with 5 6 would leave 444m 77m, all forbidden
    state = scenario(
        "shanghai",
        hands=[
            "1z4m9m1s9s3z4z6z7z2s3s4s5p",
            "1z1z2z2z4m4m4m5m6m7m7m9p9s",
            "2z1p1p1p8p8p8p5s5s5s3p6p2p",
            "6s6s6s7s7s7s1m1m2m2m3m3m8s",
        ],
        draws="4p4p5z6p3s9m",
    )
    state = run(state, "0: discard 1z", "1: pong 1z", "1: discard 9p", "2: discard 2z", "1: pong 2z")
    state = run(state, "1: discard 9s", "2: discard 5z", "3: discard 6p", "0: discard 4m")
    chi = act("chi 4m 456m")
    assert chi in raw_claims(state, 1)
    assert chi not in legal(state, 1) and act("pong 4m") in legal(state, 1)
    assert refusal(state, 1, "chi 4m 456m") == "discard_after_chi"


def test_r3_the_same_chi_is_offered_when_a_tile_would_be_left_to_discard() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "1z4m9m1s9s3z4z6z7z2s3s4s5p",
            "1z1z2z2z4m4m4m5m6m7m8m9p9s",
            "2z1p1p1p8p8p8p5s5s5s3p6p2p",
            "6s6s6s7s7s7s1m1m2m2m3m3m8s",
        ],
        draws="4p4p5z6p3s9m",
    )
    state = run(state, "0: discard 1z", "1: pong 1z", "1: discard 9p", "2: discard 2z", "1: pong 2z")
    state = run(state, "1: discard 9s", "2: discard 5z", "3: discard 6p", "0: discard 4m")
    assert act("chi 4m 456m") in legal(state, 1)  # 444m 7m 8m left: 8m may go


# ---------------------------------------------------------------------------
# R4 one-suit commitment (吃碰限制)


def test_r4_a_suited_pong_blocks_a_chi_of_another_suit_not_of_its_own() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "5p4m7p9m1s9s1z2z3z6z7z2s3s",
            "5p5p4m4m5m6m6p8p1z4z4z9s9s",
            "2z2z2z3z3z3z1p1p1p5s5s5s8s",
            "6s6s6s7s7s7s1m1m2m2m3m3m8m",
        ],
        draws="5z3p3p8s9p2p",
    )
    state = run(state, "0: discard 5p", "1: pong 5p", "1: discard 1z", "2: discard 3p", "3: discard 3p")
    state = run(state, "0: discard 4m")
    chi = act("chi 4m 456m")
    assert chi in raw_claims(state, 1)
    assert legal(state, 1) == [act("pong 4m"), act("pass")]
    assert refusal(state, 1, "chi 4m 456m") == "suit_commitment"
    state = run(state, "1: pass", "1: discard 4z", "2: discard 8s", "3: discard 8m", "0: discard 7p")
    assert act("chi 7p 678p") in legal(state, 1)  # the pong's own suit


def _r4_chi_first(seat1: str, draws: str) -> HandState:
    state = scenario(
        "shanghai",
        hands=[
            "4m5z6z9m1s9s3z4z6z7z2s3s7p",
            seat1,
            "2z2z2z3z3z3z1p1p1p5s5s5s8s",
            "6s6s6s7s7s7s1m1m2m2m3m3m8m",
        ],
        draws=draws,
    )
    return run(state, "0: discard 4m", "1: chi 4m 456m", "1: discard 9m")


def test_r4_a_chi_blocks_a_suited_pong_of_another_suit() -> None:
    # after chi 456m seat 1 waits on 5p or 4z (shanpon); the discarded 5p is a win, not a pong
    state = _r4_chi_first("5m6m5p5p4z4z123s789s9m", draws="8p9p2p5p")
    state = run(state, "2: discard 9p", "3: discard 2p", "0: discard 5p")
    assert act("pong 5p") in raw_claims(state, 1)
    assert legal(state, 1) == [act("win 5p"), act("pass")]
    assert refusal(state, 1, "pong 5p") == "suit_commitment"


def test_r4_honour_pongs_are_never_blocked() -> None:
    state = _r4_chi_first("5m6m5p5p4z4z123s789s9m", draws="8p9p2p4z")
    state = run(state, "2: discard 9p", "3: discard 2p", "0: discard 4z")
    assert act("pong 4z") in legal(state, 1)


def test_r4_a_chi_blocks_a_suited_concealed_kong_but_not_an_honour_one() -> None:
    state = _r4_chi_first("5m6m5p5p5p1z1z1z23s78s9m", draws="8p9p2p6p5p1m2m3p1z")
    state = run(state, "2: discard 9p", "3: discard 2p", "0: discard 6p")
    state = pass_all(state)
    assert state.turn == 1 and state.players[1].drawn == T("5p")
    kong = act("kong 5p concealed")
    assert kong not in legal(state, 1)
    assert refusal(state, 1, "kong 5p concealed") == "suit_commitment"
    state = run(state, "1: discard 5p", "2: discard 1m", "3: discard 2m", "0: discard 3p")
    state = pass_all(state)
    assert state.turn == 1 and state.players[1].drawn == T("1z")
    assert act("kong 1z concealed") in legal(state, 1)


def test_r4_an_honour_pong_never_blocks_a_chi() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "1z4m9m1s9s3z4z6z7z2s3s4s5p",
            "1z1z5m6m1p2p3p7p8p9p1s2z2z",
            "2z1p1p8p8p8p5s5s5s3p6p2p9p",
            "6s6s6s7s7s7s1m1m2m2m3m3m8s",
        ],
        draws="4p4p5z6p",
    )
    state = run(state, "0: discard 1z", "1: pong 1z", "1: discard 1s", "2: discard 4p", "3: discard 5z")
    state = run(state, "0: discard 4m")
    assert act("chi 4m 456m") in legal(state, 1)


# ---------------------------------------------------------------------------
# Kongs (§2.2): added kong on any later own turn begun by a draw; none after a claim


def test_added_kong_waits_for_any_later_drawn_turn_but_not_a_claim_turn() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "5p7p9m1s9s1z2z3z6z7z2s3s4s",
            "5p5p8p9p1z1z1z4z4z4z2z3z6z",
            "1m1m1m2m2m2m3m3m3m5s5s5s8s",
            "6s6s6s7s7s7s4m4m4m6m6m6m8m",
        ],
        draws="2p5z3p9p5p7m8m9s1s5m7s4p",
    )
    state = run(state, "0: discard 5p", "1: pong 5p", "1: discard 6z")
    state = run(state, "2: discard 5z", "3: discard 3p", "0: discard 9m")
    assert state.turn == 1 and state.players[1].drawn == T("5p")
    added = act("kong 5p added")
    assert added in legal(state, 1)
    state = run(state, "1: discard 3z", "2: discard 7m", "3: discard 8m", "0: discard 9s")
    assert state.turn == 1 and state.turn_start == "draw"
    assert added in legal(state, 1)  # still held: still offered
    state = run(state, "1: discard 2z", "2: discard 5m", "3: discard 7s", "0: discard 7p")
    state = run(state, "1: chi 7p 789p")
    assert state.turn == 1 and state.turn_start == "claim" and state.players[1].concealed[T("5p")]
    assert all(a.type == "discard" for a in legal(state, 1))  # §2.2: after a chi you must discard


# ---------------------------------------------------------------------------
# Special shapes (§2.4)

_JUNK = "19m19p19s1234567z"  # thirteen different terminals and honours: no normal shape


def test_eight_flowers_win_with_any_tiles_and_seven_do_not() -> None:
    def state_with(flowers: str) -> HandState:
        return scenario(
            "shanghai",
            hands=[
                "5m2m3m4m6m7m8m2p3p4p6p7p8p",
                _JUNK,
                "2s3s4s5s6s7s1m1m2m2m3m3m8s",
                "5p5p5p8p8p8p4s4s6s6s7s7s8s",
            ],
            draws="9s",
            flowers=["", flowers, "", ""],
        )

    seven = run(state_with("1f2f3f4f5f6f7f"), "0: discard 5m")
    assert seven.phase == "turn" and seven.turn == 1  # nobody had an option: seat 1 drew
    state = run(state_with("1f2f3f4f5f6f7f8f"), "0: discard 5m")
    assert act("win 5m") in legal(state, 1)
    # decline; after its own discard a later win is eight_flowers (300), not earthly
    state = run(state, "1: pass")
    assert Action("win") in legal(state, 1)  # any 14 tiles after the draw too
    drawn = state.players[1].drawn
    state = run(state, f"1: discard {name(drawn)}", "2: discard 8s")
    assert act("win 8s") in legal(state, 1)
    state = pass_all(run(state, "1: win 8s"))  # seat 3 could chi 8s: it passes
    score = state.result.scores[0]
    assert "eight_flowers" in score.patterns and score.value == 300


def test_all_honours_any_shape_wins() -> None:
    # 1z 2z 3z 4z 5z 6z 7z + 2z 3z 4z 5z 6z 7z: no pungs, no pairs to speak of
    state = scenario(
        "shanghai",
        hands=[
            "7z2m3m4m6m7m8m2p3p4p6p7p8p",
            "1z2z3z4z5z6z7z2z3z4z5z6z7z",
            "2s3s4s5s6s7s1m1m2m2m3m3m8s",
            "5p5p5p8p8p8p4s4s6s6s7s7s8s",
        ],
        draws="9s",
    )
    state = run(state, "0: discard 7z")
    assert act("win 7z") in legal(state, 1)
    state = run(state, "1: win 7z")
    assert "honours_any" in state.result.scores[0].patterns


def test_all_honours_any_shape_counts_declared_melds() -> None:
    # an honour pong declared keeps the hand all honours; a suited pong spoils it
    def state_with(seat1: str) -> HandState:
        return scenario(
            "shanghai",
            hands=[
                "9m7z3m4m6m7m8m2p3p4p6p7p1z",
                seat1,
                "2s3s4s5s6s7s1m1m2m2m3m3m8s",
                "5p5p5p8p8p8p4s4s6s6s7s7s8s",
            ],
            draws="9s8p",
        )

    honours = run(state_with("1z1z2z3z4z5z6z2z3z4z5z6z9m"), "0: discard 1z", "1: pong 1z", "1: discard 9m")
    honours = run(honours, "2: discard 8p", "3: discard 8s", "0: discard 7z")
    assert act("win 7z") in legal(honours, 1)

    suited = run(state_with("9m9m2z3z4z5z6z2z3z4z5z6z1z"), "0: discard 9m", "1: pong 9m", "1: discard 1z")
    suited = run(suited, "2: discard 8p", "3: discard 8s", "0: discard 7z")
    assert act("win 7z") not in legal(suited, 1)


# ---------------------------------------------------------------------------
# Heavenly and earthly (§2.5)

_QUIET = ["", "1s4s7s1p4p7p2z3z5z6z9m9s9p", "2s5s8s2p5p8p2m5m8m4z4z6z6z", "3s6s7s3p6p8p3m6m7m7z7z1z1z"]


def test_heavenly_in_play() -> None:
    state = scenario("shanghai", hands=["123m456m789m123p5p", *_QUIET[1:]], draws="5p")
    state = run(state, "0: win")
    score = state.result.scores[0]
    assert score.value == 500 and "heavenly" in score.patterns
    assert state.result.payments == (1500, -500, -500, -500)


def test_earthly_on_the_dealers_first_discard() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "5p1s4s7s1p4p7p2z3z5z6z9m9s",
            "123m456m789m123p5p",
            "2s5s8s2p5p8p2m5m8m4z4z6z6z",
            "3s6s7s3p6p8p3m6m7m7z7z1z1z",
        ],
        draws="9p",
    )
    state = run(state, "0: discard 5p", "1: win 5p")
    score = state.result.scores[0]
    assert score.value == 400 and "earthly" in score.patterns
    assert state.result.payments == (-400, 400, 0, 0)
    assert state.result.next_dealer == 1  # §2.1: the winner deals


def test_earthly_after_another_players_claim() -> None:
    # §2.5 asks only that the winner has not discarded yet: seat 2's pong does not spoil it for seat 3
    state = scenario(
        "shanghai",
        hands=[
            "4z1s4s7s1p4p7p2z3z5z6z9m9s",
            "2s5s8s2p5p8p2m5m8m1z6z6z6p",
            "4z4z3s6s7s3p5p3m6m7m7z7z1z",
            "123m456m789m123p5p",
        ],
        draws="9p",
    )
    state = run(state, "0: discard 4z", "2: pong 4z", "2: discard 5p", "3: win 5p")
    assert "earthly" in state.result.scores[0].patterns


def test_no_earthly_once_the_winner_has_discarded() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "1s4s7s1p4p7p2z3z5z6z9m9s4z",
            "123m456m789m12p5p7z",
            "2s5s8s2p5p8p2m5m8m4z4z6z6z",
            "3s6s7s9p6p8p3m6m7m7z7z1z1z",
        ],
        draws="1m5p2s2m8s3p",
    )
    state = run(state, "0: discard 1m", "1: discard 7z", "2: discard 2s", "3: discard 9p", "0: discard 4z")
    state = pass_all(state)
    assert state.turn == 1 and state.players[1].drawn == T("3p")
    state = run(state, "1: win")
    assert "earthly" not in state.result.scores[0].patterns
    assert state.result.scores[0].value == 3  # base flowers only


# ---------------------------------------------------------------------------
# 三口 (§2.8) from real claims, several winners, the balance floor


def test_sankou_three_chis_from_one_player_triple_their_self_draw_payment() -> None:
    state = scenario(
        "shanghai",
        hands=[
            "3m6m9m1s9s4z6z7z2s3s4s5p5p",
            "1m2m4m5m7m8m2p3p9p9p1z2z3z",
            "2z2z3z3z1p1p8p8p5s5s8s6s7s",
            "6s1s7s7s1m2m3m4m5m6m7m8m9m",
        ],
        draws="8s5s8p7p6p2s9s1s2p6s4p",
    )
    state = run(state, "0: discard 3m", "1: chi 3m 123m", "1: discard 1z")
    state = run(state, "2: discard 5s", "3: discard 8p", "0: discard 6m", "1: chi 6m 456m", "1: discard 2z")
    state = run(state, "2: discard 6p", "3: discard 2s", "0: discard 9m", "1: chi 9m 789m", "1: discard 3z")
    assert state.claim_counts[1][0] == 3
    state = run(state, "2: discard 1s", "3: discard 2p", "0: discard 6s")
    state = pass_all(state)
    assert state.turn == 1 and state.players[1].drawn == T("4p")
    state = run(state, "1: win")
    # 3 base flowers; seat 0 is related to the winner: 3 units, the others 1
    assert state.result.scores[0].value == 3
    assert state.result.payments == (-9, 15, -3, -3)


def _two_winners() -> HandState:
    """Seat 1 pongs three times from seat 3 (related to seat 3), then seats 1 and 2 win on seat 0's 4p."""
    state = scenario(
        "shanghai",
        hands=[
            "4p1s5s9s9m8m7m6m2p2p6z6z7z",
            "1z1z2z2z3z3z2p3p9p9p1m5s9s",
            "123m456m789s1s1s5p6p",
            "1z2z3z5z5z5z7s7s8s8s6s3m3m",
        ],
        draws="4z4z8p8p1p2s4s7p4s2m8p",
    )
    state = run(state, "0: discard 1s", "1: discard 4z", "2: discard 8p", "3: discard 1z", "1: pong 1z")
    state = run(state, "1: discard 1m", "2: discard 1p", "3: discard 2z", "1: pong 2z")
    state = run(state, "1: discard 5s", "2: discard 4s", "3: discard 3z", "1: pong 3z", "1: discard 9s")
    assert state.claim_counts[1][3] == 3
    state = run(state, "2: discard 4s", "3: discard 2m", "0: discard 4p")
    assert act("win 4p") in legal(state, 1) and act("win 4p") in legal(state, 2)
    return run(state, "1: win 4p", "2: win 4p")


def test_several_winners_are_paid_by_the_discarder_only() -> None:
    state = _two_winners()
    result = state.result
    assert result.winners == (1, 2) and result.from_seat == 0
    # seat 1: 3 + three wind pungs = 6 flowers; seat 2: 3. Seat 3 is related to
    # seat 1 but pays nothing: with several winners only the discarder pays.
    assert [s.value for s in result.scores] == [6, 3]
    assert result.payments == (-9, 6, 3, 0)
    assert result.next_dealer == 0  # §2.1: several winners → the discarder deals


def test_balance_floor_with_several_winners() -> None:
    result = _two_winners().result
    # seat 0 has 7: seat 1 (next after the discarder) is paid 6 first, seat 2 gets what is left
    assert RULES.settle(result, [7, 100, 100, 100], 0) == [-7, 6, 1, 0]


def test_balance_floor_on_a_self_draw() -> None:
    state = scenario("shanghai", hands=["123m456m789m123p5p", *_QUIET[1:]], draws="5p")
    result = run(state, "0: win").result
    assert RULES.settle(result, [0, 100, 1000, 50], None) == [650, -100, -500, -50]


# ---------------------------------------------------------------------------
# 荒番 (§2.7) and the dealer after a drawn hand (§2.1)


def test_huangfan_hand_doubles_the_winners_flowers() -> None:
    state = scenario("shanghai", hands=["123m456m789m123p5p", *_QUIET[1:]], draws="5p")
    state = run(evolve(state, huangfan=True), "0: win")
    assert state.result.scores[0].value == 1000


def test_dice_add_to_the_carried_counter() -> None:
    for seed in range(40):
        for h in (0, 2):
            state = new_hand("shanghai", seed, counters={"huangfan": h})
            after_dice = h + sh.huangfan_dice_increment(state.dice)
            assert dict(state.counters)["huangfan"] == after_dice
            assert state.huangfan == (after_dice > 0)


def test_the_table_carries_the_counter_from_hand_to_hand() -> None:
    h = 0
    for seed in range(30):
        state, _, _ = play_hand("shanghai", seed, counters={"huangfan": h})
        start = h + sh.huangfan_dice_increment(state.dice)
        assert state.huangfan == (start > 0)
        # §2.7: +1 after a drawn hand, −1 (not below 0) after a won one
        expected = start + 1 if state.result.drawn else max(0, start - 1)
        assert RULES.carry_counters(state, state.result) == {"huangfan": expected}
        h = expected


def test_a_drawn_hand_keeps_the_dealer_and_raises_the_counter() -> None:
    state = scenario(
        "shanghai",
        hands=["4z1s4s7s1p4p7p2z3z5z6z9m9s", *_QUIET[1:]],
        draws="9p",
        dealer=2,
    )
    state = evolve(state, head=state.tail, counters=(("huangfan", 3),))
    state = pass_all(run(state, f"2: discard {name(state.players[2].drawn)}"))
    assert state.phase == "over" and state.result.drawn
    assert state.result.next_dealer == 2
    assert RULES.carry_counters(state, state.result) == {"huangfan": 4}


# ---------------------------------------------------------------------------
# Every restriction is active in real play: bots meet each of them


def test_every_restriction_triggers_in_bot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = {"pong_locked", "win_locked", "discard_after_chi", "suit_commitment"}
    assert codes_met_in_play("shanghai", wanted, monkeypatch) == wanted


def test_the_view_names_why_a_hand_is_a_huangfan_hand() -> None:
    """The dice alone, drawn hands carried in, or both — never "after a drawn hand" for a roll."""
    seen = set()
    for seed in range(80):
        for carried in (0, 1):
            state = new_hand("shanghai", seed, counters={"huangfan": carried})
            rolled = sh.huangfan_dice_increment(state.dice)
            cause = view_for(state, 0)["huangfan_cause"]
            expected = None
            if rolled and carried:
                expected = "both"
            elif rolled:
                expected = "dice"
            elif carried:
                expected = "drawn"
            assert cause == expected, (seed, carried, state.dice)
            seen.add(cause)
    assert seen == {None, "dice", "drawn", "both"}
