"""Bot levels: they see only a player's view, never act illegally, value patterns and defend."""

from __future__ import annotations

import inspect
import json
import os
import random
from collections.abc import Iterable, Iterator

import pytest

from games.engine import bots
from games.engine.__main__ import main
from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots import BOTS, LEVELS, PlayerView, check_level, decide, search
from games.engine.bots.arena import arena, play
from games.engine.bots.defence import threats
from games.engine.bots.policies import (
    discard_options,
    easy,
    normal,
    strong,
    strong_at_speed,
    strong_folding_carefully,
    strong_style,
)
from games.engine.bots.seen import OtherSeat
from games.engine.bots.shape import distance, improving, two_step
from games.engine.bots.value import plan_multiplier, wait_payoff
from games.engine.errors import EngineError
from games.engine.rulesets import VARIANT_IDS
from games.engine.state import HandState, Meld, evolve
from games.engine.tiles import KINDS, counts_of, parse, tile
from games.engine.view import view_for
from tests.engine.threats import strong_turns

# A few hundred hands per variant in CI (every hand seats all three levels); more by hand:
# BOT_PROPERTY_HANDS=1000 .venv/bin/pytest tests/engine/test_bots.py -k illegal
PROPERTY_HANDS = int(os.environ.get("BOT_PROPERTY_HANDS", "120"))


@pytest.fixture(autouse=True)
def _expert_searches_a_fixed_number_of_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """expert's search stops on the clock at a live table; here on a sample count, so that two
    calls with the same rng search the same worlds (the re-deal test compares them) and the
    many-hands tests stay quick."""
    monkeypatch.setattr(search, "BUDGET", search.Budget(samples=6, time_ms=None))
    monkeypatch.setattr(search, "RACE_BUDGET", search.RaceBudget(samples=6, time_ms=None))


# -- they see only a player's view -----------------------------------------------------------


def test_a_bot_is_handed_a_view_and_legal_actions_never_the_state() -> None:
    for level in LEVELS:
        params = list(inspect.signature(BOTS[level]).parameters.values())
        assert [p.name for p in params] == ["view", "legal", "rng"]
        assert params[0].annotation in ("PlayerView", PlayerView)
        assert "HandState" not in str(params[0].annotation)


def _mid_hand(variant: str, seed: int, steps: int) -> HandState:
    """A state `steps` bot actions into a hand (or the last one before it ends)."""
    state = new_hand(variant, seed, base=2)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = seats_to_act(state)[0]
        nxt, _ = apply(state, seat, decide("easy", state, seat, rng))
        if nxt.phase == "over":
            break
        state = nxt
    return state


def reshuffle_hidden(state: HandState, viewer: int, seed: int) -> HandState:
    """The same table for `viewer`, but other hands' concealed tiles and the live wall dealt
    differently: only what `viewer` cannot see changes (hand sizes, drawn tiles and the wall's
    flowers kept in place, so the hand can go on the same way)."""
    live = list(state.wall[state.head : state.tail])
    slots = [i for i, t in enumerate(live) if t < KINDS]
    pool: list[int] = [live[i] for i in slots]
    keep = {}
    for s, p in enumerate(state.players):
        if s == viewer:
            continue
        c = bytearray(p.concealed)
        if p.drawn is not None:
            c[p.drawn] -= 1
        keep[s] = sum(c)
        for t in range(KINDS):
            pool.extend([t] * c[t])
    random.Random(seed).shuffle(pool)
    players = list(state.players)
    for s, size in keep.items():
        hand, pool = pool[:size], pool[size:]
        c = bytearray(counts_of(hand))
        if players[s].drawn is not None:
            c[players[s].drawn] += 1
        players[s] = evolve(players[s], concealed=bytes(c))
    for i, t in zip(slots, pool, strict=True):
        live[i] = t
    wall = state.wall[: state.head] + tuple(live) + state.wall[state.tail :]
    return evolve(state, players=tuple(players), wall=wall)


def expert_blind_and_departing(turns: Iterable[tuple[HandState, int]], seed: int) -> tuple[int, int]:
    """At each (state, seat) of `turns`: expert's move is the same on a table whose hidden tiles
    were dealt again (asserted), and whether it leaves strong's. → (turns compared, departures),
    so a caller can require the lever under test to bite somewhere."""
    compared = differ = 0
    for i, (state, seat) in enumerate(turns):
        other = reshuffle_hidden(state, seat, seed * 100 + i)
        assert view_for(other, seat) == view_for(state, seat)
        mine = [decide("expert", s, seat, random.Random(1)) for s in (state, other)]
        assert mine[0] == mine[1]
        compared += 1
        differ += mine[0] != decide("strong", state, seat, random.Random(1))
    return compared, differ


