"""The seeded wall: shuffle, dice, and the deal."""

from __future__ import annotations

import random

from games.engine.tiles import Tile


def roll_dice(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def shuffled_wall(tiles: list[Tile], rng: random.Random) -> tuple[Tile, ...]:
    """The wall in draw order: index 0 is drawn first, the last index is the
    first replacement tile (the back end)."""
    wall = list(tiles)
    rng.shuffle(wall)
    return tuple(wall)
