"""The three bot levels. Each is `(view, legal, rng) -> Action` and returns one of `legal`.

easy:   today's bot — every win at once; discards to the lowest shanten (ties: the most
        isolated tile); claims only when the claim lowers its shanten.
normal: lowest shanten first, then the most unseen tiles that improve the hand, weighted by the
        value of the patterns the hand heads for; a ready hand's waits are scored exactly by the
        variant's own scoring. Claims only when they speed the hand up without giving up most
        of its value.
strong: normal, plus defence: estimates each discard's danger from the table and, when an
        opponent is clearly close to a big hand while its own hand is far, folds (throws the
        safest tile, claims nothing).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.engine.actions import Action
from games.engine.bots.defence import Threat, risk, threats
from games.engine.bots.seen import PlayerView
from games.engine.bots.shape import distance, improving, isolation
from games.engine.bots.value import plan_multiplier, wait_payoff
from games.engine.state import Meld
from games.engine.tiles import KINDS, Tile

PASS = Action("pass")
# Fold when the biggest threat (readiness × size, see defence.py) reaches this, by own shanten:
# far hands give up early, a hand one tile from ready only against a likely big hand.
FOLD_AT = {2: 1.6, 1: 2.4}
# A discard one shanten slower is worth it when the pattern it keeps is priced this many times
# higher (plan multipliers, value.py).
DETOUR_FACTOR = 1.5
DETOUR_MIN = 3.0  # ...and is really on its way there


def random_level(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random legal action (for fuzzing the machine)."""
    return rng.choice(list(legal))


# -- easy ------------------------------------------------------------------------------------