def two_player_expert_blind_and_departing(seeds: range) -> tuple[int, int]:
    """expert_blind_and_departing over every discard of a hand of strong bots per seed, summed."""
    counts = [expert_blind_and_departing(strong_turns("two_player", seed, every=1), seed) for seed in seeds]
    return sum(c for c, _ in counts), sum(d for _, d in counts)


def departures_from_strong(variant: str, seed: int) -> int:
    """How many of expert's moves differ from strong's over the discards of a hand of strong bots."""
    return sum(
        decide("expert", state, seat, random.Random(1)) != decide("strong", state, seat, random.Random(1))
        for state, seat in strong_turns(variant, seed, every=1)
    )


def _seats_to_act_mid_hand(
    variant: str, seeds: range, steps_into: tuple[int, ...]
) -> Iterator[tuple[int, int, HandState, int]]:
    """(seed, steps, state, the first seat to act) for hands `steps` actions in."""
    for seed in seeds:
        for steps in steps_into:
            state = _mid_hand(variant, seed, steps)
            yield seed, steps, state, seats_to_act(state)[0]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_bots_choice_ignores_hidden_tiles(variant: str) -> None:
    compared = 0
    for seed, steps, state, seat in _seats_to_act_mid_hand(variant, range(6), (5, 17, 31, 45)):
        other = reshuffle_hidden(state, seat, seed + steps)
        assert other.wall != state.wall or other.players != state.players  # really different
        assert view_for(other, seat) == view_for(state, seat)
        for level in LEVELS:
            a = decide(level, state, seat, random.Random(1))
            b = decide(level, other, seat, random.Random(1))
            assert a == b, (variant, seed, steps, level)
            compared += 1
    assert compared == 6 * 4 * len(LEVELS)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_bot_reads_the_players_view_less_only_the_waits_help(variant: str) -> None:
    # decide builds the view without the waits help (no bot reads it): everything else is the
    # very dict the player's browser gets, and the help is really there to leave out
    helped = 0
    help_keys = {"waits", "discard_waits"}
    for _seed, _steps, state, seat in _seats_to_act_mid_hand(variant, range(4), (0, 5, 17, 31)):
        full = view_for(state, seat)
        helped += bool(help_keys & full.keys())
        assert view_for(state, seat, hints=False) == {k: v for k, v in full.items() if k not in help_keys}
    assert helped


def test_a_spectators_view_is_refused() -> None:
    state = new_hand("shanghai", 1)
    with pytest.raises(ValueError):
        PlayerView.of(view_for(state, None))


# -- they never act illegally ------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_bots_never_send_an_illegal_action(variant: str) -> None:
    """Every level in every seat over many whole hands: each action is in `legal`."""
    actions = dict.fromkeys(LEVELS, 0)
    for i in range(PROPERTY_HANDS):
        state = new_hand(variant, 50_000 + i, dealer=i % 2, base=2)
        n = state.num_players
        levels = [LEVELS[(s + i) % len(LEVELS)] for s in range(n)]
        rng = random.Random(i)
        steps = 0
        while state.phase != "over":
            seat = seats_to_act(state)[0]
            action = decide(levels[seat], state, seat, rng)
            assert action in legal_actions(state, seat), (variant, i, levels[seat], action)
            state, _ = apply(state, seat, action)
            actions[levels[seat]] += 1
            steps += 1
            assert steps < 2000
    assert all(actions.values())


# -- value and defence, on hand-made views -----------------------------------------------------


def _view(
    hand: str, variant: str = "shanghai", others: tuple[OtherSeat, ...] | None = None, **kw
) -> PlayerView:
    counts = counts_of(parse(hand))
    seen = bytearray(counts)
    others = others if others is not None else tuple(OtherSeat(s, (), (), 0, 0, False) for s in (1, 2, 3))
    for o in others:
        for t in o.discards:
            seen[t] += 1
        for m in o.melds:
            for t in m.tiles:
                seen[t] += 1
    base = {
        "variant": variant,
        "phase": "turn",
        "me": 0,
        "players": 4,
        "dealer": 1,
        "round_wind": tile("1z"),
        "wall_left": 60,
        "hand": counts,
        "drawn": None,
        "melds": (),
        "flowers": (),
        "discarded_joker": False,
        "jokers": (),
        "others": others,
        "unseen": bytes(max(0, 4 - c) for c in seen),
        "last_discard": None,
    }
    base.update(kw)
    return PlayerView(**base)


