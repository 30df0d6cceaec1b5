"""The waits help (games/engine/waits.py): right waits, unseen counts from the seat's view only,
the discard → waits table, and the reason a completed shape is not a win."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from games.engine.actions import Action, apply, new_hand, seats_to_act
from games.engine.bench import complete_hand, perturb
from games.engine.bots import decide
from games.engine.hand import ORPHANS
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.engine.scenario import scenario
from games.engine.state import HandState, evolve
from games.engine.tiles import FLOWERS, KINDS, name, parse
from games.engine.waits import blind, discard_waits, waits_for, waits_json

OTHERS = ["147m258p369s1234z", "258m369p147s1234z", "369m147p258s1234z"]


def tiles(waits: list) -> list[str]:
    return sorted(w.to_json()["tile"] for w in waits)


def after_dealer_discard(variant: str, hand: str, draw: str, discard: str, **kw: object):  # noqa: ANN201
    """Seat 0 (dealer) draws `draw` and discards `discard`; seat 0 then waits between turns."""
    state = scenario(variant, hands=[hand, *OTHERS], draws=draw, **kw)  # type: ignore[arg-type]
    state, _ = apply(state, 0, Action("discard", parse(discard)[0]))
    return state


def test_two_sided_wait_with_unseen_counts() -> None:
    state = after_dealer_discard("shanghai", "123m456m789p23s55z", "9s", "9s")
    waits = {w.to_json()["tile"]: w.unseen for w in waits_for(state, 0)}
    assert waits == {"1s": 4, "4s": 4}


def test_unseen_counts_drop_when_a_wait_tile_is_discarded_by_someone_else() -> None:
    hands = ["123m456m789p23s55z", "147m258p369s4s234z", "258m369p147s1234z", "369m147p258s1234z"]
    state = scenario("cantonese", hands=hands, draws="9s6p")
    state, _ = apply(state, 0, Action("discard", parse("9s")[0]))
    while state.phase == "claim":  # nobody claims 9s
        seat = state.window.waiting_for()[0]
        state, _ = apply(state, seat, Action("pass"))
    assert state.turn == 1
    state, _ = apply(state, 1, Action("discard", parse("4s")[0]))
    waits = {w.to_json()["tile"]: w.unseen for w in waits_for(state, 0)}
    assert waits["4s"] == 3 and waits["1s"] == 4


def test_own_tiles_count_as_seen() -> None:
    state = after_dealer_discard("shanghai", "123m456m789p11s55z", "9s", "9s")
    waits = {w.to_json()["tile"]: w.unseen for w in waits_for(state, 0)}
    assert waits == {"1s": 2, "5z": 2}  # shanpon: two of each held


def test_waits_never_depend_on_hidden_tiles() -> None:
    state = after_dealer_discard("shanghai", "123m456m789p23s55z", "9s", "9s")
    other = list(state.players)
    other[1] = evolve(other[1], concealed=other[2].concealed)  # another seat's hand changed
    shuffled = evolve(state, players=tuple(other), wall=tuple(reversed(state.wall)))
    assert waits_for(shuffled, 0) == waits_for(state, 0)
    assert blind(state, 0) == blind(shuffled, 0)
    assert set(blind(state, 0).wall) == {0} and not any(blind(state, 0).players[1].concealed)


def test_discard_waits_on_the_seats_turn() -> None:
    state = scenario("cantonese", hands=["123m456m789p23s55z", *OTHERS], draws="4s")
    table = {name(t): tiles(ws) for t, ws in discard_waits(state, 0).items()}
    # 123m 456m 789p 234s 55z: each discard leaves a different wait
    assert table["2s"] == ["2s", "5s"]
    assert table["4s"] == ["1s", "4s"]
    assert table["1m"] == ["1m", "4m", "7m"]  # 23m 456m: three-sided
    assert table["5z"] == ["5z"]
    view = waits_json(state, 0)
    assert view["waits"] == [] and {d["discard"] for d in view["discard_waits"]} == set(table)


def test_joker_hand_waits_tianjin() -> None:
    # 5m is the joker: 123m 456p 789s 11z 2z + joker → 1z (11z+1z, 2z+joker) or 2z (22z+joker)
    others = ["46789m123789p34z", "123456s34567z78p", "46789m1239p567z4s"]
    state = scenario("tianjin", hands=["123m456p789s11z2z5m", *others], draws="9p", jokers="5m")
    state, _ = apply(state, 0, Action("discard", parse("9p")[0]))
    waits = tiles(waits_for(state, 0))
    assert {"1z", "2z"} <= set(waits)


@pytest.mark.parametrize("variant", ["shanghai", "yihua", "cantonese", "tianjin"])
def test_waits_json_between_turns_is_a_list_of_tiles_and_counts(variant: str) -> None:
    state = after_dealer_discard(variant, "123m456m789p23s55z", "9s", "9s", base=2)
    out = waits_json(state, 0)
    assert out["discard_waits"] == []
    assert all(set(w) <= {"tile", "unseen", "refused", "discard_refused"} for w in out["waits"])
    assert {w["tile"] for w in out["waits"]} >= {"1s", "4s"}


def test_a_completed_shape_the_rules_refuse_says_why() -> None:
    # 一花起胡: no win without a flower; the shape completes, the help says why not
    state = after_dealer_discard("yihua", "123m456m789p23s55z", "9s", "9s", base=2)
    waits = waits_for(state, 0)
    assert [w.discard_refused for w in waits] == ["one_flower_minimum"] * 2, waits
    assert not any(w.refused for w in waits)  # a self-draw needs no flower
    flowered = after_dealer_discard(
        "yihua", "123m456m789p23s55z", "9s", "9s", base=2, flowers=["1f", "", "", ""]
    )
    assert not any(w.refused or w.discard_refused for w in waits_for(flowered, 0))


# --- the candidate filter: every kind the shape test accepts is among a ruleset's candidates ---


def shape_waits_by_brute_force(state: HandState, seat: int, concealed: bytes) -> set[int]:
    rules = get_ruleset(state.variant)
    out = set()
    for t in range(KINDS):
        with_t = bytearray(concealed)
        with_t[t] += 1
        if with_t[t] <= 4 and rules.is_winning_shape(state, seat, bytes(with_t)):
            out.add(t)
    return out


def assert_candidates_cover(state: HandState, seat: int, concealed: bytes) -> None:
    candidates = get_ruleset(state.variant).wait_candidates(state, seat, concealed)
    missed = shape_waits_by_brute_force(state, seat, concealed) - candidates
    assert not missed, (state.variant, bytes(concealed).hex(), sorted(missed))


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_wait_candidates_cover_every_wait_in_played_hands(variant: str) -> None:
    """Bots play whole hands; at every step every seat's concealed part (and, on a turn, each
    discard's remainder) is checked against the shape test over all 34 kinds."""
    rng = random.Random(17)
    n = get_ruleset(variant).players
    for i in range(12):
        state = new_hand(variant, 900 + i, dealer=i % n, base=2 if variant == "yihua" else 1)
        while state.phase != "over":
            for seat, p in enumerate(state.players):
                if p.hand_size % 3 == 1:
                    assert_candidates_cover(state, seat, p.concealed)
                else:
                    for t in range(KINDS):
                        if p.concealed[t]:
                            rest = bytearray(p.concealed)
                            rest[t] -= 1
                            assert_candidates_cover(state, seat, bytes(rest))
            seat = seats_to_act(state)[0]
            state, _ = apply(state, seat, decide("easy", state, seat, rng))


