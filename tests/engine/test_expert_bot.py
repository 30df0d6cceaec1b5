"""expert's rollout search (EXPERT_SEARCH=rollouts, and the review's evaluator): its sampled
worlds agree with what its seat sees, it keeps strong's choice when there is no time, it ranks
candidates for a review; and expert plays whole hands in the arena."""

from __future__ import annotations

import random

import pytest

from games.engine.actions import Action, legal_actions
from games.engine.bots import PlayerView, search
from games.engine.bots.arena import arena
from games.engine.bots.policies import strong
from games.engine.bots.search import Budget, RolloutEvaluator, sample_world
from games.engine.bots.seen import OtherSeat, unseen_pool
from games.engine.hand import shanten
from games.engine.rulesets import VARIANT_IDS
from games.engine.state import HandState, Meld
from games.engine.tiles import KINDS, counts_of, parse, tile
from games.engine.view import view_for
from tests.engine.threats import quiet_seats, strong_turns, view_facing

FIXED = Budget(samples=8, time_ms=None)


def _turns(variant: str, seed: int, every: int = 7) -> list[tuple[HandState, int]]:
    return strong_turns(variant, seed, every)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_sampled_world_deals_exactly_the_tiles_the_seat_cannot_see(variant: str) -> None:
    for state, seat in _turns(variant, 5)[:6]:
        view = PlayerView.of(view_for(state, seat))
        pool = unseen_pool(view)
        world = sample_world(view, random.Random(1))
        dealt = bytearray(KINDS)
        for o in view.others:
            hand = world.hands[o.seat]
            # the real number of concealed tiles, every other seat
            assert sum(hand) == state.players[o.seat].hand_size == o.hand_count
            for t in range(KINDS):
                dealt[t] += hand[t]
            for m in world.melds[o.seat][len(o.melds) :]:  # a hidden concealed kong: a sampled kind
                assert m.kind == "concealed_kong"
                for t in m.tiles:
                    dealt[t] += 1
        for t in world.wall:
            dealt[t] += 1
        assert bytes(dealt) == bytes(pool)  # nothing visible dealt again, nothing invented
        assert bytes(world.hands[seat]) == view.hand  # its own hand as it is


def test_a_player_who_declared_ready_is_dealt_a_ready_hand() -> None:
    declared = OtherSeat(1, tuple(parse("1z2z3z9m")), (), 0, 0, True, hand_count=13)
    hand = counts_of(parse("1112345678999m1z"))
    seen = bytearray(hand)
    for t in declared.discards:
        seen[t] += 1
    view = PlayerView(
        variant="two_player",
        phase="turn",
        me=0,
        players=2,
        dealer=0,
        round_wind=tile("1z"),
        wall_left=40,
        hand=hand,
        drawn=None,
        melds=(),
        flowers=(),
        discarded_joker=False,
        jokers=(),
        others=(declared,),
        unseen=bytes(max(0, 4 - c) for c in seen),
        last_discard=None,
    )
    for seed in range(20):
        world = sample_world(view, random.Random(seed))
        assert shanten(bytes(world.hands[1]), 0, 4) == 0


def test_with_no_time_left_expert_plays_strongs_move_at_once() -> None:
    for state, seat in _turns("shanghai", 8)[:8]:
        view = PlayerView.of(view_for(state, seat))
        legal = legal_actions(state, seat)
        no_time = Budget(samples=8, time_ms=0.0)
        choice, judged = search.search_candidates(view, legal, random.Random(2), no_time)
        assert judged == [] and choice == strong(view, legal, random.Random(2))


def test_the_evaluator_ranks_the_candidates_it_searched() -> None:
    evaluator = RolloutEvaluator(FIXED)
    ranked = 0
    # the search weighs push against fold: decisions late in hands, with opponents' melds laid
    turns = [t for seed in (11, 12) for t in _turns("shanghai", seed, every=2)]
    for state, seat in turns:
        view = PlayerView.of(view_for(state, seat))
        legal = legal_actions(state, seat)
        judged = evaluator.evaluate(view, legal, random.Random(3))
        if not judged:
            continue
        ranked += 1
        assert len(judged) >= 2 and all(j.action in legal and j.samples == FIXED.samples for j in judged)
        assert [j.mean for j in judged] == sorted((j.mean for j in judged), reverse=True)
    assert ranked  # some decisions face a threat with a hand not yet ready


def test_expert_folds_against_a_ready_big_hand_when_its_own_is_far() -> None:
    """Late, three one-suit melds laid in characters and 报听-like readiness: a far hand throws a
    tile the threat threw itself rather than the character its shape wants gone."""
    threat = OtherSeat(
        1,
        discards=tuple(parse("19p1s2z3z4z7z9s6z2s4p")),
        melds=(
            Meld("pong", tuple(parse("555m")), 2, tile("5m")),
            Meld("chi", tuple(parse("234m")), 0, tile("3m")),
            Meld("pong", tuple(parse("777m")), 3, tile("7m")),
        ),
        hidden_kongs=0,
        flowers=0,
        ready=False,
        hand_count=4,
    )
    view = view_facing("1m8m9p9p1s2s4s4s7s8s5z6z7z7z", threat, quiet_seats())
    legal = [Action("discard", t) for t in range(KINDS) if view.hand[t]]
    choice, judged = search.search_candidates(view, legal, random.Random(4), Budget(samples=48, time_ms=None))
    assert judged and choice.tile is not None
    assert choice.tile >= 9, "a character into a character hand"


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_expert_plays_whole_hands_in_the_arena(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A smoke test (figures are the benchmarks' business): a couple of duplicate deals of expert
    against strong end, every action legal, the points summing to zero."""
    monkeypatch.setattr(search, "BUDGET", Budget(samples=4, time_ms=None))
    monkeypatch.setattr(search, "RACE_BUDGET", search.RaceBudget(samples=4, time_ms=None))
    players = 2 if variant == "two_player" else 4
    seats = ["expert"] + ["strong"] * (players - 1)
    out, detail = arena(variant, players, seats, seed=6, duplicate=True)
    levels = out["levels"]
    assert out["hands"] == players and set(levels) == {"expert", "strong"}
    total = levels["expert"]["points_per_hand"] + (players - 1) * levels["strong"]["points_per_hand"]
    assert total == pytest.approx(0, abs=0.01)
    assert ("expert", "strong") in detail.paired


def test_where_no_discard_can_win_the_rollout_search_stays_out() -> None:
    """Tianjin: nothing to defend, and what its hands are worth (kongs paid when made, the 龙)
    is what strong prices and a rollout does not see — the search stays out."""
    evaluator = RolloutEvaluator(FIXED)
    turns = _turns("tianjin", 12, every=2)
    assert turns
    for state, seat in turns:
        view = PlayerView.of(view_for(state, seat))
        legal = legal_actions(state, seat)
        assert evaluator.evaluate(view, legal, random.Random(5)) == []


def test_a_fixed_number_of_worlds_can_be_set_for_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    """EXPERT_WORLDS=N: N worlds per searched decision and no clock (an arena on a shared machine
    measures what an idle one plays); unset, the live budget with its clock."""
    monkeypatch.setenv("EXPERT_WORLDS", "64")
    assert search.budget_from_environment() == Budget(samples=64, time_ms=None)
    monkeypatch.delenv("EXPERT_WORLDS")
    assert search.budget_from_environment() == Budget() and Budget().time_ms is not None