def _discards(view: PlayerView) -> list[Action]:
    return [Action("discard", t) for t in range(KINDS) if view.hand[t]]


def _ready_worth(view: PlayerView, discard: int) -> int:
    """Σ over the waits left by `discard` of unseen copies × the variant's exact payoff."""
    c = bytearray(view.hand)
    c[discard] -= 1
    return sum(
        view.unseen[w] * wait_payoff(view, bytes(c), w)
        for w in range(KINDS)
        if wait_payoff(view, bytes(c), w)
    )


def test_normal_chooses_the_wait_the_variants_scoring_values_most() -> None:
    # ready after 3s or after 6s: easy throws by shape alone; normal scores each wait with
    # Shanghai's own scoring and keeps the richer one
    view = _view("55m111345666778s")
    legal = _discards(view)
    e, n = easy(view, legal, random.Random(0)).tile, normal(view, legal, random.Random(0)).tile
    assert e is not None and n is not None and e != n
    assert _ready_worth(view, n) > _ready_worth(view, e) > 0


def test_plans_are_priced_by_each_variants_patterns() -> None:
    bamboo = counts_of(parse("11123456789s99s"))
    mixed = counts_of(parse("11123456m789s99p"))
    assert plan_multiplier("shanghai", bamboo, ()) > 5 > 1.1 > plan_multiplier("shanghai", mixed, ())
    assert plan_multiplier("cantonese", bamboo, ()) > plan_multiplier("yihua", bamboo, ()) > 1.0
    assert plan_multiplier("tianjin", bamboo, ()) == 1.0  # nothing suit-shaped scores there
    # a claimed off-suit meld kills the one-suit plan
    chi = Meld("chi", tuple(parse("123m")), 3, tile("1m"))
    assert plan_multiplier("shanghai", counts_of(parse("123456789s99s")), (chi,)) == 1.0


def test_strong_folds_against_a_big_exposed_hand_and_normal_does_not() -> None:
    threat = OtherSeat(
        1,
        discards=tuple(parse("19p1s2z3z4z7z9s6z2s")),
        melds=(
            Meld("pong", tuple(parse("555m")), 2, tile("5m")),
            Meld("chi", tuple(parse("234m")), 0, tile("3m")),
            Meld("pong", tuple(parse("777m")), 3, tile("7m")),
        ),
        hidden_kongs=0,
        flowers=0,
        ready=False,
    )
    quiet = tuple(OtherSeat(s, (), (), 0, 0, False) for s in (2, 3))
    # a far hand (3+ shanten) holding characters, the suit the threat collects, and a tile
    # the threat threw itself (9p)
    view = _view("2m4m8m1p5p9p3s6s8s1z3z5z6z7z", others=(threat, *quiet))
    legal = _discards(view)
    safe = strong(view, legal, random.Random(0)).tile
    assert safe is not None and safe >= 9  # never a character into a character hand
    assert safe in threat.discards or safe >= 27
    pushed = [normal(view, legal, random.Random(0)).tile]
    assert pushed != [safe] or safe in threat.discards


def test_tianjin_never_folds_because_nobody_wins_on_a_discard() -> None:
    threat = OtherSeat(
        1,
        discards=(),
        melds=(Meld("pong", tuple(parse("555m")), 2, 4),) * 3,
        hidden_kongs=0,
        flowers=0,
        ready=True,
    )
    view = _view("2m4m8m1p5p9p3s6s8s1z3z5z6z7z", variant="tianjin", others=(threat,) * 3)
    legal = _discards(view)
    assert strong(view, legal, random.Random(0)) == normal(view, legal, random.Random(0))


def _a_plain_threat() -> tuple[OtherSeat, tuple[OtherSeat, ...]]:
    """Seat 1 with two melds and ten discards (readiness ~0.6, a plain-sized hand), seats 2 and
    3 quiet."""
    threat = OtherSeat(
        1,
        discards=tuple(parse("19p1s2z3z4z7z9s6z2s")),
        melds=(
            Meld("pong", tuple(parse("555m")), 2, tile("5m")),
            Meld("chi", tuple(parse("234p")), 0, tile("3p")),
        ),
        hidden_kongs=0,
        flowers=0,
        ready=False,
    )
    return threat, tuple(OtherSeat(s, (), (), 0, 0, False) for s in (2, 3))