def near_complete_hands(rng: random.Random, count: int, kinds: Sequence[int]) -> Iterator[bytes]:
    """13-tile hands one or two tiles from a complete hand, seven pairs or thirteen orphans."""
    for i in range(count):
        shape = i % 3
        if shape == 0:
            tiles = complete_hand(rng)
        elif shape == 1:
            pairs = rng.sample(list(kinds), 7)
            tiles = [t for t in pairs for _ in range(2)]
        else:
            tiles = [*ORPHANS, rng.choice(ORPHANS)]
        tiles = [t if t in kinds else rng.choice(kinds) for t in tiles]
        tiles = perturb(rng, tiles, i % 2)
        tiles.pop(rng.randrange(len(tiles)))
        counts = bytearray(KINDS)
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            yield bytes(counts)


def _near_complete_tables(variant: str) -> tuple[list[HandState], list[int]]:
    """A fresh hand of `variant` to seat near-complete hands in (with 八花 too in Shanghai: it takes
    any 14 tiles), and the variant's tile kinds."""
    state = new_hand(variant, 3, dealer=0, base=2 if variant == "yihua" else 1)
    states = [state]
    if variant == "shanghai":
        states.append(state.with_player(0, flowers=tuple(sorted(FLOWERS))[:8]))
    return states, sorted({t for t in get_ruleset(variant).wall_tiles() if t < KINDS})


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_wait_candidates_cover_special_shapes_flowers_and_jokers(variant: str) -> None:
    rng = random.Random(5)
    states, kinds = _near_complete_tables(variant)
    for counts in near_complete_hands(rng, 1500, kinds):
        for s in states:
            assert_candidates_cover(s.with_player(0, concealed=counts, drawn=None), 0, counts)


