"""Two-player: which unseen copies the one opponent likely holds, so a count of outs reads the
copies left in the wall rather than every unseen copy.

With one opponent, every tile this seat cannot see is in that opponent's 13-odd concealed tiles
or in the wall, and three quarters of two-player's points change hands by self-draw — won from
the wall alone. strong counts every unseen copy alike. The opponent's river says which kinds it
kept: a kind it has thrown, or whose 万 neighbours it has thrown, is less often in its hand, and
an honour it has never thrown while throwing others more often. Each kind's chance per unseen
copy of sitting in the opponent's hand is read from a table counted over strong-against-strong
hands (scripts/two_player_points.py holds), by the kind's class, whether the opponent threw it,
whether it threw a 万 neighbour, and how far its river has run; the chances are then scaled so
they add up to the opponent's known hand size.
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.bots.seen import PlayerView, unseen_pool
from games.engine.tiles import HONOR, KINDS, MAN, Tile

# Counts are kept in quarters of a copy so they stay small integers (bytes): the bots' memoised
# tile-efficiency counts key on them, and strong's ties (broken two draws ahead) still happen.
SCALE = 4


def river_stage(discards: int) -> int:
    return 0 if discards < 4 else 1 if discards < 8 else 2


def feature(t: Tile, thrown: set[Tile], stage: int) -> tuple[str, bool, bool, int]:
    """The bin of kind `t`: its class, whether the opponent threw it, whether it threw a 万
    within two of it (honours: False), and the river's stage."""
    if t >= HONOR:
        return ("honour", t in thrown, False, stage)
    near = any(0 < abs(t - u) <= 2 and MAN <= u < MAN + 9 for u in thrown)
    return ("suit", t in thrown, near, stage)


# Per unseen copy, the share held in the opponent's concealed hand, by bin; counted over 3,000
# strong-against-strong hands at each seat's turns (scripts/two_player_points.py holds --hands
# 3000 --seed 1200000): an honour the opponent threw is almost never still in its hand, one it
# never threw is there about as often as a 万; a 万 it threw, or beside one it threw, less often.
HELD: dict[tuple[str, bool, bool, int], float] = {
    ("honour", False, False, 0): 0.27,  # 95671 of 354078
    ("honour", False, False, 1): 0.291,  # 44878 of 153981
    ("honour", False, False, 2): 0.406,  # 9633 of 23736
    ("honour", True, False, 0): 0.003,  # 158 of 58441
    ("honour", True, False, 1): 0.006,  # 550 of 94486
    ("honour", True, False, 2): 0.012,  # 257 of 21644
    ("suit", False, False, 0): 0.293,  # 152071 of 518253
    ("suit", False, False, 1): 0.355,  # 84056 of 236935
    ("suit", False, False, 2): 0.429,  # 9747 of 22724
    ("suit", False, True, 0): 0.199,  # 8191 of 41192
    ("suit", False, True, 1): 0.277,  # 32458 of 117099
    ("suit", False, True, 2): 0.362,  # 14559 of 40213
    ("suit", True, False, 0): 0.097,  # 1004 of 10394
    ("suit", True, False, 1): 0.216,  # 5143 of 23783
    ("suit", True, False, 2): 0.302,  # 1820 of 6026
    ("suit", True, True, 0): 0.098,  # 104 of 1063
    ("suit", True, True, 1): 0.178,  # 2385 of 13384
    ("suit", True, True, 2): 0.299,  # 3249 of 10870
}


def held_copies(view: PlayerView) -> list[float]:
    """Per kind, the copies likely in the one opponent's concealed hand: each unseen copy's
    chance by its bin (HELD), scaled so they add up to the opponent's hand size."""
    pool = unseen_pool(view)
    opponent = view.others[0]
    thrown = set(opponent.discards)
    stage = river_stage(len(opponent.discards))
    copies = [pool[t] * HELD.get(feature(t, thrown, stage), 0.25) if pool[t] else 0.0 for t in range(KINDS)]
    expected = sum(copies)
    held = opponent.hand_count if opponent.hand_count >= 0 else 13
    factor = held / expected if expected else 0.0
    return [min(float(pool[t]), c * factor) for t, c in enumerate(copies)]


def wall_counts(view: PlayerView) -> bytes:
    """The view's unseen counts with each kind's copies likely in the opponent's hand taken out,
    in quarters of a copy (× SCALE); kinds outside the variant's set keep 4 × SCALE, as
    `view.unseen` keeps them at 4, so ratios over the whole of it move only by the reading."""
    pool = unseen_pool(view)
    held = held_copies(view)
    out = bytearray(KINDS)
    for t in range(KINDS):
        out[t] = round((pool[t] - held[t]) * SCALE) if pool[t] else view.unseen[t] * SCALE
    return bytes(out)


def feeding(view: PlayerView, t: Tile) -> float:
    """How much discarding `t` is likely to help the one opponent call it: its likely copies of
    `t` (a pong wants two) and, for a 万, of the kinds within two of it (a chi wants two of
    them; the opponent is always the next seat, so every 万 discard is chi-able)."""
    held = held_copies(view)
    near = 0.0
    if t < HONOR:
        near = sum(held[u] for u in range(max(MAN, t - 2), min(MAN + 8, t + 2) + 1) if u != t)
    return 2 * held[t] + near


def reading_the_wall(view: PlayerView) -> PlayerView:
    """The view with `unseen` replaced by the wall's likely copies (× SCALE); two-player only."""
    if view.players != 2 or not view.others:
        return view
    return replace(view, unseen=wall_counts(view))