def easy(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    early = _forced(view, legal)
    if early is not None:
        return early
    if view.phase == "claim":
        return _easy_claim(view, legal)
    discards = [a for a in legal if a.type == "discard"]
    best, after = _easy_discard(view, discards) if discards else (legal[0], 99)
    kong = _keeping_kong(view, legal, after)
    return kong or best


def _forced(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """Every level: a win is taken; a single option or a pre-hand choice needs no thought."""
    for a in legal:
        if a.type == "win":
            return a
    if len(legal) == 1 or view.phase == "choose":
        return legal[0]
    return None


def _easy_discard(view: PlayerView, discards: list[Action]) -> tuple[Action, int]:
    """The discard that keeps the lowest shanten; among those, the most isolated tile."""
    hand, melds, jokers = view.hand, len(view.melds), view.jokers
    target = distance(hand, melds, jokers)

    def rank(a: Action) -> tuple[int, int, int]:
        t = a.tile
        assert t is not None
        return (1 if t in jokers else 0, -isolation(hand, t), 0 if a.ready else 1)

    c = bytearray(hand)
    best: tuple[int, Action] | None = None
    seen: dict[Tile, int] = {}
    for a in sorted(discards, key=rank):
        t = a.tile
        assert t is not None
        if t not in seen:
            c[t] -= 1
            seen[t] = distance(bytes(c), melds, jokers) + (10 if t in jokers else 0)
            c[t] += 1
        if best is None or seen[t] < best[0]:
            best = (seen[t], a)
        if seen[t] <= target:
            break
    assert best is not None
    return best[1], best[0]


def _keeping_kong(view: PlayerView, legal: Sequence[Action], after: int) -> Action | None:
    """A kong (never of a joker) that keeps the shanten the best discard would reach."""
    for a in legal:
        if a.type == "kong" and a.tile is not None and a.tile not in view.jokers:
            c = bytearray(view.hand)
            concealed = a.kind == "concealed"
            c[a.tile] -= 4 if concealed else 1
            if distance(bytes(c), len(view.melds) + (1 if concealed else 0), view.jokers) <= after:
                return a
    return None


def _easy_claim(view: PlayerView, legal: Sequence[Action]) -> Action:
    melds = len(view.melds)
    now = distance(view.hand, melds, view.jokers)
    best: tuple[int, Action] | None = None
    for a in legal:
        if a.type not in ("chi", "pong", "kong") or a.tile is None:
            continue
        c = _after_claim(view.hand, a)
        if a.type == "kong":
            after = distance(c, melds + 1, view.jokers)
        else:
            after = min(_without(c, t, melds + 1, view.jokers) for t in range(KINDS) if c[t])
        if after < now and (best is None or after < best[0]):
            best = (after, a)
    return best[1] if best else PASS


def _after_claim(hand: bytes, a: Action) -> bytes:
    """The concealed counts once the claim's own tiles went into the meld."""
    assert a.tile is not None
    if a.type == "chi":
        used = [x for x in a.tiles if x != a.tile]
    else:
        used = [a.tile] * (3 if a.type == "kong" else 2)
    c = bytearray(hand)
    for x in used:
        c[x] -= 1
    return bytes(c)


def _without(c: bytes, t: Tile, melds: int, jokers: tuple[Tile, ...]) -> int:
    d = bytearray(c)
    d[t] -= 1
    return distance(bytes(d), melds, jokers)


# -- normal and strong ---------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One 13-tile hand a decision can leave: how far, how good, how risky its discard was."""

    tile: Tile | None  # the discard that leaves it (None: no discard, e.g. before a claim)
    shanten: int
    worth: float  # ready: Σ unseen × exact payoff; else improving tiles × plan multiplier
    multiplier: float
    risk: float = 0.0


def normal(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    return _play(view, legal, defend=False)


def strong(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    return _play(view, legal, defend=True)


def _play(view: PlayerView, legal: Sequence[Action], defend: bool) -> Action:
    early = _forced(view, legal)
    if early is not None:
        return early
    ts = threats(view) if defend else []
    if view.phase == "claim":
        return _claim(view, legal, ts)
    discards = [a for a in legal if a.type == "discard"]
    if not discards:
        return legal[0]
    tiles = {a.tile for a in discards if a.tile is not None}
    options = _discard_options(view, view.hand, view.melds, tiles, ts)
    fold = _folding(options, ts)
    best = _pick(options, fold)
    kong = None if fold else _keeping_kong(view, legal, best.shanten)
    if kong is not None:
        return kong
    ready = [a for a in discards if a.tile == best.tile]
    # 报听 whenever the chosen tile allows it, as easy does (two-player): the bot keeps a ready
    # hand as it is anyway, so the lock costs it little
    return max(ready, key=lambda a: a.ready)


def _discard_options(
    view: PlayerView, hand: bytes, melds: tuple[Meld, ...], tiles: set[Tile], ts: list[Threat]
) -> list[Option]:
    c = bytearray(hand)
    out = []
    for t in sorted(tiles):
        if t in view.jokers and len(tiles) > 1:
            continue  # never throw a joker (小相公 forbids the win)
        c[t] -= 1
        option = _evaluate(view, bytes(c), melds, t)
        c[t] += 1
        if ts:
            option = Option(t, option.shanten, option.worth, option.multiplier, risk(view, t, ts))
        out.append(option)
    return out


def _evaluate(view: PlayerView, c13: bytes, melds: tuple[Meld, ...], t: Tile | None) -> Option:
    sh = distance(c13, len(melds), view.jokers)
    count, kinds = improving(c13, len(melds), view.jokers, view.unseen)
    mult = plan_multiplier(view.variant, c13, melds)
    if sh == 0:
        worth = float(sum(view.unseen[w] * _payoff(view, c13, melds, w) for w in kinds))
    else:
        worth = count * mult
    return Option(t, sh, worth, mult)


def _payoff(view: PlayerView, c13: bytes, melds: tuple[Meld, ...], w: Tile) -> int:
    if melds is view.melds:
        return wait_payoff(view, c13, w)
    return wait_payoff(replace(view, melds=melds), c13, w)


def _pick(options: list[Option], fold: bool) -> Option:
    if fold:
        return min(options, key=lambda o: (round(o.risk, 2), o.shanten, -o.worth))
    # push: the fastest hand, its worth discounted by the danger of the tile it throws
    fastest = min(options, key=lambda o: (o.shanten, -o.worth * (1 - min(0.9, 0.15 * o.risk))))
    # ...unless one step slower heads for a pattern worth several plain wins (Shanghai's
    # 清一色 is ten): early in the hand that trade pays
    if fastest.shanten >= 1:
        richer = [
            o
            for o in options
            if o.shanten == fastest.shanten + 1
            and o.multiplier >= max(DETOUR_FACTOR * fastest.multiplier, DETOUR_MIN)
        ]
        if richer:
            return max(richer, key=lambda o: o.worth * (1 - min(0.9, 0.15 * o.risk)))
    return fastest


def _folding(options: list[Option], ts: list[Threat]) -> bool:
    """Fold when somebody is clearly close to a big hand and this hand is far from ready."""
    if not ts:
        return False
    return _threatened(min(o.shanten for o in options), ts)


def _threatened(shanten: int, ts: list[Threat]) -> bool:
    limit = FOLD_AT.get(min(shanten, 2))
    return bool(ts) and limit is not None and max(th.level for th in ts) >= limit


def _claim(view: PlayerView, legal: Sequence[Action], ts: list[Threat]) -> Action:
    melds = view.melds
    now = _evaluate(view, view.hand, melds, None)
    if _threatened(now.shanten, ts):
        return PASS  # folding: a claim would only open the hand and cost a safe tile
    best: tuple[tuple[int, float], Action] | None = None
    for a in legal:
        if a.type not in ("chi", "pong", "kong") or a.tile is None:
            continue
        c = _after_claim(view.hand, a)
        new_melds = (*melds, _claimed_meld(view, a))
        if a.type == "kong":
            after = _evaluate(view, c, new_melds, None)
        else:
            tiles = {t for t in range(KINDS) if c[t]}
            after = _pick(_discard_options(view, c, new_melds, tiles, ts), False)
        faster = after.shanten < now.shanten or (a.type == "kong" and after.shanten <= now.shanten)
        keeps_value = after.multiplier >= 0.6 * now.multiplier
        richer = after.shanten <= now.shanten and after.multiplier >= 1.5 * now.multiplier
        if after.shanten == 0 and after.worth <= 0:
            continue  # ready on waits that score nothing (or are all gone)
        if (faster and keeps_value) or richer:
            key = (after.shanten, -after.worth)
            if best is None or key < best[0]:
                best = (key, a)
    return best[1] if best else PASS


def _claimed_meld(view: PlayerView, a: Action) -> Meld:
    """The meld a claim would lay down (for valuing the hand after it)."""
    assert a.tile is not None
    tiles = a.tiles if a.type == "chi" else (a.tile,) * (4 if a.type == "kong" else 3)
    discarder = view.last_discard[0] if view.last_discard else None
    return Meld(a.type, tuple(tiles), discarder, a.tile)