def test_strong_folds_late_against_what_it_pushes_through_early() -> None:
    # one opponent with two melds and ten discards (readiness ~0.6, a plain-sized hand): early
    # in the wall a far hand pushes; with a few draws left it plays safe
    threat, quiet = _a_plain_threat()
    hand = "2m4m8m1p5p9p3s6s8s1z3z5z6z7z"
    early = _view(hand, others=(threat, *quiet), wall_left=64)
    late = _view(hand, others=(threat, *quiet), wall_left=8)
    legal = _discards(early)
    assert strong(early, legal, random.Random(0)) == normal(early, legal, random.Random(0))
    safe = strong(late, legal, random.Random(0)).tile
    assert safe in threat.discards


def test_the_careful_player_folds_early_against_what_strong_pushes_through() -> None:
    # the threat of the test above, early in the wall: strong pushes; folding against a third of
    # the threat (policies.CAREFUL_FOLD) throws one of the threat's own discards
    threat, quiet = _a_plain_threat()
    # a far hand whose loosest tiles (the honours 1z and 5z) the threat has not thrown
    early = _view("2m4m8m1p5p9p3s6s8s1z5z4m7m3p", others=(threat, *quiet), wall_left=64)
    legal = _discards(early)
    pushed = strong(early, legal, random.Random(0)).tile
    careful = strong_folding_carefully(early, legal, random.Random(0)).tile
    assert pushed not in threat.discards
    assert careful in threat.discards


def test_strong_prices_the_tianjin_dragon_normal_does_not() -> None:
    # 1–9 of characters all but the 5 (which a joker covers): the 龙 quadruples a Tianjin hand
    jokers = (tile("3p"), tile("4p"))
    near = counts_of(parse("12346789m3p5s7s22z"))
    far = counts_of(parse("159m3p5s7s9s22z147p"))
    assert plan_multiplier("tianjin", near, (), "normal", jokers) == 1.0
    assert plan_multiplier("tianjin", near, (), "strong", jokers) == 4.0
    assert plan_multiplier("tianjin", far, (), "strong", jokers) < 1.1
    # runs in the hand only: a laid meld in that suit ends it
    chi = Meld("chi", tuple(parse("123m")), 3, tile("1m"))
    assert plan_multiplier("tianjin", counts_of(parse("46789m3p5s7s22z")), (chi,), "strong", jokers) == 1.0


def test_two_player_strong_takes_a_discard_win_against_a_ready_opponent() -> None:
    # holding out for the 3× self-draw only pays when the opponent is far; a declared-ready
    # opponent makes it a race strong does not take
    ready = OtherSeat(1, tuple(parse("1z2z")), (), 0, 0, True)
    view = _view(
        "1m2m3m4m5m6m7m8m9m1z1z5z5z",
        variant="two_player",
        others=(ready,),
        players=2,
        phase="claim",
        last_discard=(1, tile("5z"), "discard"),
    )
    legal = [Action("win"), Action("pass")]
    assert strong(view, legal, random.Random(0)).type == "win"


def test_two_player_strong_holds_out_for_the_self_draw_with_a_wide_wait_early() -> None:
    # 2–8m waits on 2m 5m 8m (and 1z/5z pungs stay): with the wall full and a quiet opponent
    # the 3× self-draw is worth more than 13 now; near the end of the wall it is not
    quiet = OtherSeat(1, (), (), 0, 0, False)

    def offered(wall_left: int) -> PlayerView:
        return _view(
            "2m3m4m5m6m7m8m1z1z1z5z5z5z",
            variant="two_player",
            others=(quiet,),
            players=2,
            phase="claim",
            last_discard=(1, tile("2m"), "discard"),
            wall_left=wall_left,
        )

    legal = [Action("win"), Action("pass")]
    assert strong(offered(44), legal, random.Random(0)).type == "pass"
    assert strong(offered(10), legal, random.Random(0)).type == "win"
    assert normal(offered(44), legal, random.Random(0)).type == "win"  # normal takes every win


def test_two_player_strong_keeps_its_ready_hand_free_of_the_declaration() -> None:
    # 报听 scores nothing by default and locks the hand (no better wait later, no kong): normal
    # declares whenever its discard allows, as easy does; strong throws the same tile undeclared
    view = _view(
        "1m2m3m4m5m6m7m8m9m1z1z5z5z7z",
        variant="two_player",
        players=2,
        others=(OtherSeat(1, (), (), 0, 0, False),),
    )
    legal = [*_discards(view), Action("discard", tile("7z"), ready=True)]
    assert normal(view, legal, random.Random(0)) == Action("discard", tile("7z"), ready=True)
    assert strong(view, legal, random.Random(0)) == Action("discard", tile("7z"))


