"""expert's pre-hand stakes in Tianjin (RULES §5.2): the dealer's 坐庄, a non-dealer's 拉庄.

The choice is made before a tile is seen, so all it can weigh is what the pair's payments are
worth on average. Doubling a pair's multiplier m doubles every payment between the dealer and
that non-dealer (wins, kongs, 铲), so one more doubling is worth to the dealer the dealer's mean
payment from that non-dealer at m = 1, and to the non-dealer its negative. That mean was
measured (scripts/tianjin_stakes.py, docs/bots.md "expert's stakes in Tianjin") on hands of
strong bots — the dealer draws first and keeps the lead of a tile — and it is positive: expert
as the dealer chooses 坐庄, and as a non-dealer never 拉 (a 拉 doubles the side that loses).

It assumes opponents who play like strong and do not change their play with the stakes; it is
the same pre-hand figure whatever the hand, because nothing else is known then.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.actions import Action
from games.engine.bots.seen import PlayerView
from games.engine.rulesets.tianjin import LA, ZUO

# The dealer's mean payment per hand from one non-dealer at m = 1: four strong bots, 8,000 hands
# (every seat dealing in turn), seed 91000, measured 2026-11-27 19:46–20:05 UTC:
#   PYTHONPATH=. nice -n 19 .venv/bin/python scripts/tianjin_stakes.py --hands 8000 --seed 91000
# the dealer's net +0.131 [+0.068, +0.195] per hand over its three pairs, a third of it per pair;
# by position the next seat +0.015 [−0.012, +0.041], the opposite +0.043 [+0.017, +0.068], the
# previous +0.073 [+0.048, +0.099] — the later a seat draws, the more it pays the dealer. No
# position's side is positive for the non-dealer, so no 拉 (docs/bots.md "expert's stakes in Tianjin").
DEALER_EDGE_PER_PAIR = 0.044


def stake_choice(view: PlayerView, legal: Sequence[Action]) -> Action:
    """坐庄 when the dealer's side of a pair is worth more than nothing; 拉 (doubling a pair
    from the non-dealer's side) only when it is worth less than nothing; else the first option."""
    if view.dealer == view.me:
        wanted: tuple[str, int] = (ZUO, 1 if DEALER_EDGE_PER_PAIR > 0 else 0)
    else:
        wanted = (LA, 1 if DEALER_EDGE_PER_PAIR < 0 else 0)
    for a in legal:
        if (a.kind, a.value) == wanted:
            return a
    return legal[0]
