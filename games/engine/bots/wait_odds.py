"""Two-player: a ready hand's waits weighed by how often each kind of tile wins, not by its
unseen copies alone.

strong values a ready hand as Σ over its waits of unseen copies × the self-draw's exact payoff:
every unseen copy counts alike. With two players every hand is 万 and honours, so the one
opponent keeps most 万 tiles for its own hand and throws the honours it cannot use. Counted over
strong-against-strong hands (the hand each seat first became ready in, its waits and unseen
copies then, and which tile it won on), a copy of an honour wait is won on the opponent's
discard over twice as often as a copy of a 万 wait, while both are self-drawn about as often
(docs/bots.md, "expert in two-player: where the points come from, plans at speed, waits
weighed by how they win"). Each wait is weighed here by those per-copy chances of winning it
each way, times what each way pays. Measured level with strong (expert wins slightly more
hands, on discards that pay a third of a self-draw): off by default (search.WAIT_ODDS).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from games.engine.bots.seen import PlayerView
from games.engine.bots.value import wait_payoff
from games.engine.state import Meld
from games.engine.tiles import Tile, is_honour

# Per unseen copy held by a first-ready hand of strong against strong: (won on the opponent's
# discard, self-drawn). 2,500 hands, seeds 900,000+: honours 318 and 150 wins over 3,702
# copies, 万 679 and 777 over 17,935.
ODDS: dict[str, tuple[float, float]] = {"honour": (0.086, 0.041), "suit": (0.038, 0.043)}


def tile_class(t: Tile) -> str:
    return "honour" if is_honour(t) else "suit"


def ready_worth(view: PlayerView, c13: bytes, melds: tuple[Meld, ...], waits: Iterable[Tile]) -> float:
    """Expected points per go-round, up to a common factor, of a ready hand `c13` (+ `melds`)
    on `waits`: Σ unseen copies × (chance a copy is won on the discard × that win's payoff +
    chance it is self-drawn × the self-draw's payoff). Two-player only (one opponent)."""
    seen_by = view if melds is view.melds else replace(view, melds=melds)
    opponent = (view.me + 1) % view.players
    worth = 0.0
    for w in waits:
        copies = view.unseen[w]
        if not copies:
            continue
        on_discard, self_drawn = ODDS[tile_class(w)]
        worth += copies * (
            on_discard * wait_payoff(seen_by, c13, w, from_seat=opponent)
            + self_drawn * wait_payoff(seen_by, c13, w)
        )
    return worth
