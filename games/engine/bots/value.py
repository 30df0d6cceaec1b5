"""What a hand is worth to a bot, in each variant's own terms.

Two measures, because a hand far from ready has no score yet:
- `wait_payoff`: a ready hand's wait scored exactly by the variant's `Ruleset.score` (the same
  function that settles real hands), as the points this seat would collect on a self-draw;
- `plan_multiplier`: for a hand still far away, how much more than a plain win the patterns it
  is heading for are worth (a one-suit or all-pungs hand), weighted by how close it is to them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.engine.bots.seen import PlayerView
from games.engine.errors import EngineError
from games.engine.rulesets import get_ruleset
from games.engine.scoring.context import WinContext
from games.engine.state import Meld
from games.engine.tiles import HONOR, Tile, tiles_of

# Worth of a pattern relative to a plain win of the same variant, read off its scoring:
# (pure one suit, mixed one suit, all pungs, mixed one suit + all pungs, pure + pungs).
# shanghai: a plain hand is ~5 flowers (3 base + honour pungs/kongs/flowers); 清一色 and 混碰 are
#   50, 清碰 100, while 混一色 and 碰碰胡 alone are class-3 patterns worth 0 fan there.
# yihua: 混一色 and 对对胡 are 1 fan (×2), 清一色 2 fan (×4), the total capped at 10 × base.
# cantonese: chicken 0 fan (×1), 混一色 / 碰碰和 2 fan (×4), 清一色 / 混碰 4 and 清碰 5 fan hit
#   the 3-fan cap (×8); a typical cheap win already has a bonus fan or two, hence the lower ratios.
# two_player: Guobiao 清一色 24, 混一色 6, 碰碰和 6 fan against the 13 cap; flowers and small fan
#   make a plain win ~4-6 fan.
# tianjin: nothing suit- or pung-shaped scores (clean hand, 捉5 and 龙 are read at the wait).
PLAN_VALUES: dict[str, tuple[float, float, float, float, float]] = {
    "shanghai": (10.0, 1.0, 1.2, 10.0, 20.0),
    "yihua": (4.0, 2.0, 2.0, 4.0, 5.0),
    "cantonese": (5.0, 3.0, 3.0, 5.0, 6.0),
    "two_player": (3.0, 1.6, 1.6, 2.5, 3.0),
    "tianjin": (1.0, 1.0, 1.0, 1.0, 1.0),
}
# How likely a plan still is, by tiles still to replace (suit plans) or groups still missing
# (pungs): steep, so a plan only counts once the hand is really heading there.
_SUIT_FEASIBLE = (1.0, 0.6, 0.35, 0.15, 0.05)
_PUNG_FEASIBLE = (1.0, 0.6, 0.3, 0.1)
# Tianjin's 龙 (1–9 of one suit as three runs) quadruples the hand, the biggest factor there;
# strong prices it by the ranks of the best suit still missing (jokers fill gaps).
DRAGON_VALUE = 4.0
_DRAGON_FEASIBLE = (1.0, 0.55, 0.25, 0.1, 0.03)


# a pure function of the hand, asked again for the same hands (every discard of a decision, the
# claims before it, expert's second look at strong's options): kept per hand
@lru_cache(maxsize=1 << 15)
def plan_multiplier(
    variant: str, counts: bytes, melds: tuple[Meld, ...], plans: str = "normal", jokers: tuple[Tile, ...] = ()
) -> float:
    """≥ 1: the value of the best pattern this hand (concealed counts + melds) heads for;
    exactly 1 for `plans="speed"` (a variant whose wins mostly reach the cap: no pattern is
    worth a step: policies.strong_at_speed)."""
    if plans == "speed":
        return 1.0
    strong = plans == "strong"
    if strong and variant == "tianjin":
        return 1 + (DRAGON_VALUE - 1) * _dragon_feasibility(counts, melds, jokers)
    pure, mixed, pungs, mixed_pungs, pure_pungs = PLAN_VALUES[variant]
    if pure == 1.0 and pungs == 1.0:
        return 1.0
    per_suit = [0, 0, 0]
    honours = sum(counts[HONOR:])
    for t in range(HONOR):
        per_suit[t // 9] += counts[t]
    meld_suits: set[int] = set()  # 3 = honours; a laid meld can never be thrown away again
    for m in melds:
        for t in m.tiles[:3]:
            meld_suits.add(min(t // 9, 3))
            if t >= HONOR:
                honours += 1
            else:
                per_suit[t // 9] += 1
    total = sum(per_suit) + honours
    main_suit = max(range(3), key=per_suit.__getitem__)
    main = per_suit[main_suit]
    f_mixed = _at(_SUIT_FEASIBLE, total - main - honours) if meld_suits <= {main_suit, 3} else 0.0
    f_pure = _at(_SUIT_FEASIBLE, total - main) if meld_suits <= {main_suit} else 0.0
    f_pungs = 0.0
    if all(m.is_pung_like for m in melds):
        groups = sum(1 for c in counts if c >= 2) + len(melds)
        f_pungs = _at(_PUNG_FEASIBLE, max(0, 5 - groups))
    return max(
        1.0,
        1 + (pure - 1) * f_pure,
        1 + (mixed - 1) * f_mixed,
        1 + (pungs - 1) * f_pungs,
        1 + (mixed_pungs - 1) * f_mixed * f_pungs,
        1 + (pure_pungs - 1) * f_pure * f_pungs,
    )


def _dragon_feasibility(counts: bytes, melds: tuple[Meld, ...], jokers: tuple[Tile, ...]) -> float:
    """How near the hand is to 1–9 of one suit as three concealed runs: by ranks missing in
    its best suit, less the jokers it holds; 0 once a meld was laid in that suit (the runs must
    be in the hand) or two melds are laid (three runs + a pair leave room for one meld)."""
    if len(melds) > 1:
        return 0.0
    held = sum(counts[t] for t in jokers)
    best = 0.0
    for suit in range(3):
        if any(t // 9 == suit for m in melds for t in m.tiles if t < HONOR):
            continue
        ranks = sum(1 for r in range(9) if counts[suit * 9 + r] and suit * 9 + r not in jokers)
        best = max(best, _at(_DRAGON_FEASIBLE, max(0, 9 - ranks - held)))
    return best


def _at(table: tuple[float, ...], i: int) -> float:
    return table[i] if i < len(table) else 0.0


def wait_payoff(view: PlayerView, counts13: bytes, win_tile: Tile, from_seat: int | None = None) -> int:
    """Points this seat collects if it self-draws `win_tile` onto `counts13` (0: not a win);
    with `from_seat`, if it wins that tile on that seat's discard."""
    return _payoff(
        view.variant,
        counts13,
        win_tile,
        view.melds,
        view.flowers,
        view.me,
        view.dealer,
        view.players,
        view.round_wind,
        view.jokers,
        view.discarded_joker,
        from_seat,
    )


