"""二人麻将 play side, tested from RULES §6.1, §6.2 and §6.4: the 72-tile set, the
dealer, ready hands (报听), and the optional extras (开局换牌, 搓牌, reserve)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import hand
from games.engine.actions import Action, legal_actions
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.rulesets import two_player as rp
from games.engine.scenario import scenario
from games.engine.scoring import two_player as tp
from games.engine.simulate import simulate
from games.engine.state import HandResult, Meld
from games.engine.tiles import FLOWERS, counts_of, parse, tile, tiles_of
from tests.moves import run

RULES = get_ruleset("two_player")


def c(text: str) -> bytes:
    return counts_of(parse(text))


# ---------------------------------------------------------------------------
# §6.1 the table


def test_the_72_tile_set() -> None:
    tiles = RULES.wall_tiles()
    assert len(tiles) == 72
    count = Counter(tiles)
    assert all(count[t] == 4 for t in parse("123456789m1234567z"))
    assert all(count[t] == 1 for t in FLOWERS)
    assert not any(count[t] for t in parse("123456789p123456789s"))


def test_variant_data() -> None:
    assert (RULES.players, RULES.has_flowers, RULES.has_chi, RULES.win_on_discard) == (2, True, True, True)
    assert RULES.has_ready is True
    assert RULES.multiple_winners is False
    assert RULES.robbable_kongs == ("added_kong",)
    assert (RULES.name_zh, RULES.name_en) == ("二人麻将", "Two-player")
    assert RULES.default_options == {
        "cap": 13,
        "exchange": False,
        "cuopai": False,
        "cuopai_p": 0.05,
        "reserve": False,
        "reserve_n": 8,
        "escape_penalty": 13,
        "self_draw_multiplier": 3,
        "swap_pung": False,
        "swap_pung_p": 0.05,
    }


def test_a_dealt_hand_uses_only_the_set() -> None:
    state = scenario("two_player", hands=["123456789m1234z", "1122334455667z"], draws="9m")
    assert state.num_players == 2
    assert state.wall_left == 72 - 27


def test_next_dealer_is_the_winner_and_stays_after_a_draw() -> None:
    state = scenario("two_player", hands=["123456789m1234z", "1122334455667z"], draws="9m")
    assert RULES.next_dealer(state, HandResult(winners=(1,), by="discard")) == 1
    assert RULES.next_dealer(state, HandResult(winners=(0,), by="self_draw")) == 0
    assert RULES.next_dealer(state, HandResult()) == 0
    other = scenario("two_player", hands=["123456789m1234z", "1122334455667z"], draws="9m", dealer=1)
    assert RULES.next_dealer(other, HandResult()) == 1
    assert RULES.next_dealer(other, HandResult(winners=(0,), by="self_draw")) == 0


# ---------------------------------------------------------------------------
# Shapes: complete, waits, ready


def test_is_complete_normal_and_seven_pairs() -> None:
    assert tp.is_complete(c("123m456m789m111z77z"))
    assert tp.is_complete(c("1133557799m1122z"))  # seven pairs (the official table allows it)
    assert tp.is_complete(c("11113333m557799m"))  # four alike count as two pairs
    assert not tp.is_complete(c("123m456m789m123z77z"))
    melds = (Meld("pong", tuple(parse("555z")), 1),)
    assert tp.is_complete(c("123m456m789m77z"), melds)
    with pytest.raises(EngineError):
        tp.is_complete(c("123m"), melds)


def test_waits_of_nine_gates_are_all_nine() -> None:
    assert tp.waits(c("1112345678999m")) == tuple(parse("123456789m"))
    assert tp.is_ready(c("1112345678999m"))


def test_a_wait_whose_four_tiles_are_all_mine_is_no_wait() -> None:
    # 1111z 123m 456m 789m: the shape waits on a fifth East — it can never come.
    assert tp.waits(c("1111z123456789m")) == ()
    assert not tp.is_ready(c("1111z123456789m"))
    # and the same with three of them in a pong: a single wait on the fourth East is none
    melds = (Meld("pong", tuple(parse("111z")), 1),)
    assert tp.waits(c("1z123456789m"), melds) == ()
    assert tp.waits(c("5z123456789m"), melds) == (tile("5z"),)


def test_seven_pairs_ready_which_the_regular_shape_misses() -> None:
    counts = c("1133557799m11z2z")
    assert hand.waits(counts) == []  # four melds and a pair only
    assert tp.waits(counts) == (tile("2z"),)
    assert tp.is_ready(counts)


def test_ready_discards() -> None:
    # 11 33 55 77 99m 11z 2z 3z: discarding 2z waits on 3z, discarding 3z on 2z
    assert tp.ready_discards(c("1133557799m11z2z3z")) == (tile("2z"), tile("3z"))
    assert tp.ready_discards(c("13579m2468m12357z")) == ()


def _oracle_ready(counts: bytes) -> bool:
    """One tile of the set (not all four mine) completes four melds + pair or seven pairs."""
    for t in tp.SET_KINDS:
        if counts[t] >= 4:
            continue
        with_t = bytearray(counts)
        with_t[t] += 1
        if hand.is_complete(bytes(with_t)) or hand.is_seven_pairs(bytes(with_t)):
            return True
    return False


_SET_TILES = [t for t in tp.SET_KINDS for _ in range(4)]


@settings(max_examples=300, deadline=None)
@given(st.permutations(_SET_TILES))
def test_is_ready_agrees_with_the_engines_shapes(tiles: list[int]) -> None:
    # In 万 + honours the official shapes reduce to four melds + pair and seven
    # pairs (thirteen orphans and the knitted shapes need all three suits).
    counts = counts_of(tiles[:13])
    assert tp.is_ready(counts) == _oracle_ready(counts)


@settings(max_examples=100, deadline=None)
@given(st.permutations(_SET_TILES), st.sampled_from([0, 9, 18, 27, 36]))
def test_readiness_is_near_winning_hands(tiles: list[int], cut: int) -> None:
    # from a shuffled set, a 14-tile hand minus each of its ready discards is ready
    counts = counts_of(tiles[cut : cut + 14])
    for t in tp.ready_discards(counts):
        rest = bytearray(counts)
        rest[t] -= 1
        assert _oracle_ready(bytes(rest))


# ---------------------------------------------------------------------------
# §6.2 ready declaration (报听): restrictions and win shapes in live play


def _ready_state():
    # seat 0 (dealer) holds seven pairs after drawing 2z; seat 1 is ordinary
    return scenario("two_player", hands=["1133557799m11z2z", "2345678m334455z"], draws="2z")


def test_seven_pairs_self_draw_is_offered() -> None:
    state = _ready_state()
    assert RULES.is_winning_shape(state, 0, state.players[0].concealed)
    assert Action("win") in legal_actions(state, 0)


def test_declaring_ready_needs_a_ready_hand() -> None:
    state = scenario("two_player", hands=["1133557799m11z2z", "2345678m334455z"], draws="3z")
    # 14 tiles: 11 33 55 77 99m 11z 2z 3z
    assert RULES.restriction(state, 0, Action("discard", tile("3z"), ready=True)) is None
    assert RULES.restriction(state, 0, Action("discard", tile("1m"), ready=True)) == rp.NOT_READY
    assert RULES.restriction(state, 0, Action("discard", tile("1m"))) is None


def test_a_declared_hand_takes_no_claims_and_declares_once() -> None:
    state = _ready_state()
    locked = state.with_player(1, ready=True)
    for action in (
        Action("pong", tile("3z")),
        Action("chi", tile("5m"), tiles=tuple(parse("456m"))),
        Action("kong", tile("3z"), kind="exposed"),
    ):
        assert RULES.restriction(state, 1, action) is None
        assert RULES.restriction(locked, 1, action) == rp.READY_LOCKED
    declared = state.with_player(0, ready=True)
    assert RULES.restriction(declared, 0, Action("discard", tile("2z"), ready=True)) == rp.READY_LOCKED


def test_bots_play_whole_two_player_hands() -> None:
    summary = simulate("two_player", 12, seed=5)
    assert summary["errors"] == 0
    assert summary["invariant_violations"] == 0
    assert summary["wins"] + summary["draws"] == 12


# ---------------------------------------------------------------------------
# §6.4 extras


def test_reserve_size() -> None:
    state = scenario("two_player", hands=["123456789m1234z", "1122334455667z"], draws="9m")
    assert RULES.reserve(state) == 0
    on = scenario(
        "two_player", hands=["123456789m1234z", "1122334455667z"], draws="9m", options={"reserve": True}
    )
    assert RULES.reserve(on) == 8
    assert rp.reserve_size({"reserve": True, "reserve_n": 5}) == 5
    with pytest.raises(EngineError) as e:
        rp.reserve_size({"reserve": True, "reserve_n": 0})
    assert e.value.code == "bad_option"


def test_reserve_drawer() -> None:
    assert rp.reserve_drawer([]) is None  # nobody ready: the hand is drawn
    assert rp.reserve_drawer([1]) == 1  # exactly one ready: that player
    assert rp.reserve_drawer([1, 0]) == 1  # both: the first to declare


def test_exchange_draws_first_then_shuffles_the_returns_back() -> None:
    hand_counts = c("1199m1234567z5m5m")
    wall = tuple(parse("2m3f4m6m7m8m9m1z"))
    out = rp.exchange(hand_counts, parse("1z2z"), wall, random.Random(4))
    assert out.drawn == tuple(parse("2m3f"))
    # the flower is reported but not in the hand (the machine replaces it)
    assert out.hand == c("1199m34567z5m5m2m")
    assert sorted(out.wall) == sorted(parse("4m6m7m8m9m1z1z2z"))
    # same seed, same result (RULES §1.14); the returns land where the RNG says
    assert rp.exchange(hand_counts, parse("1z2z"), wall, random.Random(4)) == out
    # returning nothing changes nothing
    assert rp.exchange(hand_counts, [], wall, random.Random(4)) == (hand_counts, (), wall)
    with pytest.raises(EngineError):
        rp.exchange(hand_counts, parse("3m"), wall, random.Random(4))


@settings(max_examples=100, deadline=None)
@given(st.permutations(_SET_TILES + list(FLOWERS)), st.integers(0, 14), st.integers(0, 2**32))
def test_exchange_conserves_tiles(tiles: list[int], n: int, seed: int) -> None:
    held = [t for t in tiles[:14] if t not in FLOWERS]
    wall = tuple(tiles[14:])
    returned = held[:n]
    out = rp.exchange(counts_of(held), returned, wall, random.Random(seed))
    assert sum(out.hand) + sum(1 for t in out.drawn if t in FLOWERS) == len(held)
    before = Counter(held) + Counter(wall)
    after = Counter(tiles_of(out.hand)) + Counter(out.wall) + Counter(t for t in out.drawn if t in FLOWERS)
    assert before == after


def test_cuopai_chance() -> None:
    rng = random.Random(11)
    hits = sum(rp.cuopai_offered(rng) for _ in range(20_000))
    assert 0.04 * 20_000 < hits < 0.06 * 20_000  # default p = 0.05
    assert not any(rp.cuopai_offered(rng, 0.0) for _ in range(1000))
    assert all(rp.cuopai_offered(rng, 1.0) for _ in range(1000))


def test_cuopai_swap() -> None:
    wall = tuple(parse("5m1f7z5m9m"))
    assert rp.cuopai_choices(wall) == tuple(parse("5m9m7z"))  # no flowers
    hand_counts = c("123m456m789m1z2z3z4z")
    swapped, new_wall = rp.cuopai_swap(hand_counts, tile("4z"), tile("5m"), wall, random.Random(2))
    assert swapped == c("123m456m789m1z2z3z5m")
    # the drawn tile took the place of one of the two 5m
    assert sorted(new_wall) == sorted(parse("5m1f7z9m4z"))
    assert [i for i, t in enumerate(new_wall) if t == tile("4z")][0] in (0, 3)
    with pytest.raises(EngineError):
        rp.cuopai_swap(hand_counts, tile("4z"), tile("1m"), wall, random.Random(2))
    with pytest.raises(EngineError):  # 5z is not in the hand
        rp.cuopai_swap(hand_counts, tile("5z"), tile("5m"), wall, random.Random(2))


# ---------------------------------------------------------------------------
# §6.3 payment in live play: a self-draw pays value × 3 × base (seed 004 §三 "自摸：(基本分)×3方×底分"),
# a discard win value × base; the house rule `self_draw_multiplier` replaces the 3.

# seat 1 holds 234567m 99m 111z 77z and waits on 9m / 7z (see the score cases: 13 either way)
_WAITING = "234567m99m111z77z"


def _self_draw(**kw: object) -> HandResult:
    state = scenario("two_player", hands=["1133557788m2z3z4z", _WAITING], draws="5z9m", **kw)  # type: ignore[arg-type]
    state = run(state, "0: discard 5z")  # seat 1 cannot claim it and draws 9m
    assert Action("win") in legal_actions(state, 1)
    state = run(state, "1: win")
    return state.result


def test_a_self_draw_in_play_pays_value_times_three_times_base() -> None:
    result = _self_draw(base=2)
    assert result.by == "self_draw" and result.scores[0].value == 13
    assert result.payments == (-78, 78)  # 13 × 3 × 2


def test_the_house_rule_multiplier_one_pays_a_self_draw_like_a_discard() -> None:
    result = _self_draw(base=2, options={"self_draw_multiplier": 1})
    assert result.payments == (-26, 26)


def test_a_discard_win_in_play_pays_value_times_base() -> None:
    state = scenario("two_player", hands=["1133557788m2z3z4z", _WAITING], draws="9m", base=2)
    state = run(state, "0: discard 9m", "1: win 9m")
    assert state.result.by == "discard" and state.result.scores[0].value == 12
    assert state.result.payments == (-24, 24)  # 12 × 1 × 2


@pytest.mark.parametrize("bad", [0, 4, -1, True, "3"])
def test_a_self_draw_multiplier_out_of_range_is_refused_before_play(bad: object) -> None:
    with pytest.raises(EngineError) as e:
        scenario(
            "two_player",
            hands=["1133557788m2z3z4z", _WAITING],
            draws="9m",
            options={"self_draw_multiplier": bad},
        )
    assert e.value.code == "bad_option" and "self_draw_multiplier" in e.value.message