def _offered_a_discard_win(variant: str, wall_left: int, melds_each: int = 0) -> PlayerView:
    # 234 567m 8m (waits 2m 5m 8m) 123p 456s, offered 5m by seat 3; each opponent has thrown
    # six tiles and laid `melds_each` melds
    melds = (
        Meld("pong", tuple(parse("9p9p9p")), 2, tile("9p")),
        Meld("chi", tuple(parse("789s")), 2, tile("7s")),
    )
    others = tuple(
        OtherSeat(s, tuple(parse("1z2z3z1s4p7p")), melds[:melds_each], 0, 0, False) for s in (1, 2, 3)
    )
    return _view(
        "2m3m4m5m6m7m8m1p2p3p4s5s6s",
        variant=variant,
        others=others,
        phase="claim",
        last_discard=(3, tile("5m"), "discard"),
        wall_left=wall_left,
    )


def test_cantonese_strong_holds_out_for_the_self_draw_while_the_race_is_worth_it() -> None:
    # 漏和 locks discard wins only until the next draw, and a self-draw is paid by all three with
    # the 自摸 fan on top (six times the discarder's payment here): with a wide wait, the wall
    # long and the others quiet, strong plays on; late in the wall, or against opponents with
    # two melds laid each (likely ready), it takes the win; normal takes every win
    legal = [Action("win"), Action("pass")]
    assert strong(_offered_a_discard_win("cantonese", 60), legal, random.Random(0)).type == "pass"
    assert normal(_offered_a_discard_win("cantonese", 60), legal, random.Random(0)).type == "win"
    assert strong(_offered_a_discard_win("cantonese", 8), legal, random.Random(0)).type == "win"
    assert (
        strong(_offered_a_discard_win("cantonese", 60, melds_each=2), legal, random.Random(0)).type == "win"
    )


def test_strong_takes_the_win_where_a_self_draw_pays_only_three_shares() -> None:
    # yihua and Shanghai: a self-draw pays three times the discarder's share; against three
    # opponents who have each laid a meld that race is not worth the win on the table
    legal = [Action("win"), Action("pass")]
    assert strong(_offered_a_discard_win("yihua", 60), legal, random.Random(0)).type == "win"
    assert strong(_offered_a_discard_win("shanghai", 60, melds_each=1), legal, random.Random(0)).type == "win"


def _dealt_counts(rng: random.Random, size: int) -> bytes:
    wall = [t for t in range(KINDS) for _ in range(4)]
    rng.shuffle(wall)
    return counts_of(wall[:size])


def test_improving_is_every_unseen_draw_that_lowers_the_distance() -> None:
    # improving keeps per hand what lowers it and applies `unseen` after: checked against
    # asking `distance` of the hand with each kind drawn, with jokers and declared melds
    rng = random.Random(11)
    for i in range(1500):
        melds = i % 4
        hand = _dealt_counts(rng, 13 - 3 * melds)
        jokers = ((), (rng.randrange(KINDS),), (tile("5p"), tile("6p")))[i % 3]
        unseen = bytes(rng.randrange(5) for _ in range(KINDS))
        now = distance(hand, melds, jokers)
        expected = []
        for t in range(KINDS):
            c = bytearray(hand)
            c[t] += 1
            if unseen[t] and distance(bytes(c), melds, jokers) < now:
                expected.append(t)
        assert improving(hand, melds, jokers, unseen) == (sum(unseen[t] for t in expected), expected)


def test_two_step_is_draws_times_the_count_after_the_best_next_discard() -> None:
    # one from ready: 234m 67m 123p 567s + 9s 1z; checked against a plain enumeration over
    # every draw and every discard after it
    hand = counts_of(parse("2m3m4m6m7m1p2p3p5s6s7s9s1z"))
    unseen = bytes(4 - c for c in hand)
    now = distance(hand, 0, ())
    assert now == 1
    expected = 0
    for t in range(KINDS):
        c = bytearray(hand)
        c[t] += 1
        if not unseen[t] or distance(bytes(c), 0, ()) >= now:
            continue
        best = 0
        for d in range(KINDS):
            if c[d] and d != t:
                c[d] -= 1
                if distance(bytes(c), 0, ()) < now:
                    best = max(best, improving(bytes(c), 0, (), unseen)[0])
                c[d] += 1
        expected += unseen[t] * best
    assert two_step(hand, 0, (), unseen) == expected > improving(hand, 0, (), unseen)[0] > 0
    fewer = bytearray(unseen)
    fewer[tile("5m")] = fewer[tile("8m")] = 0  # 67m's waits all seen: less to draw, less ahead
    assert two_step(hand, 0, (), bytes(fewer)) < expected