def _seen_counted_afresh(state: HandState, seat: int) -> list[int]:
    """The counts `seen_by` gives, counted without the per-state sharing (the rule as stated)."""
    seen = [0] * KINDS
    for s, p in enumerate(state.players):
        for i, t in enumerate(p.discards):
            if i not in p.claimed_discards and t < KINDS:
                seen[t] += 1
        for m in p.melds:
            if m.kind != "concealed_kong" or s == seat:
                for t in m.tiles:
                    if t < KINDS:
                        seen[t] += 1
    for t, n in enumerate(state.players[seat].concealed[:KINDS]):
        seen[t] += n
    if state.indicator is not None and state.indicator < KINDS:
        seen[state.indicator] += 1
    return seen


@pytest.mark.parametrize("variant", ["shanghai", "cantonese", "yihua"])
def test_seen_counts_and_blinding_shared_by_the_seats_are_each_seats_own(variant: str) -> None:
    """The face-up counts and the erased seats are made once per state and shared by every
    seat's help: each seat still gets exactly its own (its hand and concealed kongs counted, its
    hand kept, everybody else's erased), asked in any order."""
    from games.engine.waits import seen_by

    for state in _states_of_play(variant, seed=3, hands=2):
        seats = list(range(state.num_players))
        for seat in seats[::-1] + seats:  # (the second pass reads what the first shared)
            assert seen_by(state, seat) == _seen_counted_afresh(state, seat)
            known = blind(state, seat)
            assert known.players[seat] is state.players[seat]
            assert set(known.wall) <= {0} and len(known.wall) == len(state.wall)
            for other, p in enumerate(known.players):
                if other != seat:
                    assert not any(p.concealed) and p.drawn is None
                    assert p.melds == state.players[other].melds


def _states_of_play(variant: str, seed: int, hands: int) -> Iterator[HandState]:
    """Every state of `hands` hands the easy bots play (melds, claimed river tiles, kongs)."""
    rng = random.Random(seed)
    n = get_ruleset(variant).players
    for i in range(hands):
        state = new_hand(variant, seed + i, dealer=i % n, base=2 if variant == "yihua" else 1)
        while state.phase != "over":
            yield state
            seat = seats_to_act(state)[0]
            state, _ = apply(state, seat, decide("easy", state, seat, rng))


# --- the discard filter: every discard after which the shape test finds a wait is asked ---


def discards_with_a_wait(state: HandState, seat: int, concealed: bytes) -> set[int]:
    """Discards whose remainder some kind completes (the shape test over all 34 kinds)."""
    out = set()
    for t in range(KINDS):
        if concealed[t]:
            rest = bytearray(concealed)
            rest[t] -= 1
            if shape_waits_by_brute_force(state, seat, bytes(rest)):
                out.add(t)
    return out


