"""The hand log's states, part of the store (games.table.store): a hand's state is the replay of
its HandAction rows; this process keeps the states it built, so that the next change or render of
the hand needs no replay, and extends an older one by the few actions logged since. A hand this
process has not seen (it just started, or took over a dead process's sockets) starts from its
checkpoint (games.table.checkpoints), not from the deal."""

from __future__ import annotations

from common import caches
from games.engine.actions import Action, apply, replay
from games.engine.errors import EngineError
from games.engine.state import HandState
from games.models import Hand, HandAction
from games.table import checkpoints

# (hand id, actions applied) -> state. The log is append-only, so the key fixes the state;
# any process rebuilds a missing entry by replaying.
_STATES: dict[tuple[int, int], HandState] = caches.registered({})
STATES_LIMIT = 2000
EXTEND_LIMIT = 64  # actions: how far back a cached state is looked for before a full replay


def hand_state(hand: Hand, variant: str) -> HandState:
    key = (hand.pk, hand.actions_count)
    state = _STATES.get(key)
    if state is None:
        state = extend_hand(hand, variant) or from_checkpoint(hand) or replay_hand(hand, variant)
        remember_state(key, state)
    return state


def cached_states(keys: list[tuple[int, int]]) -> dict[tuple[int, int], HandState]:
    return {key: _STATES[key] for key in keys if key in _STATES}


def remember_state(key: tuple[int, int], state: HandState) -> None:
    caches.put(_STATES, key, state, STATES_LIMIT)


def replay_hand(hand: Hand, variant: str) -> HandState:
    """The hand's state replayed from its log (the first `actions_count` actions)."""
    rows = (
        HandAction.objects.filter(hand_id=hand.pk, seq__lte=hand.actions_count)
        .order_by("seq")
        .values_list("seat", "action")
    )
    actions = [(seat, Action.from_json(action)) for seat, action in rows]
    state, _events = replay(variant, hand.seed, actions, **hand.setup)
    return state


def extend_hand(hand: Hand, variant: str) -> HandState | None:
    """The state from the newest cached one of this hand, applying the actions logged since
    (other processes appended them: the clock process sees a table every few actions): no full
    replay. None when no state within EXTEND_LIMIT actions is cached."""
    count = hand.actions_count
    start = next(
        (k for k in range(count - 1, max(-1, count - 1 - EXTEND_LIMIT), -1) if (hand.pk, k) in _STATES),
        None,
    )
    if start is None:
        return None
    return _logged_since(hand, start, _STATES[(hand.pk, start)])


def from_checkpoint(hand: Hand) -> HandState | None:
    """The state from the hand's checkpoint and the actions logged since; None without one."""
    saved = checkpoints.latest(hand.pk, hand.actions_count)
    if saved is None:
        return None
    start, state = saved
    return _logged_since(hand, start, state)


def save_checkpoint(hand: Hand, state: HandState) -> None:
    """After each action: every CHECKPOINT_EVERY actions the state is kept in the database, in
    the action's transaction; an ended hand's checkpoint is dropped."""
    if state.phase == "over":
        if hand.actions_count >= checkpoints.CHECKPOINT_EVERY:
            checkpoints.forget(hand.pk)
    elif checkpoints.due(hand.actions_count):
        checkpoints.save(hand.pk, hand.actions_count, state)


def _logged_since(hand: Hand, start: int, state: HandState) -> HandState | None:
    """`state` (after `start` actions) with the hand's logged actions after it applied."""
    count = hand.actions_count
    rows = list(
        HandAction.objects.filter(hand_id=hand.pk, seq__gt=start, seq__lte=count)
        .order_by("seq")
        .values_list("seat", "action")
    )
    if len(rows) != count - start:
        return None
    try:
        for seat, action in rows:
            state, _events = apply(state, seat, Action.from_json(action))
    except EngineError:  # cannot happen for a logged action; the full replay will tell
        return None
    return state
