#!/usr/bin/env python3
"""Where two-player points come from, over hands of two strong bots (docs/bots.md, "expert in
two-player: where the points come from").

    .venv/bin/python scripts/two_player_points.py mix --hands 2000 --seed 91
    .venv/bin/python scripts/two_player_points.py waits --hands 4000 --seed 950000
    .venv/bin/python scripts/two_player_points.py departs --hands 300 --seed 500000 --against speed
    .venv/bin/python scripts/two_player_points.py pass --hands 1500 --seed 800000
    .venv/bin/python scripts/two_player_points.py holds --hands 3000 --seed 1200000

mix    wins by way (discard, self-draw), points per hand each way, the value distribution after
       the cap and the fan before it (the breakdown's sum), the pattern mix;
waits  per unseen copy held by the hand each seat first became ready in, how often that wait
       was won on the opponent's discard and how often self-drawn, by kind of tile (honour,
       1/9, 2/8, 3–7 万) — what wait_odds.py's table is read from;
departs  at every decision with a choice of strong against strong, whether strong with no plan
       priced (`--against speed`), with the wait odds (`--against wait_odds`), counting on the
       wall's likely copies (`wall`, `wall_always`) or on unseen copies within the set
       (`set_count`), or breaking discard ties by what the opponent least likely calls
       (`unfed`) would move otherwise, and for a discard whether the two leave the hand
       equally close to ready;
pass   every discard win strong takes, played again with that win passed once (strong on after
       it, both seats, the same wall): the passed hand's payment against the win taken, by
       wall left and outs — how good strong's hold-out is;
holds  at every turn of either seat, per kind of unseen tile, the share of its unseen copies
       that sit in the opponent's concealed hand, by opponent_hand.py's bins (class, thrown by
       the opponent, a 万 neighbour thrown, the river's stage) — what its table is read from.
Hand i is dealt with seed + i, dealer i % 2. These read the whole state (they are diagnostics,
not a bot): only the moves are the bots'.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.actions import Action, apply, legal_actions, new_hand, seats_to_act
from games.engine.bots.opponent_hand import feature, river_stage
from games.engine.bots.policies import (
    strong,
    strong_at_speed,
    strong_counting_the_set,
    strong_feeding_least,
    strong_reading_the_wall,
    strong_reading_the_wall_always,
    strong_reading_waits,
)
from games.engine.bots.seen import PlayerView, unseen_pool
from games.engine.bots.shape import distance, improving
from games.engine.bots.value import wait_payoff
from games.engine.state import HandResult, HandState
from games.engine.tiles import HONOR, KINDS, Tile
from games.engine.view import view_for

VARIANT = "two_player"


def _deal(seed: int, i: int) -> HandState:
    return new_hand(VARIANT, seed + i, dealer=i % 2, base=1, counters={})


def _view(state: HandState, seat: int) -> PlayerView:
    return PlayerView.of(view_for(state, seat, hints=False))


def _played(
    state: HandState,
    move: Callable[[HandState, int], Action],
    after: Callable[[HandState, int, Action], None] = lambda state, seat, action: None,
) -> HandState:
    """The hand played to its end: each seat to act plays `move(state, seat)`, and `after` sees
    the state that action made."""
    while state.phase != "over":
        for seat in seats_to_act(state):
            if state.phase == "over" or seat not in seats_to_act(state):
                continue
            action = move(state, seat)
            state, _ = apply(state, seat, action)
            after(state, seat, action)
    return state


def _strong_move(rng: random.Random) -> Callable[[HandState, int], Action]:
    return lambda state, seat: strong(_view(state, seat), legal_actions(state, seat), rng)


def _finish(state: HandState, rng: random.Random) -> HandState:
    return _played(state, _strong_move(rng))


def mix(hands: int, seed: int) -> None:
    ways: Counter[str] = Counter()
    points: Counter[str] = Counter()
    values: Counter[int] = Counter()
    fan: list[int] = []
    patterns: Counter[str] = Counter()
    for i in range(hands):
        result = _finish(_deal(seed, i), random.Random(i)).result
        assert result is not None
        if result.drawn:
            ways["drawn"] += 1
        for score in result.scores:
            ways[result.by] += 1
            points[result.by] += score.value * (3 if result.by == "self_draw" else 1)
            values[score.value] += 1
            fan.append(sum(v for _, v in score.breakdown))
            patterns.update(score.patterns)
    wins = len(fan)
    print("hands", hands, "ways", dict(ways))
    print("points per hand by way", {k: round(v / hands, 2) for k, v in points.items()})
    print("value after the cap", sorted(values.items()))
    print("fan before the cap ≥ 13:", round(sum(f >= 13 for f in fan) / wins, 3))
    print("patterns", [(p, round(n / wins, 3)) for p, n in patterns.most_common(16)])


def _kind(t: Tile) -> str:
    if t >= HONOR:
        return "honour"
    return {0: "1/9", 8: "1/9", 1: "2/8", 7: "2/8"}.get(t % 9, "3-7")


def _first_ready_waits(seed: int, i: int) -> tuple[HandResult | None, dict[int, dict[Tile, int]]]:
    """Hand `i` played by strong, and each seat's waits (unseen copies) when it first was ready."""
    first: dict[int, dict[Tile, int]] = {}

    def first_ready(state: HandState, seat: int, action: Action) -> None:
        if action.type == "discard" and seat not in first and state.phase != "over":
            v = _view(state, seat)
            if distance(v.hand, len(v.melds), v.jokers) == 0:
                _, kinds = improving(v.hand, len(v.melds), v.jokers, v.unseen)
                first[seat] = {w: v.unseen[w] for w in kinds}

    return _played(_deal(seed, i), _strong_move(random.Random(i)), first_ready).result, first


