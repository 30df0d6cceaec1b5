"""How dangerous a discard is, from what is on the table only (the `strong` bot's defence).

Per opponent: how likely they are ready (melds laid, discards made, 报听) times how big their
hand looks (exposed melds of one suit, all pungs). Per tile and opponent: tiles they threw
themselves are nearly safe (they let them go, and a passed win locks them in several variants);
kinds whose copies are mostly visible can hardly be waited on (wall counting); a tile three
ranks from one they threw is less likely (suji-like); a suit their melds point at is more
likely, the other suits much less.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.engine.bots.seen import OtherSeat, PlayerView
from games.engine.rulesets import get_ruleset
from games.engine.tiles import HONOR, Tile


@dataclass(frozen=True)
class Threat:
    seat: OtherSeat
    ready: float  # 0..1, how likely they are ready now
    size: float  # ≥ 1, how big their hand looks
    suit: int | None  # the suit their melds point at (one-suit hands), if any

    @property
    def level(self) -> float:
        return self.ready * self.size


def threats(view: PlayerView) -> list[Threat]:
    """Opponents who can win on this seat's discard; empty in self-draw-only variants."""
    if not get_ruleset(view.variant).win_on_discard:
        return []
    one_suit_signal = _suits_in_wall(view.variant) > 1
    return [seat_threat(o, one_suit_signal, view.variant) for o in view.others]


@cache
def _suits_in_wall(variant: str) -> int:
    """How many suits the variant plays with (two-player: characters only, so every hand is
    one suit and melds in it say nothing about size)."""
    return len({t // 9 for t in get_ruleset(variant).wall_tiles() if t < HONOR})


# How much bigger than a plain win a hand showing (one suit, all pungs) in its melds looks, by
# variant. Measured, not read off the scoring: in Shanghai pricing a one-suit show at its 50
# flowers (×5) made strong fold so often that it fell behind normal (−0.39 against +0.05 points
# per hand, 1,000 duplicate hands), and Cantonese's 3-fan cap keeps big hands only ~1.5× a
# plain one, so folding against them buys little there.
THREAT_SIZE: dict[str, tuple[float, float]] = {
    "shanghai": (2.5, 1.8),
    "yihua": (2.5, 1.8),
    "cantonese": (1.3, 1.2),
    "two_player": (1.0, 1.0),
    "tianjin": (1.0, 1.0),
}


def seat_threat(o: OtherSeat, one_suit_signal: bool = True, variant: str = "shanghai") -> Threat:
    opened = len(o.melds) + o.hidden_kongs
    # calibrated on four strong bots (Shanghai): ~0.3 ready with one meld and ten discards,
    # ~0.6 with two, nearly always with three
    guess = 0.04 + 0.17 * opened + 0.022 * len(o.discards) + (0.3 if opened >= 3 else 0.0)
    ready = 0.95 if o.ready else min(0.9, guess)
    suits = {t // 9 for m in o.melds for t in m.tiles if t < HONOR}
    suit = next(iter(suits)) if one_suit_signal and len(o.melds) >= 2 and len(suits) == 1 else None
    one_suit, pungs = THREAT_SIZE.get(variant, (2.5, 1.8))
    size = 1.0
    if suit is not None:
        size += one_suit - 1
    if len(o.melds) >= 2 and all(m.is_pung_like for m in o.melds):
        size += pungs - 1
    return Threat(o, ready, size, suit)


def danger(view: PlayerView, t: Tile, threat: Threat) -> float:
    """0..~2: how likely `t` wins for this opponent, relative to an average tile."""
    o = threat.seat
    if t in o.discards:
        return 0.1
    left = view.unseen[t]
    if left == 0:
        return 0.0
    if t >= HONOR:
        d = (0.25, 0.5, 0.8, 1.0)[min(left, 3)]
    else:
        r = t % 9
        d = 0.75 if r in (0, 8) else 0.9 if r in (1, 7) else 1.0
        if (r >= 3 and t - 3 in o.discards) or (r <= 5 and t + 3 in o.discards):
            d *= 0.6  # suji: a two-sided wait on t would have included the tile they threw
        if left == 1:
            d *= 0.5
    if threat.suit is not None:
        d *= 1.8 if t >= HONOR or t // 9 == threat.suit else 0.2
    return d


def risk(view: PlayerView, t: Tile, ts: list[Threat]) -> float:
    """Expected trouble from discarding `t`: Σ over opponents of readiness × size × danger."""
    return sum(th.level * danger(view, t, th) for th in ts)