def test_two_player_strong_looks_two_draws_ahead_where_normal_does_not() -> None:
    # one from ready, the same one-step count (15) after throwing 2m or 7m; after 7m the next
    # useful draw leaves far wider waits (two_step 117 against 60): strong throws 7m
    quiet = OtherSeat(1, (), (), 0, 0, False)
    view = _view("1m1m2m2m2m3m4m4m6m7m7m7m8m9m", variant="two_player", others=(quiet,), players=2)
    legal = _discards(view)
    n, st = normal(view, legal, random.Random(0)).tile, strong(view, legal, random.Random(0)).tile
    assert n is not None and st is not None and n != st

    def left(t: int) -> bytes:
        c = bytearray(view.hand)
        c[t] -= 1
        return bytes(c)

    assert improving(left(n), 0, (), view.unseen)[0] == improving(left(st), 0, (), view.unseen)[0]
    assert two_step(left(st), 0, (), view.unseen) > two_step(left(n), 0, (), view.unseen)


def test_strong_calls_the_kong_normal_leaves() -> None:
    # ready on 1z either way: the exposed kong of 5z keeps the hand as close and brings a free
    # replacement draw; strong calls it, normal (like easy) only calls a kong that brings it closer
    view = _view("123m456p789s1z555z", phase="claim", last_discard=(3, tile("5z"), "discard"))
    legal = [Action("kong", tile("5z"), kind="exposed"), Action("pong", tile("5z")), Action("pass")]
    assert strong(view, legal, random.Random(0)) == legal[0]
    assert normal(view, legal, random.Random(0)).type == "pass"
    assert easy(view, legal, random.Random(0)).type == "pass"


def test_tianjin_strong_takes_any_kong_because_kongs_are_paid_when_made() -> None:
    # 3m is in a run and a pung: konging it costs a step, but Tianjin pays a concealed kong 2 from
    # each player at once; normal keeps the faster hand
    jokers = (tile("5p"), tile("6p"))
    view = _view("1233334m67m89p11s3z", variant="tianjin", jokers=jokers)
    kong = Action("kong", tile("3m"), kind="concealed")
    legal = [*_discards(view), kong]
    assert strong(view, legal, random.Random(0)) == kong
    assert normal(view, legal, random.Random(0)).type == "discard"
    # the dearest kong first: four jokers (金杠) pay 4 from each player
    view = _view("3333m5555p12s789s3z", variant="tianjin", jokers=jokers)
    gold = Action("kong", tile("5p"), kind="concealed")
    assert strong(view, [*_discards(view), kong, gold], random.Random(0)) == gold


def test_strong_calls_into_a_big_hanging_wait_normal_does_not() -> None:
    # three melds called, ready on 1m/4m; chi-ing the 1m leaves 55p: a single wait on 5p with four
    # melds called is Shanghai's 大吊车 (50 flowers), worth more by the exact scoring than the
    # plain two-sided wait; strong makes the call, normal keeps its ready hand
    melds = (
        Meld("pong", tuple(parse("1z1z1z")), 2, tile("1z")),
        Meld("chi", tuple(parse("789s")), 3, tile("7s")),
        Meld("pong", tuple(parse("9p9p9p")), 1, tile("9p")),
    )
    view = _view(
        "23m55p",
        others=(
            OtherSeat(1, (), (), 0, 0, False),
            OtherSeat(2, (), (), 0, 0, False),
            OtherSeat(3, (tile("1m"),), (), 0, 0, False),
        ),
        melds=melds,
        phase="claim",
        last_discard=(3, tile("1m"), "discard"),
    )
    chi = Action("chi", tile("1m"), tiles=tuple(parse("123m")))
    legal = [chi, Action("pass")]
    assert strong(view, legal, random.Random(0)) == chi
    assert normal(view, legal, random.Random(0)).type == "pass"


def test_a_bot_takes_a_win_when_offered() -> None:
    view = _view("123m456p789s11z234s")
    for level in LEVELS:
        assert BOTS[level](view, [Action("win"), *_discards(view)], random.Random(0)).type == "win"


