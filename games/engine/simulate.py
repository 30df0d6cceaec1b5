"""Bots play whole hands: the engine's end-to-end self-test and speed figure."""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from games.engine.actions import Action, apply, new_hand, seats_to_act
from games.engine.bots import decide
from games.engine.errors import EngineError
from games.engine.invariants import violations
from games.engine.rulesets import get_ruleset
from games.engine.state import HandState

MAX_STEPS = 2000


def play_hand(
    variant: str, seed: int, bot: str = "baseline", dealer: int = 0, check: bool = True, **setup: Any
) -> tuple[HandState, list[tuple[int, Action]], list[str]]:
    """One hand by bots: the final state, the action log and any invariant violations."""
    rng = random.Random(seed ^ 0x5EED)
    state = new_hand(variant, seed, dealer=dealer, **setup)
    log: list[tuple[int, Action]] = []
    problems: list[str] = violations(state) if check else []
    while state.phase != "over":
        if len(log) >= MAX_STEPS:
            raise EngineError("runaway_hand", f"hand {seed} did not end in {MAX_STEPS} actions")
        for seat in seats_to_act(state):
            if state.phase == "over" or seat not in seats_to_act(state):
                continue
            action = decide(bot, state, seat, rng)
            state, _ = apply(state, seat, action)
            log.append((seat, action))
            if check:
                problems.extend(violations(state))
    return state, log, problems


def log_json(log: list[tuple[int, Action]]) -> list[dict[str, Any]]:
    return [{"seat": s, "action": a.to_json()} for s, a in log]


def simulate(
    variant: str, hands: int, seed: int, bot: str = "baseline", check: bool = True
) -> dict[str, Any]:
    rules = get_ruleset(variant)
    digest = hashlib.sha256()
    wins = draws = errors = bad = 0
    dealer = 0
    base = 2 if variant == "yihua" else 1  # yihua's base stake must be even
    started = time.perf_counter()
    for i in range(hands):
        hand_seed = seed * 1_000_003 + i
        try:
            state, log, problems = play_hand(variant, hand_seed, bot, dealer=dealer, base=base, check=check)
        except Exception:  # noqa: BLE001 - counted: the figure is what matters here
            errors += 1
            continue
        bad += len(problems)
        digest.update(json.dumps(log_json(log), separators=(",", ":")).encode())
        assert state.result is not None
        if state.result.drawn:
            draws += 1
        else:
            wins += 1
        dealer = state.result.next_dealer % rules.players
    elapsed = time.perf_counter() - started
    return {
        "variant": variant,
        "hands": hands,
        "wins": wins,
        "draws": draws,
        "errors": errors,
        "invariant_violations": bad,
        "digest": digest.hexdigest()[:16],
        "hands_per_s": round(hands / elapsed, 1) if elapsed else 0.0,
    }
