"""The seeded wall: shuffle, dice, the deal — and the commitment to it (docs/fairness.md).

A hand dealt with a `salt` (32 random bytes from `secrets`, in hex) takes every chance of the
hand from that salt: the dice, the wall order, the joker indicator's dice and any later draw of
lots (random.Random seeded with the salt, then a seed derived from it). Before the deal the
players are shown `sha256(salt_hex + ":" + wall)`, the wall in dealing order as tile codes joined
by single spaces; after the hand the salt and the wall are revealed and anyone can re-check.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets

from games.engine.errors import EngineError
from games.engine.tiles import Tile, name, tile

SALT_BYTES = 32
SALT_PATTERN = re.compile(r"[0-9a-f]{64}")


def roll_dice(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def shuffled_wall(tiles: list[Tile], rng: random.Random) -> tuple[Tile, ...]:
    """The wall in draw order: index 0 is drawn first, the last index is the
    first replacement tile (the back end)."""
    wall = list(tiles)
    rng.shuffle(wall)
    return tuple(wall)


def new_salt() -> str:
    """A fresh salt: 32 bytes from the operating system's CSPRNG, never from the table or time."""
    return secrets.token_hex(SALT_BYTES)


def check_salt(salt: object) -> str:
    if not isinstance(salt, str) or not SALT_PATTERN.fullmatch(salt):
        raise EngineError("bad_salt", "the salt must be 64 lowercase hex digits (32 bytes)")
    return salt


def wall_text(wall: tuple[Tile, ...] | list[Tile]) -> str:
    """The wall as the rule book writes it: tile codes joined by single spaces."""
    return " ".join(name(t) for t in wall)


def parse_wall_text(text: str) -> tuple[Tile, ...]:
    try:
        return tuple(tile(code) for code in text.split(" "))
    except (EngineError, ValueError, IndexError, KeyError):
        message = "the wall must be tile codes (like 1m 7z 3f) joined by single spaces"
        raise EngineError("bad_wall", message) from None


def commitment(salt: str, wall: tuple[Tile, ...] | list[Tile] | str) -> str:
    """sha256(salt_hex + ":" + wall) in hex: what `printf '%s' "$salt:$wall" | sha256sum` prints."""
    text = wall if isinstance(wall, str) else wall_text(wall)
    return hashlib.sha256(f"{salt}:{text}".encode("ascii")).hexdigest()


def chance_seed(salt: str) -> int:
    """The 62-bit seed the rulesets draw later lots from (开局换牌, 搓牌), derived from the salt
    so that they too are fixed by the commitment."""
    return int.from_bytes(hashlib.sha256(f"{salt}:chance".encode("ascii")).digest()[:8], "big") >> 2


def deal_wall(
    tiles: list[Tile], seed: int, salt: str | None
) -> tuple[random.Random, tuple[int, int], tuple[Tile, ...]]:
    """The chance of a deal: the generator (read on by the ruleset's setup), the dice, and the
    wall in dealing order — from the salt when there is one, else from the (older) seed."""
    rng = random.Random(check_salt(salt) if salt is not None else seed)
    dice = roll_dice(rng)
    return rng, dice, shuffled_wall(tiles, rng)