# -- levels and the arena ----------------------------------------------------------------------


def test_an_unknown_level_is_a_clear_error() -> None:
    assert check_level("strong") == "strong"
    for bad in ("godlike", "", None, 3, "Strong"):
        with pytest.raises(EngineError) as e:
            check_level(bad)
        assert e.value.code == "unknown_level" and "easy, normal, strong" in e.value.message


def test_the_arena_rotates_seats_and_sums_to_zero() -> None:
    out, detail = arena("two_player", 6, ["strong", "easy"], seed=3)
    assert detail.patterns and all(0 < share <= 1 for share in detail.patterns.values())
    assert set(detail.avg_win_value) == {"strong", "easy"}
    assert out["hands"] == 6 and set(out["levels"]) == {"strong", "easy"}
    s, e = out["levels"]["strong"], out["levels"]["easy"]
    assert s["points_per_hand"] == pytest.approx(-e["points_per_hand"], abs=1e-6)  # zero-sum, 1 seat each
    lo, hi = s["ci95"]
    assert lo <= s["points_per_hand"] <= hi
    for summary in (s, e):
        assert set(summary) == {"points_per_hand", "ci95", "win_rate", "deal_in_rate"}  # as the issue has it


def test_the_duplicate_arena_plays_each_deal_once_per_rotation() -> None:
    out, detail = arena("shanghai", 5, ["strong", "normal", "easy", "easy"], seed=4, duplicate=True)
    assert out["hands"] == 8  # rounded up to whole deals: 2 deals × 4 rotations
    levels = out["levels"]
    assert set(levels) == {"strong", "normal", "easy"}
    # zero-sum: strong and normal hold one seat each, easy two, in every hand
    total = levels["strong"]["points_per_hand"] + levels["normal"]["points_per_hand"]
    assert total + 2 * levels["easy"]["points_per_hand"] == pytest.approx(0, abs=0.01)
    two, _ = arena("two_player", 2, ["strong", "strong"], seed=9, duplicate=True)
    assert two["levels"]["strong"]["points_per_hand"] == 0  # one level in both seats
    # the paired difference of two levels on the same deals: its mean is the difference of
    # their means, and in two-player (zero-sum, one seat each) twice the first level's points
    mean, lo, hi = detail.paired[("strong", "normal")]
    assert mean == pytest.approx(
        levels["strong"]["points_per_hand"] - levels["normal"]["points_per_hand"], abs=0.002
    )
    assert lo <= mean <= hi and set(detail.paired) == {
        ("strong", "normal"),
        ("strong", "easy"),
        ("normal", "easy"),
    }
    pair, pair_detail = arena("two_player", 4, ["strong", "normal"], seed=9, duplicate=True)
    assert pair_detail.paired[("strong", "normal")][0] == pytest.approx(
        2 * pair["levels"]["strong"]["points_per_hand"], abs=0.002
    )
    assert arena("two_player", 2, ["strong", "normal"], seed=9)[1].paired == {}  # not duplicate


def test_the_arena_reports_its_figures_as_it_goes_as_a_shorter_run_would() -> None:
    """A long run that must stop early keeps what it measured: after every few deals the
    progress callback gets exactly what a run of that many hands prints."""
    seen: list[dict[str, object]] = []
    full, _ = arena(
        "two_player",
        6,
        ["strong", "easy"],
        seed=5,
        duplicate=True,
        progress=lambda s, d: seen.append(s),
        every=1,
    )
    assert [s["hands"] for s in seen] == [2, 4]  # not after the last deal: that is the result
    shorter, _ = arena("two_player", 4, ["strong", "easy"], seed=5, duplicate=True)
    assert seen[-1] == shorter and full["hands"] == 6


def test_a_run_continued_from_a_later_deal_plays_that_deal_in_the_same_seating() -> None:
    """`first` continues a long run in another process: deal 3 of seed 5 with each level in the
    seats a single run gives it (hands 6 and 7: strong in seat 0, then seat 1), the table
    started afresh (dealer 0)."""
    out, _ = arena("two_player", 2, ["strong", "easy"], seed=5, duplicate=True, first=3)
    deal = 5 * 1_000_003 + 3
    strong_first = play("two_player", deal, ["strong", "easy"], 0, {})
    strong_second = play("two_player", deal, ["easy", "strong"], 0, {})
    expected = (strong_first.result.payments[0] + strong_second.result.payments[1]) / 2
    assert out["hands"] == 2
    assert out["levels"]["strong"]["points_per_hand"] == pytest.approx(expected, abs=0.001)
    with pytest.raises(EngineError) as e:
        arena("two_player", 2, ["strong", "easy"], seed=5, first=-1)
    assert e.value.code == "bad_first"


