"""The last discard (河底), in every rule set: with the wall empty, nobody may chi, pong or kong
the discard — there would be no tile to draw after a kong, and a chi or pong would only make
the claimer discard into a hand that can no longer end any other way — but a win on it stands
where the rule set lets a discard win. No rule page says so; the rule book writes it as a
decision of each rule set."""

from __future__ import annotations

import pytest

from games.engine.actions import Action, apply, legal_actions
from games.engine.errors import IllegalAction
from games.engine.scenario import scenario
from games.engine.state import HandState, evolve
from tests.moves import act

# The dealer throws 5m; seat 1 (the next player) holds 4m 5m 5m 6m and three honour pungs, so it
# could chi 456m, pong 5m, or win on 5m (456m, the 5m pair, three pungs).
_DEALER = "5m9m1p4p7p9p2s5s8s4z5z6z7z"
_NEXT = "4m5m5m6m1z1z1z2z2z2z3z3z3z"
_HANDS = {
    "shanghai": [_DEALER, _NEXT, "1m2m3m2p3p5p6p8p1s3s4s6s7s", "7m8m2m6p8p9p1s2s3s6s7s9s4z"],
    "yihua": [_DEALER, _NEXT, "1m2m3m2p3p5p6p8p1s3s4s6s7s", "7m8m2m6p8p9p1s2s3s6s7s9s4z"],
    "cantonese": [_DEALER, _NEXT, "1m2m3m2p3p5p6p8p1s3s4s6s7s", "7m8m2m6p8p9p1s2s3s6s7s9s4z"],
    "tianjin": [_DEALER, _NEXT, "1m2m3m2p3p5p6p8p1s3s4s6s7s", "7m8m2m6p8p9p1s2s3s6s7s9s4z"],
    "two_player": ["5m9m9m8m7m4z4z5z5z6z6z7z7z", _NEXT],
}
# One-flower needs a flower (or a fan) to win on a discard: seat 1 has one open.
_FLOWERS = {"yihua": ["", "1f", "", ""]}
VARIANTS = sorted(_HANDS)


def _last_discard(variant: str, wall_empty: bool) -> HandState:
    state = scenario(variant, hands=_HANDS[variant], draws="8m", flowers=_FLOWERS.get(variant), base=2)
    if wall_empty:
        state = evolve(state, head=state.tail)  # the dealer drew the wall's last tile
    state, _ = apply(state, 0, Action("discard", 4))  # 5m
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_next_player_could_claim_the_discard_while_the_wall_has_tiles(variant: str) -> None:
    state = _last_discard(variant, wall_empty=False)
    assert act("pong 5m") in legal_actions(state, 1)
    if variant != "tianjin":  # Tianjin has no chi
        assert act("chi 5m 456m") in legal_actions(state, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_last_discard_cannot_be_chied_ponged_or_konged_but_may_be_won(variant: str) -> None:
    state = _last_discard(variant, wall_empty=True)
    if variant == "tianjin":  # self-draw only: nothing to claim, the hand ends drawn
        assert state.phase == "over" and state.result.drawn
        return
    assert legal_actions(state, 1) == [act("win 5m"), act("pass")]
    for refused in ("pong 5m", "chi 5m 456m"):
        with pytest.raises(IllegalAction):
            apply(state, 1, act(refused))
    state, _ = apply(state, 1, act("win 5m"))
    while state.phase == "claim":
        waiting = [s for s in range(state.num_players) if legal_actions(state, s)]
        state, _ = apply(state, waiting[0], Action("pass"))
    assert state.result.winners == (1,) and state.result.by == "discard"


@pytest.mark.parametrize("variant", VARIANTS)
def test_passing_the_last_discard_ends_the_hand_drawn(variant: str) -> None:
    state = _last_discard(variant, wall_empty=True)
    while state.phase == "claim":
        waiting = [s for s in range(state.num_players) if legal_actions(state, s)]
        state, _ = apply(state, waiting[0], Action("pass"))
    assert state.phase == "over" and state.result.drawn