@lru_cache(maxsize=32768)
def settle_win(
    variant: str,
    counts13: bytes,
    win_tile: Tile,
    melds: tuple[Meld, ...],
    flowers: tuple[Tile, ...],
    seat: int,
    dealer: int,
    players: int,
    round_wind: Tile,
    jokers: tuple[Tile, ...],
    discarded_joker: bool,
    from_seat: int | None = None,
) -> tuple[int, ...]:
    """Every seat's payment if `seat` wins on `win_tile` (by self-draw when `from_seat` is None),
    scored by the variant's own rules; () when that is no win. Shared by the bots' wait values
    and the search's rollouts (cached: the same ready hands come back again and again)."""
    ctx = WinContext(
        variant=variant,
        concealed=tuple(tiles_of(counts13)),
        win_tile=win_tile,
        seat=seat,
        dealer=dealer,
        players=players,
        melds=melds,
        flowers=flowers,
        by="self_draw" if from_seat is None else "discard",
        from_seat=from_seat,
        round_wind=round_wind,
        base=2 if variant == "yihua" else 1,  # yihua's base stake must be even
        jokers=jokers,
        discarded_joker=discarded_joker,
    )
    try:
        result = get_ruleset(variant).score(ctx)
    except EngineError:  # a shape the scorer refuses is no win for the bot either
        return ()
    if not result.win or not result.payments:
        return ()
    return tuple(result.payments)


def _payoff(*args: Any) -> int:
    """What this seat's win on the tile would pay it (0: no win); `settle_win`'s arguments."""
    payments = settle_win(*args)
    seat = args[5]
    return max(0, payments[seat]) if payments else 0