def test_a_duplicate_deal_gives_each_level_the_same_tiles() -> None:
    """The second playing of a deal is the first with the levels swapped: same wall, dealer."""
    first = play("two_player", 77, ["easy", "easy"], 0, {})
    again = play("two_player", 77, ["easy", "easy"], 0, {})
    assert first.result == again.result  # a deal is a seed: replaying it is exact


def test_the_arena_cli_prints_the_json_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "--variant", "tianjin", "--hands", "3", "--seats", "strong,easy,easy,easy", "--seed", "5"]
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    last = json.loads(lines[-1])
    assert last["variant"] == "tianjin" and last["hands"] == 3 and 0 <= last["draw_rate"] <= 1
    assert set(last["levels"]) == {"strong", "easy"}
    assert "points/hand" in lines[1]


@pytest.mark.parametrize(
    ("seats", "code"),
    [("strong,easy", "bad_seats"), ("strong,easy,easy,wizard", "unknown_level")],
)
def test_the_arena_cli_refuses_bad_seats(seats: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--variant", "shanghai", "--hands", "2", "--seats", seats]) == 2
    assert json.loads(capsys.readouterr().out.splitlines()[0])["error"] == code


def test_old_name_baseline_still_plays_as_easy() -> None:
    state = new_hand("cantonese", 4)
    seat = seats_to_act(state)[0]
    assert decide("baseline", state, seat, random.Random(0)) == decide("easy", state, seat, random.Random(0))
    assert bots.DEFAULT_LEVEL == "normal"


def test_one_suit_melds_mean_nothing_where_only_one_suit_is_played() -> None:
    # two-player plays characters only: every hand is one suit, so melds there are no signal
    melds = (
        Meld("pong", tuple(parse("555m")), 0, tile("5m")),
        Meld("chi", tuple(parse("234m")), 0, tile("3m")),
    )
    other = OtherSeat(1, (), melds, 0, 0, False)
    two = _view("123m456m789m1z2z3z4z", variant="two_player", others=(other,), players=2)
    four = _view("123m456m789m1z2z3z4z", others=(other,))
    assert [t.suit for t in threats(two)] == [None]
    assert [t.suit for t in threats(four)] == [0]
    assert threats(two)[0].level < threats(four)[0].level


def test_a_hand_of_nothing_but_jokers_still_has_a_discard_to_weigh() -> None:
    """Tianjin: after a claim the concealed part may be two jokers of the two joker kinds; the
    bots never throw a joker while another tile is there, but here one must go (an arena hand
    once stopped on it)."""
    jokers = (tile("5m"), tile("6m"))
    hand = counts_of((tile("5m"), tile("6m")))
    view = PlayerView(
        variant="tianjin",
        phase="turn",
        me=0,
        players=4,
        dealer=0,
        round_wind=tile("1z"),
        wall_left=30,
        hand=hand,
        drawn=None,
        melds=(),
        flowers=(),
        discarded_joker=False,
        jokers=jokers,
        others=(),
        unseen=bytes(4 - c for c in hand),
        last_discard=None,
    )
    options = discard_options(view, hand, view.melds, set(jokers), [], strong_style("tianjin"))
    assert {o.tile for o in options} == set(jokers)


def test_strong_at_speed_prices_no_plan_where_strong_throws_an_honour_for_one() -> None:
    # two-player: strong throws the lone 1z to keep the one-suit plan's multiplier; with no plan
    # priced (the screening level `speed`) a 万 goes and the honour stays — as close to ready
    view = _view(
        "1m2m5m6m6m7m1z2z2z3z3z4z6z6z",
        variant="two_player",
        others=(OtherSeat(1, (), (), 0, 0, False),),
        players=2,
    )
    legal = _discards(view)
    assert plan_multiplier("two_player", view.hand, (), "speed") == 1.0
    assert strong(view, legal, random.Random(0)).tile == tile("1z")
    fast = strong_at_speed(view, legal, random.Random(0)).tile
    assert fast is not None and fast < tile("1z")

    def left(t: int) -> int:
        c = bytearray(view.hand)
        c[t] -= 1
        return distance(bytes(c), 0, ())

    assert left(fast) == left(tile("1z"))
