"""Property tests over random bot games of every variant (hypothesis picks the seeds)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import Action, apply, legal_actions, new_hand, replay, seats_to_act
from games.engine.bots import decide
from games.engine.errors import EngineError
from games.engine.invariants import violations
from games.engine.rulesets import VARIANT_IDS
from games.engine.tiles import name
from games.engine.view import view_for

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _random_foreign_action(rng: random.Random) -> Action:
    kind = rng.choice(["discard", "chi", "pong", "kong", "win", "pass", "choose"])
    t = rng.randrange(34)
    if kind == "chi":
        lo = rng.randrange(7)
        return Action("chi", t, tiles=(lo, lo + 1, lo + 2))
    if kind == "kong":
        return Action("kong", t, kind=rng.choice(["exposed", "added", "concealed"]))
    if kind == "choose":
        return Action("choose", kind="lazhuang", value=rng.randrange(5))
    return Action(kind, t if kind != "pass" else None)


def _leaks(state, viewer) -> list[str]:
    """Another seat's concealed hand must never appear in a viewer's view while the hand is live."""
    view = view_for(state, viewer)
    problems = []
    for s, seat_view in enumerate(view["seats"]):
        if s != viewer and state.phase != "over" and "hand" in seat_view:
            problems.append(f"seat {s}'s hand shown to {viewer}")
    text = json.dumps(view)
    if "wall" in view or '"wall":' in text:
        problems.append("wall in view")
    return problems


BOT_NAMES = st.sampled_from(["easy", "normal", "strong", "random"])


@pytest.mark.parametrize("variant", VARIANT_IDS)
@SETTINGS
@given(seed=st.integers(min_value=0, max_value=10**9), bot=BOT_NAMES)
def test_random_games_keep_every_invariant(variant, seed, bot):
    rng = random.Random(seed)
    state = new_hand(variant, seed, base=2)
    log = []
    steps = 0
    while state.phase != "over":
        steps += 1
        assert steps < 2000
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        assert legal, "a seat the hand waits for always has a legal action"
        # any action outside `legal` is refused and changes nothing (the state is immutable)
        foreign = _random_foreign_action(rng)
        false_win_penalised = variant == "yihua" and foreign.type == "win"  # Y4: a penalty, not a refusal
        if foreign not in legal and not false_win_penalised:
            before = state
            with pytest.raises(EngineError):
                apply(state, seat, foreign)
            assert state == before
        # another seat that is not being waited for cannot act
        idle = [s for s in range(state.num_players) if s not in seats_to_act(state)]
        if idle and not (variant == "yihua" and legal[0].type == "win"):  # Y4: a false win is penalised
            with pytest.raises(EngineError):
                apply(state, idle[0], legal[0])
        action = decide(bot, state, seat, rng)
        assert action in legal
        state, _ = apply(state, seat, action)
        log.append((seat, action))
        assert violations(state) == []
        for viewer in (None, *range(state.num_players)):
            assert _leaks(state, viewer) == []
    again, _ = replay(variant, seed, log, base=2)
    assert again == state
    assert sum(state.result.payments) == 0


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_legal_action_is_accepted(variant):
    """At a sample of real positions, each single legal action applies without error."""
    from games.engine.simulate import play_hand

    final, log, _ = play_hand(variant, 99, base=2)
    for cut in range(0, len(log), max(1, len(log) // 12)):
        state, _ = replay(variant, 99, log[:cut], base=2)
        if state.phase == "over":
            continue
        for seat in seats_to_act(state):
            for action in legal_actions(state, seat):
                apply(state, seat, action)  # must not raise


def test_spectator_view_equals_the_public_part_of_a_players_view():
    from games.engine.simulate import play_hand

    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:30])
    spectator = view_for(state, None)
    player = view_for(state, 1)
    for s in range(4):
        if s != 1:
            assert spectator["seats"][s] == player["seats"][s]
    assert "hand" in player["seats"][1]
    assert all("hand" not in seat for seat in spectator["seats"])
    assert name(state.players[1].drawn or 0)  # sanity: the state is mid-hand


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_players_view_built_on_the_shared_public_view_is_the_same_view(variant):
    """A server builds every player's view from one public view per state: that must give
    exactly the view built from scratch, at every step, and leave the public view unchanged."""
    from games.engine.simulate import play_hand

    _, log, _ = play_hand(variant, 11, base=2)
    for count in [*range(0, len(log), 3), len(log)]:  # the last one: over, every hand opened
        state, _ = replay(variant, 11, log[:count], base=2)
        public = view_for(state, None)
        before = json.dumps(public, sort_keys=True)
        for seat in range(state.num_players):
            assert view_for(state, seat, public) == view_for(state, seat)
        assert json.dumps(public, sort_keys=True) == before
        assert public == view_for(state, None)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_seat_views_kept_on_unchanged_player_states_are_the_views_built_afresh(variant):
    """A seat's view is kept on its PlayerState, which the engine carries unchanged from one
    state to the next: rendered for every viewer at every step of a played hand, each view must
    equal the one built from a copy holding nothing kept (a pickled copy: kept answers are not
    pickled), and no viewer sees another seat's hand while it is live."""
    import pickle

    rng = random.Random(5)
    state = new_hand(variant, 21, dealer=0, base=2)
    steps = 0
    while True:
        fresh = pickle.loads(pickle.dumps(state))
        assert all("_memo" not in p.__dict__ for p in fresh.players)
        for viewer in [None, *range(state.num_players)]:
            assert view_for(state, viewer) == view_for(fresh, viewer)
            if viewer is not None:
                assert _leaks(state, viewer) == []
        if state.phase == "over":
            break
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, decide("easy", state, seat, rng))
        steps += 1
    assert steps > 5  # (a played hand: claims, kongs and wins on the way)
