"""Rigged deals for browser tests: who holds what when a hand of each variant is dealt.

A browser test's server runs in its own processes (daphne and the clock), where a test's
monkeypatch cannot reach. `python -m tests.browser.rigged <daphne args | manage.py …>` starts
them with the engine's deal replaced (see `install`): every hand of a variant in `RIGS` is dealt
from the wall built here, and the first dealer of a match is the last seat. Both processes replay
a hand from its log, so both are rigged the same way.

The seats, as the browser tests fill a table: alice created it (seat 0, East), bots sit in the
seats between, bob takes the last seat and deals first. Alice's hand is ready (听) from the deal;
bob holds a copy of one of her waits and discards it on his first turn.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine import actions
from games.engine.rulesets import get_ruleset
from games.engine.tiles import Tile, parse
from games.engine.wall import check_salt, roll_dice


@dataclass(frozen=True)
class Rig:
    """`hands`: the 13 tiles dealt to each seat (flowers included; they are replaced from the
    back at the deal, by `replacements` in order); `draws`: the front of the wall after the deal
    (bob's 14th tile first); `indicator`: the joker indicator (tianjin).
    `waits`: alice's waits right after the deal, tile → copies she has not seen (checked against
    the engine by tests/browser/test_waits_browser.py); `discard`: the wait tile bob discards
    first (alice has not seen his copy: one fewer unseen after it)."""

    hands: tuple[str, ...]
    draws: str
    waits: dict[str, int]
    discard: str
    replacements: str = ""
    indicator: str = ""


FILLER = "1z1z2z2z3z3z4z4z5z5z6z6z7z"  # a bot's seat (honours: nobody claims much from them)
BOT_2 = "1s2s3s4s5s6s7s8s9s1s2s3s4s"
BOB = "4p5p6p7p8p9p5s6s7s8s9s6m7m"  # one 4p: a copy of alice's wait she cannot see
NORMAL_SHAPE = Rig(
    hands=("1m2m3m4m5m6m7m8m9m1p1p2p3p", FILLER, BOT_2, BOB),
    draws="7z",
    waits={"1p": 2, "4p": 4},
    discard="4p",
)
RIGS: dict[str, Rig] = {
    # 1m–9m, 1p1p 2p3p: waiting on 1p (two left: alice holds two) and 4p (bob holds one)
    "shanghai": NORMAL_SHAPE,
    # the same shape, a flower dealt to alice (replaced by 2p): a discard may be won (一花起胡)
    "yihua": Rig(
        hands=(
            "1m2m3m4m5m6m7m8m9m1p1p3p1f",
            FILLER,
            BOT_2,
            BOB,
        ),
        draws="7z",
        replacements="2p",
        waits={"1p": 2, "4p": 4},
        discard="4p",
    ),
    "cantonese": NORMAL_SHAPE,
    # indicator 5s: jokers 5s and 6s; alice holds a 6s (a joker) and waits on more than the shape
    "tianjin": Rig(
        hands=(
            "1m2m3m4m5m6m7m8m9m1p1p2p6s",
            FILLER,
            "1s2s3s4s7s8s9s1s2s3s4s7s8s",
            "3p4p5p6p7p8p9p3p4p5p6m7m8m",
        ),
        draws="7z7z",  # bob's, then alice's (tianjin: no claim on bob's discard, she draws at once)
        indicator="5s",
        waits={"1p": 2, "2p": 3, "3p": 4, "4p": 4, "5s": 3, "6s": 3},  # the joker (6s) waits on many
        discard="3p",
    ),
    # two players, characters and honours only: 1m–9m, 1z1z 2z2z: waiting on 1z or 2z
    "two_player": Rig(
        hands=("1m2m3m4m5m6m7m8m9m1z1z2z2z", "1m2m3m4m5m6m7m8m9m2z3z3z3z"),
        draws="4z",
        waits={"1z": 2, "2z": 2},
        discard="2z",
    ),
}


def rigged_wall(variant: str, rig: Rig, dealer: int) -> tuple[Tile, ...]:
    """The wall in dealing order for `rig` when `dealer` deals (the deal hands out 13 tiles a
    seat from the dealer on), its unused tiles in the middle in a fixed order."""
    rules = get_ruleset(variant)
    n = rules.players
    held = [parse(h) for h in rig.hands]
    front = parse(rig.draws)
    back = parse(rig.replacements)
    extra = parse(rig.indicator)
    left = Counter(rules.wall_tiles())
    for t in [t for h in held for t in h] + front + back + extra:
        left[t] -= 1
        if left[t] < 0:
            raise ValueError(f"{variant}: more tiles used than the set holds")
    dealt = [t for i in range(n) for t in held[(dealer + i) % n]]
    middle = sorted(left.elements())
    return tuple(dealt + front + middle + extra + list(reversed(back)))


_local = threading.local()
_real_new_hand = actions.new_hand
_real_deal_wall = actions.deal_wall


def rigged_deal_wall(tiles: list[Tile], seed: int, salt: str | None) -> Any:
    wall = getattr(_local, "wall", None)
    if wall is None:
        return _real_deal_wall(tiles, seed, salt)
    rng = random.Random(check_salt(salt) if salt is not None else seed)
    dice = roll_dice(rng)
    indicator = getattr(_local, "indicator", None)
    if indicator is not None:  # tianjin: put it where the ruleset's setup will turn it up
        probe = random.Random()
        probe.setstate(rng.getstate())
        index = len(wall) - 2 * sum(roll_dice(probe))
        wall = list(wall)
        at = len(wall) - 1 - len(parse(getattr(_local, "replacements", "")))  # where rigged_wall put it
        wall[index], wall[at] = wall[at], wall[index]
        wall = tuple(wall)
    _local.last = (rng, dice, wall)
    return rng, dice, wall


def rigged_record_deal_wall(tiles: list[Tile], seed: int, salt: str | None) -> Any:
    """A record (games.engine.record) deals the hand, then asks for its wall to write or check
    it: the wall the rigged deal just built on this thread, else the real one."""
    last = getattr(_local, "last", None)
    _local.last = None
    return last if last is not None else _real_deal_wall(tiles, seed, salt)


def rigged_new_hand(variant: str, seed: int, dealer: int = 0, **setup: Any) -> Any:
    rig = RIGS.get(variant)
    if rig is None:
        return _real_new_hand(variant, seed, dealer=dealer, **setup)
    _local.wall = rigged_wall(variant, rig, dealer)
    _local.indicator = parse(rig.indicator)[0] if rig.indicator else None
    _local.replacements = rig.replacements
    try:
        return _real_new_hand(variant, seed, dealer=dealer, **setup)
    finally:
        _local.wall = _local.indicator = None


def first_dealer(n: int) -> int:
    """The match's first dealer (services draws it with secrets.randbelow): the last seat."""
    return n - 1


def install() -> None:
    """Rig this process: before Django imports the services (they import `new_hand` by name)."""
    import secrets

    actions.new_hand = rigged_new_hand
    actions.deal_wall = rigged_deal_wall
    # the open record (and the review, which replays it) checks the same rigged deal
    from games.engine import record

    record.new_hand = rigged_new_hand
    record.deal_wall = rigged_record_deal_wall
    secrets.randbelow = first_dealer
