"""Hand checkpoints: a hand's state saved every CHECKPOINT_EVERY actions, so that a process that
has never seen the hand — just started, or restarted after a crash, taking over the sockets of
one that died — rebuilds it from the newest checkpoint and the few actions logged since, not by
replaying the hand from its deal (after a kill, every table of the dead process was
replayed from its first action at once, by the process its sockets came back to).

The log stays the truth: a checkpoint is derived data, written in the same transaction as the
action that reaches it, and one written by another engine version (a deploy that changed the
state's fields: `ENGINE_FORMAT`) or that cannot be read is ignored, and the hand replayed. The
pickled bytes are written and read only by the server (like games.table.snapshots), never sent on.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import pickle

from games.engine import state as engine_state
from games.engine.state import HandState
from games.models import HandCheckpoint

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 16  # actions: at most this many are applied on top of a checkpoint


def _engine_format() -> str:
    """A digest of every field of the engine's state classes: a pickle made by code with other
    fields would unpickle into a state the engine no longer understands."""
    parts = []
    for name, obj in sorted(vars(engine_state).items()):
        if isinstance(obj, type) and dataclasses.is_dataclass(obj):
            parts.append(name + ":" + ",".join(f"{f.name}={f.type}" for f in dataclasses.fields(obj)))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


ENGINE_FORMAT = _engine_format()


def due(actions: int) -> bool:
    """Whether the state after `actions` actions is checkpointed."""
    return actions > 0 and actions % CHECKPOINT_EVERY == 0


def save(hand_id: int, actions: int, state: HandState) -> None:
    """Keep `state` (after `actions` actions) as the hand's one checkpoint."""
    row = HandCheckpoint(
        hand_id=hand_id,
        actions=actions,
        engine_format=ENGINE_FORMAT,
        state=pickle.dumps(state, pickle.HIGHEST_PROTOCOL),
    )
    HandCheckpoint.objects.bulk_create(
        [row],
        update_conflicts=True,  # one row per hand: the newest replaces the older
        unique_fields=["hand"],
        update_fields=["actions", "engine_format", "state"],
    )


def latest(hand_id: int, at_most: int) -> tuple[int, HandState] | None:
    """The hand's checkpoint, if one of this engine version holds at most `at_most` actions."""
    row = (
        HandCheckpoint.objects.filter(hand_id=hand_id, actions__lte=at_most, engine_format=ENGINE_FORMAT)
        .values_list("actions", "state")
        .first()
    )
    if row is None:
        return None
    try:
        state = pickle.loads(bytes(row[1]))  # noqa: S301 - written by this server only
    except Exception:  # a damaged row: the log is the truth, replay instead
        log.warning("unreadable checkpoint of hand %s ignored", hand_id, exc_info=True)
        return None
    return (row[0], state) if isinstance(state, HandState) else None


def forget(hand_id: int) -> None:
    """The hand is over: its final state is in its result, the checkpoint is no longer needed."""
    HandCheckpoint.objects.filter(hand_id=hand_id).delete()