def waits(hands: int, seed: int) -> None:
    copies: Counter[str] = Counter()
    won: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for i in range(hands):
        result, first = _first_ready_waits(seed, i)
        assert result is not None
        for seat, held in first.items():
            for w, n in held.items():
                copies[_kind(w)] += n
            if seat in result.winners and result.win_tile in held:
                won[_kind(result.win_tile)][result.by] += 1
    for kind, n in copies.items():
        rates = {way: round(k / n, 4) for way, k in won[kind].items()}
        print(f"{kind}: {n} copies, wins {dict(won[kind])}, per copy {rates}")


def _departures_of_hand(
    seed: int, i: int, other: Callable[[PlayerView, list[Action], random.Random], Action], kinds: Counter[str]
) -> int:
    """Hand `i` played by strong; where `other` would play otherwise is counted in `kinds`.
    → the decisions with a choice."""
    rng, decisions = random.Random(i), 0

    def compared(state: HandState, seat: int) -> Action:
        nonlocal decisions
        v, legal = _view(state, seat), legal_actions(state, seat)
        mine, theirs = strong(v, legal, rng), other(v, legal, rng)
        decisions += len(legal) > 1
        if mine != theirs:
            kinds[_departure(v, mine, theirs)] += 1
        return mine

    _played(_deal(seed, i), compared)
    return decisions


def departs(hands: int, seed: int, against: str) -> None:
    other = {
        "speed": strong_at_speed,
        "wait_odds": strong_reading_waits,
        "wall": strong_reading_the_wall,
        "wall_always": strong_reading_the_wall_always,
        "set_count": strong_counting_the_set,
        "unfed": strong_feeding_least,
    }[against]
    decisions = 0
    kinds: Counter[str] = Counter()
    for i in range(hands):
        decisions += _departures_of_hand(seed, i, other, kinds)
    print("decisions with a choice", decisions, "departures", sum(kinds.values()), dict(kinds))


