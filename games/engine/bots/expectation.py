"""expert's discard: among the discards as good as strong's, the one least likely to deal in.

The expected deal-in cost of throwing a tile is, over the opponents,

    Σ P(they are ready) × P(it is one of their waits | ready) × what their win costs

- P(ready): by the melds they laid and the tiles they threw;
- P(a wait | ready): by what the table shows of the tile for them — whether they threw it or let
  it pass since their turn, its rank, whether the tiles three ranks away are in their river (a
  two-sided wait on it would include one), how many copies are still unseen, whether their melds
  point at one suit (`deal_in.tile_key`);
- their win's cost: their visible base (flowers, honour pungs and kongs laid) × a measured ratio.

The probabilities are counts on four strong bots playing each other, where every hidden hand
is known afterwards (`DEAL_IN_TABLES`, scripts/deal_in_tables.py): the bot reads the tables,
never a hidden tile. Measured against the real hidden hands of 150 Shanghai hands, the expected
cost the tables predict for the swaps below was 1.2 times what they really saved.

Only the danger moves expert off strong's discard, and only among discards that keep the hand
as close to ready and keep `KEEP_WORTH` of strong's worth (improving tiles × plan, or a ready
hand's scored waits): strong's speed, plans and look-ahead stand. A wider trade — a slower or
poorer hand for a safer tile, priced by a table of how often hands finish — lost speed that the
tables did not see (docs/bots.md, "expert").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.actions import Action
from games.engine.bots.deal_in import one_suit, passed, ready_key, tile_key, visible_base
from games.engine.bots.deal_in_tables import DEAL_IN_TABLES
from games.engine.bots.policies import discard_options, strong_style
from games.engine.bots.seen import OtherSeat, PlayerView
from games.engine.tiles import Tile

# The alternatives: as close to ready, and at least this share of strong's worth
KEEP_WORTH = 0.8
# Depart from strong's discard only when it saves this much expected deal-in cost (points at
# the arena's stakes — yihua's base is 2 — before 荒番 doubles it): a smaller saving is within
# what the tables can tell. Cantonese pays about a third of Shanghai per deal-in, but a third
# of the bar there (0.07) dodged more and scored no better; in Shanghai and yihua half of it
# (0.1) dodged more too and scored no better on the same deals (docs/benchmarks.md).
SAVE = 0.2


def expected_discard(view: PlayerView, legal: Sequence[Action], base: Action) -> Action:
    """strong's discard `base`, or the alike discard with the least expected deal-in cost when
    that saves at least SAVE."""
    tables = DEAL_IN_TABLES.get(view.variant)
    if tables is None or base.tile is None:
        return base
    costs = alike_costs(view, legal, base.tile, tables)
    if base.tile not in costs:
        return base
    best = min(costs, key=lambda t: (costs[t], t != base.tile))
    if costs[base.tile] - costs[best] < SAVE:
        return base
    same = [a for a in legal if a.type == "discard" and a.tile == best]
    return min(same, key=lambda a: a.ready != base.ready) if same else base


def alike_costs(
    view: PlayerView, legal: Sequence[Action], base_tile: Tile, tables: dict[str, Any]
) -> dict[Tile, float]:
    """The expected deal-in cost of strong's discard and of every discard alike to it."""
    tiles = {a.tile for a in legal if a.type == "discard" and a.tile is not None}
    options = discard_options(view, view.hand, view.melds, tiles, [], strong_style(view.variant))
    chosen = next((o for o in options if o.tile == base_tile), None)
    if chosen is None:
        return {}
    readers = [Opponent(view, o, tables) for o in view.others]
    return {
        o.tile: sum(r.cost_of(o.tile) for r in readers)
        for o in options
        if o.tile is not None and o.shanten == chosen.shanten and o.worth >= KEEP_WORTH * chosen.worth
    }


class Opponent:
    """One opponent as the tables read them: how likely ready, what their win costs."""

    def __init__(self, view: PlayerView, o: OtherSeat, tables: dict[str, Any]) -> None:
        self.view = view
        self.o = o
        self.tables = tables
        self.ready = 0.95 if o.ready else tables["ready"].get(ready_key(o), 0.5)
        self.let_go = passed(view, o)
        self.suit = one_suit(o)
        self.value = tables["value"].get(0 if self.suit is None else 1, 1.0) * visible_base(o)

    def wins_on(self, t: Tile) -> float:
        key = tile_key(self.view, self.o, t, self.let_go, self.suit)
        return self.ready * self.tables["wait"].get(key, self.tables["wait_default"])

    def cost_of(self, t: Tile) -> float:
        return self.wins_on(t) * self.value
