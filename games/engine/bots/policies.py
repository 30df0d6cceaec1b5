"""The three bot levels. Each is `(view, legal, rng) -> Action` and returns one of `legal`.

easy:   today's bot — every win at once; discards to the lowest shanten (ties: the most
        isolated tile); claims only when the claim lowers its shanten.
normal: lowest shanten first, then the most unseen tiles that improve the hand, weighted by the
        value of the patterns the hand heads for; a ready hand's waits are scored exactly by the
        variant's own scoring. Claims only when they speed the hand up without giving up most
        of its value (a kong too, as easy: only one that brings the hand closer).
strong: normal, plus the kongs normal leaves (one that keeps the hand as close is a free draw;
        in Tianjin, where a kong is paid when made, any kong; not in two-player, where they
        cost); a call that keeps a ready hand ready when its waits are worth more (大吊车); a
        look two draws ahead to break ties between equally fast discards (the shape the next
        useful draw leaves); passing a discard win for the self-draw when a race over its
        remaining draws says so (Cantonese and two-player in practice, _holding_out); never
        declaring 报听 (two-player: it scores nothing and locks the hand); and defence
        (Shanghai, yihua, Cantonese): estimates each discard's danger from the table and, when
        an opponent is clearly close to a big hand while its own hand is far, folds (throws the
        safest tile, claims nothing) — more readily as the wall runs out; otherwise it pushes,
        the danger not weighed. In Tianjin, where nothing can be defended, it prices the 龙 (×4)
        normal ignores.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.engine.actions import Action
from games.engine.bots.defence import Threat, risk, threats
from games.engine.bots.opponent_hand import feeding, reading_the_wall
from games.engine.bots.seen import PlayerView, unseen_pool
from games.engine.bots.shape import distance, improving, isolation, two_step
from games.engine.bots.value import plan_multiplier, wait_payoff
from games.engine.bots.wait_odds import ready_worth
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
# strong (style.late): below this many own draws left, FOLD_AT shrinks in proportion
LATE_DRAWS = {2: 16.0, 1: 8.0}
# strong breaks ties of its fastest discards by looking two draws ahead (_look_ahead) while the
# hand is at most this far from ready (farther: the costliest, and the least telling)
LOOK_AHEAD_MAX = 2


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
    """Every level: a win is taken; a single option or a pre-hand choice needs no thought
    (expert chooses Tianjin's stakes itself, bots/stakes.py)."""
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
        c = after_claim(view.hand, a)
        if a.type == "kong":
            after = distance(c, melds + 1, view.jokers)
        else:
            after = min(_without(c, t, melds + 1, view.jokers) for t in range(KINDS) if c[t])
        if after < now and (best is None or after < best[0]):
            best = (after, a)
    return best[1] if best else PASS


def after_claim(hand: bytes, a: Action) -> bytes:
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
class Style:
    """What separates normal from strong (the same search, different knowledge)."""

    defend: bool  # read the table's danger and fold (defence.py)
    plans: str  # "strong" adds the plans normal does not price (Tianjin 龙, value.py)
    late: bool  # fold more readily as the wall runs out (few draws left to finish a far hand)
    hold_out: bool = False  # may pass a discard win to play for the self-draw (_holding_out)
    look_ahead: bool = False  # rank discards by the shape two draws ahead (shape.two_step)
    # which kongs it calls on a discard: "faster" only one that brings the hand closer (easy's
    # rule); "keeping" also one that keeps it as close (the replacement is a free draw, and the
    # kong scores in most variants); "paid" any kong, its own turn's too (Tianjin pays a kong when
    # made: an exposed one about a plain win, a concealed one twice that)
    kongs: str = "faster"
    # a call that keeps a ready hand ready is made when the waits it leaves are worth more, by the
    # variant's exact scoring (Shanghai's 大吊车: four melds called, 50 flowers on a single tile)
    richer_waits: bool = False
    # two-player 报听: declare whenever the chosen discard allows (False: never — the declaration
    # scores nothing by default and locks the hand: no better wait later, no kong)
    declare: bool = True
    # two-player: a ready hand's waits weighed by how often each kind of tile is won on the
    # discard and self-drawn (wait_odds.py), not by unseen copies × the self-draw alone
    wait_odds: bool = False
    # the fold limits (FOLD_AT) × this: below 1 a player folds against a smaller threat
    fold_scale: float = 1.0


NORMAL = Style(defend=False, plans="normal", late=False)


def strong_style(variant: str) -> Style:
    # two-player: no defence. A deal-in costs 13 while the opponent's self-draw costs 39 whatever
    # this seat throws, so dodging their wait only trades the cheap loss for the dear one
    # (2,000 duplicate hands, seed 22: strong with defence +0.72 [−0.19, +1.62] against easy,
    # normal without it +1.37 [+0.47, +2.27]); strong plays for the self-draw instead.
    two = variant == "two_player"
    # two-player: calling a kong that only keeps the hand as close cost there (12,000 duplicate
    # hands, seed 23: strong without those calls +0.21 [−0.22, +0.63] against normal with them,
    # −0.03 with them too) — most wins reach the 13 cap anyway, so the kong's fan adds nothing
    kongs = {"tianjin": "paid", "two_player": "faster"}.get(variant, "keeping")
    return Style(
        defend=not two,
        plans="strong",
        late=not two,
        hold_out=True,
        look_ahead=True,
        kongs=kongs,
        richer_waits=True,
        # 报听 scores nothing by default and locks the hand: strong stays free to move to a better
        # wait or call a kong (4,000 duplicate hands, seed 22: strong − normal +1.84 [+0.73,
        # +2.95] without declaring, −0.06 [−0.59, +0.46] declaring as normal does)
        declare=False,
    )


@dataclass(frozen=True)
class Option:
    """One 13-tile hand a decision can leave: how far, how good, how risky its discard was."""

    tile: Tile | None  # the discard that leaves it (None: no discard, e.g. before a claim)
    shanten: int
    worth: float  # ready: Σ unseen × exact payoff; else improving tiles × plan multiplier
    multiplier: float
    risk: float = 0.0
    ahead: float = 0.0  # strong: Σ improving draws × the count after the next one (two_step)


def normal(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    return _play(view, legal, NORMAL)


def strong_reading_waits(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong with a ready hand's waits weighed by how each kind of tile wins (wait_odds.py):
    two-player only, where the one opponent throws honours and keeps 万."""
    style = strong_style(view.variant)
    if view.variant == "two_player":
        style = replace(style, wait_odds=True)
    return _play(view, legal, style)


# strong_folding_carefully: the fold limits scaled so that four such players draw as people are
# said to, one hand in ten or more (four careful experts: Shanghai 12.8 %, docs/benchmarks.md)
CAREFUL_FOLD = 0.35


def strong_folding_carefully(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong folding against a third of the threat it folds against, as a careful person
    would: a screening level's base move, never a site's (two-player reads no danger, so there
    it is strong)."""
    return _play(view, legal, replace(strong_style(view.variant), fold_scale=CAREFUL_FOLD))


def strong_at_speed(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong with no plan priced: a far hand is judged by its improving tiles alone (a ready
    one still by its waits' exact scores), so no discard or call gives up a step or an improving
    tile for 清一色 or 碰碰和. For a variant whose wins mostly reach the cap (two-player: 71 % of
    strong's wins score 13 fan or more before the cap), where those patterns add little."""
    return _play(view, legal, replace(strong_style(view.variant), plans="speed"))


def strong(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    return _play(view, legal, strong_style(view.variant))


def strong_reading_the_wall(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong with its discards (two-player only) counted on the copies likely left in the wall,
    not every unseen copy (opponent_hand.py): a wait or improving tile the one opponent has
    thrown is nearly all in the wall, one it keeps beside its own 万 partly in its hand."""
    if view.phase != "turn" or view.variant != "two_player":
        return strong(view, legal, rng)
    return _play(reading_the_wall(view), legal, strong_style(view.variant))


def strong_feeding_least(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong, its discard (two-player only) chosen among those it ranks exactly alike — as
    close to ready, as many improving tiles, the same shape two draws ahead — as the one the one
    opponent is least likely to call (opponent_hand.feeding): strong takes the first of a tie."""
    base = strong(view, legal, rng)
    if view.variant != "two_player" or view.phase != "turn" or base.type != "discard" or not view.others:
        return base
    discards = [a for a in legal if a.type == "discard"]
    tiles = {a.tile for a in discards if a.tile is not None}
    options = discard_options(view, view.hand, view.melds, tiles, [], strong_style(view.variant))
    chosen = next((o for o in options if o.tile == base.tile), None)
    if chosen is None:
        return base
    alike = [
        o.tile
        for o in options
        if (o.shanten, o.worth, o.ahead) == (chosen.shanten, chosen.worth, chosen.ahead)
    ]
    if len(alike) < 2:
        return base
    least = min(alike, key=lambda t: (feeding(view, t), t != base.tile))
    return (
        next(a for a in discards if a.tile == least and a.ready == base.ready) if least != base.tile else base
    )


def strong_counting_the_set(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong with two-player's unseen counts kept within its set: `view.unseen` counts 4 copies
    of every kind, the 筒 and 条 two-player plays without too, so the hold-out's chance of a
    self-draw per round (its outs over every unseen copy) reads 72 copies that are not there —
    about 2.4 times too low. Only sums over the whole of `unseen` move (the hold-out's); the
    discard counts never reach a kind outside the set."""
    if view.variant != "two_player":
        return strong(view, legal, rng)
    return _play(replace(view, unseen=bytes(unseen_pool(view))), legal, strong_style(view.variant))


def strong_reading_the_wall_always(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    """strong_reading_the_wall at every decision, its answers to a discard and hold-out too."""
    if view.variant != "two_player":
        return strong(view, legal, rng)
    return _play(reading_the_wall(view), legal, strong_style(view.variant))


def _play(view: PlayerView, legal: Sequence[Action], style: Style) -> Action:
    offered = view.phase == "claim" and PASS in legal
    # read the table once: the hold-out weighs every opponent's readiness, defence their danger
    seen = threats(view) if style.defend or (style.hold_out and offered) else []
    if style.hold_out and offered and _holding_out(view, legal, seen):
        return PASS
    ts = seen if style.defend else []
    early = _forced(view, legal)
    if early is not None:
        return early
    paid = _paid_kong(view, legal) if style.kongs == "paid" else None
    if paid is not None:
        return paid
    if view.phase == "claim":
        return _claim(view, legal, ts, style)
    discards = [a for a in legal if a.type == "discard"]
    if not discards:
        return legal[0]
    tiles = {a.tile for a in discards if a.tile is not None}
    options = discard_options(view, view.hand, view.melds, tiles, ts, style)
    fold = should_fold(view, options, ts, style)
    best = _pick(options, fold)
    kong = None if fold else _keeping_kong(view, legal, best.shanten)
    if kong is not None:
        return kong
    same = [a for a in discards if a.tile == best.tile]
    # 报听 (two-player) whenever the chosen tile allows it, as easy does — unless the style keeps
    # the hand free
    return max(same, key=lambda a: a.ready == style.declare)


def _paid_kong(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """Tianjin (§5, kongs paid when made): any kong on offer, the dearest first — four jokers
    (金杠, 4 from each player), a concealed kong (2), an exposed or added one (1). Each pays about
    what a plain win does, for certain, so it beats the little a kong may cost the hand's speed
    (2,000 duplicate hands: see docs/bots.md)."""
    kongs = [a for a in legal if a.type == "kong"]
    if not kongs:
        return None
    return max(kongs, key=lambda a: (a.kind == "concealed", a.tile in view.jokers))


@dataclass(frozen=True)
class Race:
    """What playing on after a passed discard win risks, per round of the table (see
    _holding_out): the chance an opponent's discard is one of this seat's waits (× the share of
    unseen tiles that are waits), and, × that opponent's readiness (defence.py), the chance they
    self-draw and the chance this seat's discard wins for them."""

    throw: float
    their_self_draw: float
    deal_in: float
    # what their self-draw costs this seat; None: about what this seat's win would bring
    loss_on_their_self_draw: float | None


# two-player: the opponent's self-draw costs 13 × 3 when their hand reaches the cap, as most do.
# Four seats: an opponent's ready hand holds ~6 of the ~70 unseen tiles, and the easy and normal
# bots (and most people) do not hold back a tile that is somebody's wait.
RACES = {
    2: Race(throw=0.5, their_self_draw=0.17, deal_in=0.08, loss_on_their_self_draw=39.0),
    4: Race(throw=0.7, their_self_draw=0.09, deal_in=0.09, loss_on_their_self_draw=None),
}


def _holding_out(view: PlayerView, legal: Sequence[Action], ts: list[Threat]) -> bool:
    """Pass the win on a discard when playing on — for a self-draw, paid by every other player,
    or a later discard win — is worth more than taking it now. Only where passing costs little:
    two-player locks nothing (RULES two_player §2); Shanghai (R2), yihua (Y2) and Cantonese
    (漏和) lock discard wins only until this seat's next draw. A finite race over this seat's
    remaining draws: per round p = its outs / unseen tiles, r = an opponent throwing a wait,
    q = an opponent self-drawing, d = this seat dealing in, o = an opponent winning on another's
    discard (the hand ends, this seat pays nothing). It fires where a self-draw pays far more
    than a discard win: Cantonese (its 自摸 fan doubles the three payments) and two-player (×3,
    `self_draw_multiplier`; the view carries no table options, so the default is assumed); in
    Shanghai and yihua a self-draw pays only three times one discarder's share, too little for
    the race against three opponents."""
    race = RACES.get(view.players)
    if race is None or not view.last_discard or not any(a.type == "win" for a in legal):
        return False
    seat, tile, kind = view.last_discard
    if kind != "discard":
        return False  # robbing a kong is scored as a self-draw already
    c13 = view.hand
    now = wait_payoff(view, c13, tile, from_seat=seat)
    if now <= 0:
        return False
    _, waits = improving(c13, len(view.melds), view.jokers, view.unseen)
    outs = sum(view.unseen[w] for w in waits)
    unseen = sum(view.unseen)
    if not outs or not unseen:
        return False
    self_draw = sum(view.unseen[w] * wait_payoff(view, c13, w) for w in waits) / outs
    p = outs / unseen
    readiness = [th.ready for th in ts] or [0.5]
    r = 1 - (1 - race.throw * p) ** len(readiness)
    q = 1 - math.prod(1 - race.their_self_draw * x for x in readiness)
    d = 1 - math.prod(1 - race.deal_in * x for x in readiness)
    o = 1 - math.prod(1 - (view.players - 2) * race.deal_in * x for x in readiness)
    loss = now if race.loss_on_their_self_draw is None else race.loss_on_their_self_draw
    gain = p * self_draw + (1 - p) * (-d * now + (1 - d) * (-q * loss + (1 - q) * r * now))
    keep = (1 - p) * (1 - d) * (1 - q) * (1 - r) * (1 - o)
    rounds = view.wall_left // view.players
    later = gain * (1 - keep**rounds) / (1 - keep)
    return later > now


def discard_options(
    view: PlayerView, hand: bytes, melds: tuple[Meld, ...], tiles: set[Tile], ts: list[Threat], style: Style
) -> list[Option]:
    c = bytearray(hand)
    out = []
    # a hand of nothing but jokers (two joker kinds left after a claim) must throw one
    spare = any(t not in view.jokers for t in tiles)
    for t in sorted(tiles):
        if t in view.jokers and spare:
            continue  # never throw a joker (小相公 forbids the win)
        c[t] -= 1
        option = _evaluate(view, bytes(c), melds, t, style)
        c[t] += 1
        if ts:
            option = Option(t, option.shanten, option.worth, option.multiplier, risk(view, t, ts))
        out.append(option)
    if style.look_ahead and out:
        out = _look_ahead(view, hand, melds, out)
    return out


def _look_ahead(view: PlayerView, hand: bytes, melds: tuple[Meld, ...], out: list[Option]) -> list[Option]:
    """strong: the fastest discards that tie on the best one-step worth are told apart by the
    shape two draws ahead (shape.two_step); the others keep ahead = 0. Only a tie-break: as the
    first criterion it finished fewer hands (scripts/bot_solitaire.py, docs/bots.md)."""
    fastest = min(o.shanten for o in out)
    if not 1 <= fastest <= LOOK_AHEAD_MAX:
        return out
    top = max(o.worth for o in out if o.shanten == fastest)
    c = bytearray(hand)
    looked = []
    for o in out:
        if o.shanten == fastest and o.worth == top and o.tile is not None:
            c[o.tile] -= 1
            o = replace(o, ahead=two_step(bytes(c), len(melds), view.jokers, view.unseen) * o.multiplier)
            c[o.tile] += 1
        looked.append(o)
    return looked


def _evaluate(view: PlayerView, c13: bytes, melds: tuple[Meld, ...], t: Tile | None, style: Style) -> Option:
    sh = distance(c13, len(melds), view.jokers)
    count, kinds = improving(c13, len(melds), view.jokers, view.unseen)
    mult = plan_multiplier(view.variant, c13, melds, style.plans, view.jokers)
    if sh == 0 and style.wait_odds:
        worth = ready_worth(view, c13, melds, kinds)
    elif sh == 0:
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
    # push: the fastest hand, the most worth (strong: ties by the shape two draws ahead); the
    # danger of the tile does not enter (discounting by it cost points: docs/bots.md)
    best = min(options, key=lambda o: (o.shanten, -o.worth))
    near = [o for o in options if o.shanten == best.shanten and o.ahead > 0]
    fastest = max(near, key=lambda o: (o.ahead, o.worth)) if near else best
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
            return max(richer, key=lambda o: o.worth)
    return fastest


def should_fold(view: PlayerView, options: list[Option], ts: list[Threat], style: Style) -> bool:
    """Fold when somebody is clearly close to a big hand and this hand is far from ready."""
    if not ts:
        return False
    return _threatened(view, min(o.shanten for o in options), ts, style)


def _threatened(view: PlayerView, shanten: int, ts: list[Threat], style: Style) -> bool:
    limit = FOLD_AT.get(min(shanten, 2))
    if not ts or limit is None:
        return False
    limit *= style.fold_scale
    if style.late:
        # a far hand with few draws left will hardly finish: the same threat weighs more
        draws = view.wall_left / view.players
        limit *= min(1.0, draws / LATE_DRAWS[min(shanten, 2)])
    return max(th.level for th in ts) >= limit


def _claim(view: PlayerView, legal: Sequence[Action], ts: list[Threat], style: Style) -> Action:
    melds = view.melds
    now = _evaluate(view, view.hand, melds, None, style)
    if _threatened(view, now.shanten, ts, style):
        return PASS  # folding: a claim would only open the hand and cost a safe tile
    best: tuple[tuple[int, float], Action] | None = None
    for a in legal:
        if a.type not in ("chi", "pong", "kong") or a.tile is None:
            continue
        c = after_claim(view.hand, a)
        new_melds = (*melds, claimed_meld(view, a))
        if a.type == "kong":
            after = _evaluate(view, c, new_melds, None, style)
        else:
            tiles = {t for t in range(KINDS) if c[t]}
            after = _pick(discard_options(view, c, new_melds, tiles, ts, style), False)
        keeping_kong = a.type == "kong" and style.kongs != "faster" and after.shanten <= now.shanten
        faster = after.shanten < now.shanten or keeping_kong
        keeps_value = after.multiplier >= 0.6 * now.multiplier
        richer = after.shanten <= now.shanten and after.multiplier >= 1.5 * now.multiplier
        if style.richer_waits and now.shanten == after.shanten == 0:
            richer = richer or after.worth > now.worth
        if after.shanten == 0 and after.worth <= 0:
            continue  # ready on waits that score nothing (or are all gone)
        if (faster and keeps_value) or richer:
            key = (after.shanten, -after.worth)
            if best is None or key < best[0]:
                best = (key, a)
    return best[1] if best else PASS


def claimed_meld(view: PlayerView, a: Action) -> Meld:
    """The meld a claim would lay down (for valuing the hand after it)."""
    assert a.tile is not None
    tiles = a.tiles if a.type == "chi" else (a.tile,) * (4 if a.type == "kong" else 3)
    discarder = view.last_discard[0] if view.last_discard else None
    return Meld(a.type, tuple(tiles), discarder, a.tile)