def _departure(v: PlayerView, mine: Action, theirs: Action) -> str:
    if mine.type != "discard" or theirs.type != "discard":
        return f"{mine.type} → {theirs.type}"

    def left(t: Tile | None) -> tuple[int, int]:
        c = bytearray(v.hand)
        assert t is not None
        c[t] -= 1
        return distance(bytes(c), len(v.melds), v.jokers), sum(c[HONOR:])

    (near, honours), (near_other, honours_other) = left(mine.tile), left(theirs.tile)
    pace = "strong a step slower" if near > near_other else "as close"
    return f"discard, {pace}" + (", strong keeps fewer honours" if honours < honours_other else "")


def _passes_of_hand(seed: int, i: int, buckets: defaultdict[tuple[int, int], list[tuple[int, int]]]) -> None:
    """Hand `i` played by strong; each discard win it takes also played on with the win passed
    once, (taken, passed) kept in `buckets` by (wall left, outs)."""
    rng = random.Random(i)

    def passed_once(state: HandState, seat: int) -> Action:
        v = _view(state, seat)
        action = strong(v, legal_actions(state, seat), rng)
        if action.type == "win" and v.phase == "claim" and v.last_discard and v.last_discard[2] == "discard":
            now = wait_payoff(v, v.hand, v.last_discard[1], from_seat=v.last_discard[0])
            _, kinds = improving(v.hand, len(v.melds), v.jokers, v.unseen)
            outs = sum(v.unseen[w] for w in kinds)
            after = _finish(apply(state, seat, Action("pass"))[0], random.Random(i)).result
            assert after is not None
            buckets[(v.wall_left // 8 * 8, min(outs, 8) // 3 * 3)].append((now, after.payments[seat]))
        return action

    _played(_deal(seed, i), passed_once)


def passed(hands: int, seed: int) -> None:
    buckets: defaultdict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for i in range(hands):
        _passes_of_hand(seed, i, buckets)
    print("wall left ≥, outs ≥: n, win taken, passed once, difference ± standard error")
    for key in sorted(buckets):
        pairs = buckets[key]
        diff = [b - a for a, b in pairs]
        se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
        taken = statistics.fmean(a for a, _ in pairs)
        after = statistics.fmean(b for _, b in pairs)
        print(key, len(pairs), round(taken, 1), round(after, 1), f"{statistics.fmean(diff):+.2f} ± {se:.2f}")


def _holds_of_hand(seed: int, i: int, copies: Counter[tuple], held: Counter[tuple]) -> None:
    def count(state: HandState, seat: int) -> Action:
        v = _view(state, seat)
        if state.phase == "turn" and v.others:
            opponent = v.others[0]
            thrown = set(opponent.discards)
            stage = river_stage(len(opponent.discards))
            theirs = state.players[opponent.seat].concealed
            pool = unseen_pool(v)
            for t in range(KINDS):
                if pool[t]:
                    key = feature(t, thrown, stage)
                    copies[key] += pool[t]
                    held[key] += theirs[t]
        return strong(v, legal_actions(state, seat), rng)

    rng = random.Random(i)
    _played(_deal(seed, i), count)


def holds(hands: int, seed: int) -> None:
    copies: Counter[tuple] = Counter()
    held: Counter[tuple] = Counter()
    for i in range(hands):
        _holds_of_hand(seed, i, copies, held)
    for key in sorted(copies):
        print(f"{key}: {round(held[key] / copies[key], 3)},  # {held[key]} of {copies[key]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("mix", "waits", "departs", "pass", "holds"))
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=91)
    parser.add_argument(
        "--against",
        choices=("speed", "wait_odds", "wall", "wall_always", "set_count", "unfed"),
        default="speed",
    )
    args = parser.parse_args()
    if args.mode == "departs":
        departs(args.hands, args.seed, args.against)
    else:
        {"mix": mix, "waits": waits, "pass": passed, "holds": holds}[args.mode](args.hands, args.seed)


if __name__ == "__main__":
    main()