def assert_discards_cover(state: HandState, seat: int, concealed: bytes) -> int:
    """The ruleset's discard filter misses no discard that leaves a wait; 1 when it asked a
    subset of the discards (None asks them all)."""
    asked = get_ruleset(state.variant).discards_that_may_wait(state, seat, concealed)
    if asked is None:
        return 0
    assert asked == sorted(set(asked)) and all(concealed[t] for t in asked)
    missed = discards_with_a_wait(state, seat, concealed) - set(asked)
    assert not missed, (state.variant, bytes(concealed).hex(), sorted(missed))
    return 1


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_discard_filter_misses_no_wait_in_played_hands(variant: str) -> None:
    """Bots play whole hands; on every turn the seat to play's 14 tiles are checked."""
    filtered = 0
    for state in _states_of_play(variant, seed=700, hands=8):
        for seat, p in enumerate(state.players):
            if p.hand_size % 3 == 2:
                filtered += assert_discards_cover(state, seat, p.concealed)
    assert filtered  # the filter answered for some turns (not only "ask every discard")


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_discard_filter_misses_no_wait_near_complete_hands(variant: str) -> None:
    """14-tile hands one or two tiles from a complete hand, seven pairs or thirteen orphans,
    with melds and without, 八花 and jokers where the variant has them."""
    rng = random.Random(11)
    states, kinds = _near_complete_tables(variant)
    ready = 0
    for counts in near_complete_hands(rng, 1500, kinds):
        extra = bytearray(counts)
        extra[rng.choice(kinds)] += 1
        if max(extra) > 4:
            continue
        for s in states:
            seated = s.with_player(0, concealed=bytes(extra), drawn=None)
            assert_discards_cover(seated, 0, bytes(extra))
            ready += bool(discards_with_a_wait(seated, 0, bytes(extra)))
    assert ready  # hands that wait after some discard were among them


def test_discard_waits_table_unchanged_by_the_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The discard → waits table of played turns, the filter on and every discard asked."""
    for variant in VARIANT_IDS:
        rules = type(get_ruleset(variant))
        for state in _states_of_play(variant, seed=5, hands=1):
            if state.phase != "turn":
                continue
            filtered = discard_waits(state, state.turn)
            with monkeypatch.context() as patched:
                patched.setattr(rules, "discards_that_may_wait", lambda *args: None)
                assert discard_waits(state, state.turn) == filtered


def assert_may_wait_covers(state: HandState, seat: int, concealed: bytes) -> int:
    """`may_wait` says no only of a hand no kind completes (the shape test over all 34 kinds);
    1 when it said no."""
    if get_ruleset(state.variant).may_wait(state, seat, concealed):
        return 0
    assert not shape_waits_by_brute_force(state, seat, concealed), (state.variant, bytes(concealed).hex())
    return 1


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_may_wait_misses_no_wait(variant: str) -> None:
    """Every waiting seat of played hands, then 13-tile hands one or two tiles from a complete
    hand, seven pairs or thirteen orphans (八花 where the variant has it)."""
    rng = random.Random(29)
    said_no = 0
    for state in _states_of_play(variant, seed=600, hands=8):
        for seat, p in enumerate(state.players):
            if p.hand_size % 3 == 1:
                said_no += assert_may_wait_covers(state, seat, p.concealed)
    assert said_no  # the quick test answered for some seats
    states, kinds = _near_complete_tables(variant)
    for counts in near_complete_hands(rng, 1500, kinds):
        for s in states:
            assert_may_wait_covers(s.with_player(0, concealed=counts, drawn=None), 0, counts)


def test_waits_unchanged_by_the_quick_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every waiting seat's waits of played hands, the quick test on and every hand asked."""
    for variant in VARIANT_IDS:
        rules = type(get_ruleset(variant))
        for state in _states_of_play(variant, seed=7, hands=1):
            for seat, p in enumerate(state.players):
                if p.hand_size % 3 != 1:
                    continue
                quick = waits_for(state, seat)
                with monkeypatch.context() as patched:
                    patched.setattr(rules, "may_wait", lambda *args: True)
                    assert waits_for(state, seat) == quick
