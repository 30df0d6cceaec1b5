"""The hand machine: Action, legal_actions(state, seat), apply(state, seat, action).

A hand is its seed plus its ordered (seat, action) log: `new_hand` deals from
the seed, `apply` validates and applies one action (raising a typed
EngineError, state untouched, when it is not legal), `replay` rebuilds any
state. Draws, flower and kong replacements happen inside `apply`: players act,
the wall answers. Variant differences are hooks of the Ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.errors import EngineError, IllegalAction, NotYourTurn
from games.engine.rulesets import get_ruleset
from games.engine.rulesets.base import Ruleset
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.state import (
    ClaimWindow,
    HandResult,
    HandState,
    Meld,
    PlayerState,
    empty_claim_counts,
    evolve,
    memo,
)
from games.engine.tiles import (
    EAST,
    KINDS,
    Tile,
    counts_of,
    format_tiles,
    is_flower,
    name,
    parse,
    tile,
    tiles_of,
)
from games.engine.wall import chance_seed, commitment, deal_wall

ACTION_TYPES = (
    "discard",  # tile; ready=True also declares 报听 (two_player)
    "chi",  # tile (the claimed one), tiles (the run, sorted)
    "pong",  # tile
    "kong",  # tile, kind: exposed | added | concealed
    "win",  # self-draw, on a discard, or robbing a kong, as the phase says
    "pass",  # decline the claim options
    "choose",  # pre-hand choice: kind ('zuozhuang' | 'lazhuang'), value (int)
    "exchange",  # pre-hand 开局换牌 (two_player option): tiles = the tiles returned (any subset)
    "cuopai",  # 搓牌 (two_player option): swap the drawn tile for `tile` from the wall
    "swap",  # 游戏中换牌 (two_player option): take the offered pung of `tile`, giving `tiles` (three)
)


@dataclass(frozen=True, order=True)
class Action:
    type: str
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    kind: str = ""
    value: int = 0
    ready: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            out["tile"] = name(self.tile)
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        if self.kind:
            out["kind"] = self.kind
        if self.type == "choose":
            out["value"] = self.value
        if self.ready:
            out["ready"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse a client's action object; EngineError('bad_action') if malformed."""
        if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
            raise EngineError(
                "bad_action", f"an action is an object with 'type' one of {', '.join(ACTION_TYPES)}"
            )
        unknown = set(data) - {"type", "tile", "tiles", "kind", "value", "ready"}
        if unknown:
            raise EngineError("bad_action", f"unknown action keys: {', '.join(sorted(unknown))}")
        try:
            t = tile(data["tile"]) if data.get("tile") is not None else None
            ts = tuple(parse(data["tiles"])) if data.get("tiles") else ()
        except EngineError as e:
            raise EngineError("bad_action", e.message) from None
        kind = data.get("kind", "")
        value = data.get("value", 0)
        ready = data.get("ready", False)
        if not isinstance(kind, str) or len(kind) > 20:
            raise EngineError("bad_action", "'kind' must be a short string")
        if isinstance(value, bool) or not isinstance(value, int) or not -10 <= value <= 10:
            raise EngineError("bad_action", "'value' must be a small whole number")
        if not isinstance(ready, bool):
            raise EngineError("bad_action", "'ready' must be true or false")
        return cls(type=data["type"], tile=t, tiles=ts, kind=kind, value=value, ready=ready)


# ---------------------------------------------------------------------------
# The hand machine.

Event = dict[str, Any]
PASS = Action("pass")
DISCARDS = tuple(Action("discard", t) for t in range(KINDS))  # shared: actions are immutable


def new_hand(
    variant: str,
    seed: int,
    dealer: int = 0,
    round_wind: Tile = EAST,
    base: int = 1,
    options: dict[str, Any] | None = None,
    counters: dict[str, int] | None = None,
    salt: str | None = None,
) -> HandState:
    """Deal a hand: shuffle the seeded wall, roll the dice, deal 13 each, lay
    flowers open (dealer first), let the ruleset set up, then the dealer draws
    (or the pre-hand choices come first).

    With a `salt` (docs/fairness.md) every chance comes from the salt instead of `seed`, and
    the state carries the commitment sha256(salt:wall) to the wall in dealing order."""
    rules = get_ruleset(variant)
    n = rules.players
    if not 0 <= dealer < n:
        raise EngineError("bad_input", f"dealer must be a seat 0–{n - 1}")
    rng, dice, wall = deal_wall(rules.wall_tiles(), seed, salt)
    if salt is not None:
        seed = chance_seed(salt)
    merged = dict(rules.default_options)
    merged.update(rules.check_options(options))  # the declared ranges (rulesets/options.py)
    players = []
    for seat in range(n):
        start = (seat - dealer) % n * 13
        dealt = wall[start : start + 13]
        players.append(
            PlayerState(
                concealed=counts_of(t for t in dealt if not is_flower(t)),
                flowers=tuple(t for t in dealt if is_flower(t)),
            )
        )
    head = 13 * n
    state = HandState(
        variant=variant,
        seed=seed,
        num_players=n,
        dealer=dealer,
        round_wind=round_wind,
        base=base,
        options=tuple(sorted(merged.items())),
        wall=wall,
        head=head,
        tail=len(wall),
        dice=dice,
        players=tuple(players),
        phase="turn",
        turn=dealer,
        counters=tuple(sorted((counters or {}).items())),
        claim_counts=empty_claim_counts(n),
        commitment=commitment(salt, wall) if salt is not None else "",
    )
    for i in range(n):  # 补花 at the deal: the dealer first, then in seat order
        state = _replace_flowers(rules, state, (dealer + i) % n)
        if state.phase == "over":
            return state
    state = rules.setup(state, rng)
    if any(rules.choice_actions(state, s) for s in range(n)):
        if rules.dealer_draws_before_choices:
            state = draw_tile(rules, state, dealer, start="deal")
        return evolve(state, phase="choose")
    return draw_tile(rules, state, dealer, start="deal")


def replay(
    variant: str, seed: int, actions: list[tuple[int, Action]], **setup: Any
) -> tuple[HandState, list[Event]]:
    """Rebuild a hand from its seed and ordered (seat, action) log."""
    state = new_hand(variant, seed, **setup)
    events: list[Event] = []
    for seat, action in actions:
        state, ev = apply(state, seat, action)
        events.extend(ev)
    return state, events


# -- drawing -------------------------------------------------------------------


def _replace_flowers(rules: Ruleset, state: HandState, seat: int) -> HandState:
    """补花 at the deal: one replacement from the back per flower dealt (chains included)."""
    dealt = len(state.players[seat].flowers)
    if not rules.has_flowers or not dealt:
        return state
    for _ in range(dealt):
        state, t = take_tile(rules, state, seat, from_back=True)
        if t is None or state.phase == "over":
            return state
    state = state.with_player(seat, drawn=None, draw_count=0)
    return rules.on_flowers(state, seat)


def take_tile(
    rules: Ruleset, state: HandState, seat: int, from_back: bool, reserve: int | None = None
) -> tuple[HandState, Tile | None]:
    """Take one tile from the wall into `seat`'s hand, replacing flowers; None if the wall is empty."""
    flowers: list[Tile] = []
    floor = rules.reserve(state) if reserve is None else reserve
    while True:
        if state.wall_left <= floor:
            return state, None
        if from_back:
            t = state.wall[state.tail - 1]
            state = evolve(state, tail=state.tail - 1)
        else:
            t = state.wall[state.head]
            state = evolve(state, head=state.head + 1)
        if rules.has_flowers and is_flower(t):
            flowers.append(t)
            from_back = True
            p = state.players[seat]
            state = state.with_player(seat, flowers=(*p.flowers, t))
            continue
        p = state.players[seat]
        c = bytearray(p.concealed)
        c[t] += 1
        state = state.with_player(seat, concealed=bytes(c), drawn=t, draw_count=p.draw_count + 1)
        if flowers:
            state = rules.on_flowers(state, seat)
        return state, t


def draw_tile(
    rules: Ruleset, state: HandState, seat: int, start: str = "draw", from_back: bool = False
) -> HandState:
    """`seat` draws and takes the turn; an empty wall ends the hand drawn.

    When only a reserve is left (two_player 海底捞月), the ruleset may name one
    seat that draws one reserve tile, out of turn; otherwise the hand is drawn.
    """
    reserve: int | None = None
    if not from_back and 0 < state.wall_left <= rules.reserve(state):
        drawer = None if state.reserve_drawn else rules.reserve_drawer(state)
        if drawer is None:
            return end_hand(rules, state, HandResult())
        seat, reserve, state = drawer, 0, evolve(state, reserve_drawn=True)
    floor = rules.reserve(state) if reserve is None else reserve
    head, tail, wall = state.head, state.tail, state.wall
    flowers: list[Tile] = []
    while True:  # 补花: a flower is laid open and replaced from the back (RULES §1.10)
        if tail - head <= floor:
            p = state.players[seat]
            state = _with(state, seat, {"flowers": p.flowers + tuple(flowers)}, head=head, tail=tail)
            return end_hand(rules, state, HandResult())
        if from_back:
            tail -= 1
            t = wall[tail]
        else:
            t = wall[head]
            head += 1
        if rules.has_flowers and is_flower(t):
            flowers.append(t)
            from_back = True
            continue
        break
    p = state.players[seat]
    c = bytearray(p.concealed)
    c[t] += 1
    if flowers and start != "kong_replacement":
        start = "flower_replacement"
    # one copy of the state per draw: the tile, the flowers, and the end of the locks that
    # last "until the player next draws"
    changes: dict[str, Any] = {
        "concealed": bytes(c),
        "drawn": t,
        "draw_count": p.draw_count + 1,
        "win_lock": False,
        "passed_win_tiles": frozenset(),
        "passed_win_value": 0,
        "passed_win_fan": 0,
        "discarded_since_draw": frozenset(),
        "forbidden": frozenset(),
    }
    if flowers:
        changes["flowers"] = p.flowers + tuple(flowers)
    state = _with(
        state, seat, changes, head=head, tail=tail, phase="turn", turn=seat, turn_start=start, window=None
    )
    return rules.on_flowers(state, seat) if flowers else state


def _with(state: HandState, seat: int, player_changes: dict[str, Any], **state_changes: Any) -> HandState:
    """One copy of the state with one player's and the hand's fields changed together."""
    players = list(state.players)
    players[seat] = evolve(players[seat], **player_changes)
    return evolve(state, players=tuple(players), **state_changes)


# -- legal actions -----------------------------------------------------------


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action `seat` may take now (restrictions applied), in a stable order."""
    cache = memo(state)
    key = ("legal", seat)
    if key not in cache:
        cache[key] = tuple(_legal_actions(state, seat))
    return list(cache[key])


def _legal_actions(state: HandState, seat: int) -> list[Action]:
    rules = get_ruleset(state.variant)
    if state.phase == "over" or not 0 <= seat < state.num_players:
        return []
    if state.phase == "choose":
        return rules.choice_actions(state, seat)
    if state.phase == "claim":
        w = state.window
        assert w is not None
        if not w.options[seat] or w.answers[seat] is not None:
            return []
        return [*w.options[seat], PASS]
    if seat != state.turn:
        return []
    out = []
    for a in _turn_candidates(rules, state, seat):
        if a.type == "win":
            if _self_draw_score(rules, state, seat).win:
                out.append(a)
        elif rules.restriction(state, seat, a) is None:
            out.append(a)
    return out + rules.extra_turn_actions(state, seat)


def _turn_candidates(rules: Ruleset, state: HandState, seat: int) -> list[Action]:
    p = state.players[seat]
    out: list[Action] = []
    drew = state.turn_start != "claim"
    if drew and rules.is_winning_shape(state, seat, p.concealed):
        out.append(Action("win"))
    if p.ready:
        if p.drawn is not None:
            out.append(Action("discard", p.drawn))
        return out
    can_kong = (drew or rules.kong_after_claim) and state.wall_left > rules.reserve(state)
    if can_kong:
        if b"\x04" in p.concealed:
            out.extend(Action("kong", t, kind="concealed") for t, c in enumerate(p.concealed) if c == 4)
        for m in p.melds:
            if m.kind == "pong" and p.concealed[m.tile]:
                out.append(Action("kong", m.tile, kind="added"))
    for t, c in enumerate(p.concealed):
        if c:
            out.append(DISCARDS[t])
            if rules.has_ready and _ready_after_discard(rules, state, seat, t):
                out.append(Action("discard", t, ready=True))
    return out


def _ready_after_discard(rules: Ruleset, state: HandState, seat: int, t: Tile) -> bool:
    c = bytearray(state.players[seat].concealed)
    c[t] -= 1
    return rules.is_ready_hand(state, seat, bytes(c))


def claim_options(rules: Ruleset, state: HandState, seat: int, discarder: int, t: Tile) -> tuple[Action, ...]:
    """What `seat` may do with `discarder`'s discard t (restrictions applied)."""
    p = state.players[seat]
    c = p.concealed
    out: list[Action] = []
    if rules.win_on_discard:
        with_t = bytearray(c)
        with_t[t] += 1
        if rules.is_winning_shape(state, seat, bytes(with_t)):
            score = rules.win_check(state, seat, win_context(state, seat, t, "discard", discarder))
            if score.win:
                out.append(Action("win", t))
    if state.wall_left > rules.reserve(state):
        if c[t] >= 3:
            out.append(Action("kong", t, kind="exposed"))
        if c[t] >= 2:
            out.append(Action("pong", t))
        if rules.has_chi and seat == (discarder + 1) % state.num_players and t < 27:
            r = t % 9
            for lo in (t - 2, t - 1, t):
                if lo < t - r or lo + 2 > t - r + 8:
                    continue
                run = (lo, lo + 1, lo + 2)
                if all(c[x] for x in run if x != t):
                    out.append(Action("chi", t, tiles=run))
    return tuple(a for a in out if a.type == "win" or rules.restriction(state, seat, a) is None)


# -- scoring contexts --------------------------------------------------------


def win_context(
    state: HandState,
    seat: int,
    win_tile: Tile,
    by: str,
    from_seat: int | None = None,
    triple: bool = False,
    multi: bool = False,
) -> WinContext:
    """The WinContext of a possible win by `seat` now (the score CLI's fields, from the state)."""
    p = state.players[seat]
    concealed = bytearray(p.concealed)
    if by == "self_draw":
        concealed[win_tile] -= 1
    claims = tuple(
        (a, b, state.claim_counts[a][b])
        for a in range(state.num_players)
        for b in range(state.num_players)
        if state.claim_counts[a][b]
    )
    liability = next(((k, s) for k, s, ben in state.liabilities if ben == seat), None)
    # 天和/地和/人和 need an uninterrupted first go-round: any meld (a concealed kong too) ends it
    no_claims_yet = not any(pl.melds for pl in state.players)
    return WinContext(
        variant=state.variant,
        concealed=tuple(tiles_of(concealed)),
        win_tile=win_tile,
        seat=seat,
        dealer=state.dealer,
        players=state.num_players,
        melds=p.melds,
        flowers=p.flowers,
        by=by,
        from_seat=from_seat,
        after_kong=by == "self_draw" and state.turn_start == "kong_replacement",
        after_flower=by == "self_draw" and state.turn_start == "flower_replacement",
        kong_from=state.last_kong_from if state.turn_start == "kong_replacement" else None,
        triple_win=triple,
        # 海底: the wall (short of a reserve) is spent; scoring decides what that is worth
        last_tile=by != "robbing_kong" and state.wall_left <= get_ruleset(state.variant).reserve(state),
        first_turn=p.discard_count == 0 and no_claims_yet,
        round_wind=state.round_wind,
        base=state.base,
        jokers=state.jokers,
        claims=claims,
        huangfan=state.huangfan,
        zuozhuang=bool(state.choice("zuozhuang", False)),
        lazhuang=tuple(state.choice("lazhuang", ()) or ()),
        discarded_joker=p.discarded_joker,
        liability=liability,
        fourth_tile=_visible(state, win_tile) - (1 if by == "discard" else 0) >= 3,
        multi_win=multi,
        options=dict(state.options),
    )


def _visible(state: HandState, t: Tile) -> int:
    """Tiles of kind t lying face up: river tiles not claimed, and exposed melds."""
    n = 0
    for p in state.players:
        n += sum(1 for i, d in enumerate(p.discards) if d == t and i not in p.claimed_discards)
        n += sum(m.tiles.count(t) for m in p.melds if m.kind != "concealed_kong")
    return n


def _self_draw_score(rules: Ruleset, state: HandState, seat: int) -> ScoreResult:
    p = state.players[seat]
    t = p.drawn if p.drawn is not None else max(tiles_of(p.concealed))
    return rules.win_check(state, seat, win_context(state, seat, t, "self_draw"))


# -- apply ---------------------------------------------------------------------


def apply(
    state: HandState, seat: int, action: Action, expected_step: int | None = None
) -> tuple[HandState, list[Event]]:
    """Apply `seat`'s action; return the new state and public events, or raise EngineError."""
    if expected_step is not None and expected_step != state.step:
        raise EngineError("stale_version", f"the hand is at step {state.step}, not {expected_step}")
    if state.phase == "over":
        raise EngineError("hand_over", "the hand is over")
    if not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise EngineError("bad_seat", f"no seat {seat!r}")
    rules = get_ruleset(state.variant)
    legal = legal_actions(state, seat)
    open_ended = (state.phase == "choose" and rules.accepts_choice(state, seat, action)) or (
        state.phase == "turn" and seat == state.turn and rules.accepts_turn_extra(state, seat, action)
    )
    if action not in legal and not open_ended:
        _refuse(rules, state, seat, action, legal)
        if action.type == "win":  # a false win the variant penalises instead of refusing (Y4)
            penalised = rules.on_false_win(state, seat)
            if penalised is None:
                raise IllegalAction("illegal_action", "that win is not allowed")
            return _stepped(penalised), [{"type": "false_win", "seat": seat}]
    events: list[Event] = []
    if state.phase == "choose":
        state = rules.apply_choice(state, seat, action)
        events.append({"type": "choose", "seat": seat, **action.to_json()})
        if not any(rules.choice_actions(state, s) for s in range(state.num_players)):
            if rules.dealer_draws_before_choices:  # the dealer holds 14 already: play begins
                state = evolve(state, phase="turn", turn=state.dealer, turn_start="deal")
            else:
                state = draw_tile(rules, state, state.dealer, start="deal")
    elif state.phase == "claim":
        state, events = _answer(rules, state, seat, action)
    elif action.type == "discard":
        state, events = _discard(rules, state, seat, action)
    elif action.type == "kong":
        state, events = _own_kong(rules, state, seat, action)
    elif action.type not in ("win", "pass"):  # a variant's own turn action (搓牌)
        state = rules.apply_turn_extra(state, seat, action)
        events = [{"type": action.type, "seat": seat}]
    elif action.type == "win":
        p = state.players[seat]
        t = p.drawn if p.drawn is not None else max(tiles_of(p.concealed))
        score = _self_draw_score(rules, state, seat)
        state = end_hand(
            rules, state, HandResult(winners=(seat,), by="self_draw", win_tile=t, scores=(score,))
        )
        events.append({"type": "win", "seat": seat, "by": "self_draw", "tile": name(t)})
    else:  # pragma: no cover - legal_actions never offers anything else here
        raise IllegalAction("illegal_action", f"cannot {action.type} now")
    return _stepped(state), events


def _stepped(state: HandState) -> HandState:
    return evolve(state, step=state.step + 1)


def _refuse(rules: Ruleset, state: HandState, seat: int, action: Action, legal: list[Action]) -> None:
    """Raise the most specific error for an action that is not legal (a false win the
    variant penalises instead, yihua Y4, is let through to `on_false_win`)."""
    if action.type == "win":
        reason = refused_win_reason(rules, state, seat)
        if reason and rules.on_false_win(state, seat) is None:
            raise IllegalAction(reason, f"that win is not allowed ({reason})")
        # a seat that may not win declares one anyway: a false win where the variant
        # penalises it (yihua Y4), even from a seat with nothing to answer in the window
        in_window = state.window is not None and seat != state.window.seat
        if legal or (in_window and rules.on_false_win(state, seat) is not None):
            return
    if not legal:
        raise NotYourTurn()
    if state.phase == "turn":
        if action in _turn_candidates(rules, state, seat):
            code = rules.restriction(state, seat, action) or "illegal_action"
            raise IllegalAction(code, f"{action.type} is not allowed now ({code})")
    elif state.phase == "claim" and state.window is not None:
        raw = claim_options(Unrestricted(rules), state, seat, state.window.seat, state.window.tile)
        if action in raw:
            code = rules.restriction(state, seat, action) or "illegal_action"
            raise IllegalAction(code, f"{action.type} is not allowed now ({code})")
    raise IllegalAction("illegal_action", f"{action.type} is not one of your legal actions now")


def refused_win_reason(rules: Ruleset, state: HandState, seat: int) -> str | None:
    """Why a win the shape allows is refused (a lock, a minimum…), if it is one."""
    p = state.players[seat]
    if state.phase == "turn" and seat == state.turn:
        if Action("win") in _turn_candidates(rules, state, seat):
            return _self_draw_score(rules, state, seat).reason or "illegal_action"
    elif state.phase == "claim" and state.window is not None and rules.win_on_discard:
        w = state.window
        with_t = bytearray(p.concealed)
        with_t[w.tile] += 1
        if rules.is_winning_shape(state, seat, bytes(with_t)):
            by = "discard" if w.kind == "discard" else "robbing_kong"
            return rules.win_check(state, seat, win_context(state, seat, w.tile, by, w.seat)).reason or None
    return None


class Unrestricted:
    """A view of a ruleset with its restrictions lifted (to tell 'restricted' from 'impossible')."""

    def __init__(self, rules: Ruleset) -> None:
        self._rules = rules

    def restriction(self, *args: Any) -> None:
        return None

    def __getattr__(self, item: str) -> Any:
        return getattr(self._rules, item)


def _discard(rules: Ruleset, state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    t = action.tile
    assert t is not None
    p = state.players[seat]
    c = bytearray(p.concealed)
    c[t] -= 1
    first = state.first_discards
    if len(first) < state.num_players and not _discard_claimed(state):
        first = (*first, t)
    ready_order = (*state.ready_order, seat) if action.ready and not p.ready else state.ready_order
    state = _with(
        state,
        seat,
        {
            "concealed": bytes(c),
            "drawn": None,
            "discards": (*p.discards, t),
            "discard_count": p.discard_count + 1,
            "pong_lock": frozenset(),
            "forbidden": frozenset(),
            "discarded_since_draw": p.discarded_since_draw | {t},
            "discarded_joker": p.discarded_joker or t in state.jokers,
            "ready": p.ready or action.ready,
        },
        first_discards=first,
        last_kong_from=None,
        last_discard=(seat, t),
        ready_order=ready_order,
    )
    events: list[Event] = [{"type": "discard", "seat": seat, "tile": name(t), "ready": action.ready}]
    return _open_window(rules, state, "discard", seat, t), events


def _discard_claimed(state: HandState) -> bool:
    """Has anyone claimed a discard this hand? (铲 counts the go-round of discards: the seed's
    "三个闲家跟打庄家打出的牌". A claim interrupts it; a concealed kong takes nobody's tile, and an
    added kong was a pong first.)"""
    return any(m.kind != "concealed_kong" for pl in state.players for m in pl.melds)


def _open_window(rules: Ruleset, state: HandState, kind: str, seat: int, t: Tile) -> HandState:
    n = state.num_players
    if kind == "discard":
        options = tuple(() if s == seat else claim_options(rules, state, s, seat, t) for s in range(n))
    else:
        options = tuple(() if s == seat else _rob_options(rules, state, s, seat, t) for s in range(n))
    if not any(options):  # nobody can claim: play moves straight on
        if kind == "discard":
            return draw_tile(rules, state, (seat + 1) % n)
        return _complete_added_kong(rules, state, seat, t)
    window = ClaimWindow(kind=kind, seat=seat, tile=t, options=options, answers=(None,) * n)
    return evolve(state, phase="claim", window=window)


def _rob_options(rules: Ruleset, state: HandState, seat: int, konger: int, t: Tile) -> tuple[Action, ...]:
    if "added_kong" not in rules.robbable_kongs or not rules.win_on_discard:
        return ()
    with_t = bytearray(state.players[seat].concealed)
    with_t[t] += 1
    if not rules.is_winning_shape(state, seat, bytes(with_t)):
        return ()
    score = rules.win_check(state, seat, win_context(state, seat, t, "robbing_kong", konger))
    return (Action("win", t),) if score.win else ()


def _answer(rules: Ruleset, state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    w = state.window
    assert w is not None
    answers = list(w.answers)
    answers[seat] = action
    state = evolve(state, window=evolve(w, answers=tuple(answers)))
    return _maybe_resolve(rules, state), [{"type": "answered", "seat": seat}]


def _maybe_resolve(rules: Ruleset, state: HandState) -> HandState:
    """Once everyone with an option has answered, apply the highest claim(s) (RULES §1.9)."""
    w = state.window
    assert w is not None
    if w.waiting_for():
        return state
    n = state.num_players
    order = [(w.seat + k) % n for k in range(1, n)]  # next > opposite > previous
    state = _lock_passers(rules, state, w)
    winners = [s for s in order if w.answers[s] is not None and w.answers[s].type == "win"]
    if winners:
        if not rules.multiple_winners:
            winners = winners[:1]
        by = "discard" if w.kind == "discard" else "robbing_kong"
        triple = len(winners) == 3
        scores = tuple(
            rules.win_check(
                state, s, win_context(state, s, w.tile, by, w.seat, triple=triple, multi=len(winners) > 1)
            )
            for s in winners
        )
        result = HandResult(winners=tuple(winners), by=by, from_seat=w.seat, win_tile=w.tile, scores=scores)
        return end_hand(rules, evolve(state, window=None), result)
    if w.kind == "rob":
        return _complete_added_kong(rules, evolve(state, window=None), w.seat, w.tile)
    for level in (("kong", "pong"), ("chi",)):
        claimers = [s for s in order if w.answers[s] is not None and w.answers[s].type in level]
        if claimers:
            return _claim(rules, evolve(state, window=None), claimers[0], w.answers[claimers[0]], w)
    return draw_tile(rules, evolve(state, window=None), (w.seat + 1) % n)


def _lock_passers(rules: Ruleset, state: HandState, w: ClaimWindow) -> HandState:
    """Remember passed wins and pongs: the variants' locks (R1, R2, Y2, 漏和) read these.

    Only a passed *discard* locks: every seed words its lock on a tile another player threw
    (shanghai "假如A打了一个牌,B…没选择胡", yihua "打出一張…可以胡的牌而…放棄不胡"). A kong one
    lets stand is no discard, so passing a chance to rob it locks nothing."""
    if w.kind != "discard":
        return state
    for s, opts in enumerate(w.options):
        answer = w.answers[s]
        if not opts or answer is None:
            continue
        p = state.players[s]
        if any(o.type == "win" for o in opts) and answer.type != "win":
            passed = rules.win_check(state, s, win_context(state, s, w.tile, "discard", w.seat))
            state = state.with_player(
                s,
                win_lock=True,
                passed_win_tiles=p.passed_win_tiles | {w.tile},
                passed_win_value=max(p.passed_win_value, passed.value),
                passed_win_fan=max(p.passed_win_fan, rules.fan_of(passed)),
            )
            p = state.players[s]
        if any(o.type == "pong" for o in opts) and answer.type not in ("pong", "kong"):
            state = state.with_player(s, pong_lock=p.pong_lock | {w.tile})
    return state


def _claim(rules: Ruleset, state: HandState, seat: int, action: Action, w: ClaimWindow) -> HandState:
    t = w.tile
    p = state.players[seat]
    c = bytearray(p.concealed)
    if action.type == "chi":
        used = [x for x in action.tiles if x != t]
        for x in used:
            c[x] -= 1
        meld = Meld("chi", action.tiles, w.seat, t)
    elif action.type == "pong":
        c[t] -= 2
        meld = Meld("pong", (t, t, t), w.seat, t)
    else:
        c[t] -= 3
        meld = Meld("kong", (t, t, t, t), w.seat, t)
    discarder = state.players[w.seat]
    state = state.with_player(
        w.seat, claimed_discards=discarder.claimed_discards | {len(discarder.discards) - 1}
    )
    counts = [list(row) for row in state.claim_counts]
    counts[seat][w.seat] += 1
    forbidden: frozenset[Tile] = frozenset()
    if action.type == "chi":
        forbidden = forbidden_after_chi(action.tiles, t)
    state = evolve(state, claim_counts=tuple(tuple(r) for r in counts), last_discard=None)
    state = state.with_player(
        seat,
        concealed=bytes(c),
        melds=(*p.melds, meld),
        drawn=None,
        win_lock=False,
        passed_win_tiles=frozenset(),
        passed_win_value=0,
        passed_win_fan=0,
        forbidden=forbidden,
        concealed_at_chi=p.hand_size if action.type == "chi" else p.concealed_at_chi,
    )
    state = rules.on_claim(state, seat, meld)
    if meld.kind == "kong":
        state = evolve(state, last_kong_from=w.seat)
        state = rules.on_kong(state, seat, "exposed")
        return draw_tile(rules, state, seat, start="kong_replacement", from_back=True)
    return evolve(state, phase="turn", turn=seat, turn_start="claim", window=None)


def forbidden_after_chi(run: tuple[Tile, ...], t: Tile) -> frozenset[Tile]:
    """R3 / Y3: right after chi of t with a, b from hand: not t, nor the tile
    d ≠ t that would make {a, b, d} a run (so only t when a, b are not adjacent)."""
    a, b = sorted(x for x in run if x != t)
    out = {t}
    if b - a == 1:
        for d in (a - 1, b + 1):
            if d != t and d >= 0 and d // 9 == a // 9:
                out.add(d)
    return frozenset(out)


def _own_kong(rules: Ruleset, state: HandState, seat: int, action: Action) -> tuple[HandState, list[Event]]:
    t = action.tile
    assert t is not None
    p = state.players[seat]
    events: list[Event] = [
        {
            "type": "kong",
            "seat": seat,
            "kind": action.kind,
            "tile": name(t) if action.kind != "concealed" else None,
        }
    ]
    if action.kind == "added":
        state = evolve(state, last_kong_from=None)
        return _open_window(rules, state, "rob", seat, t), events
    c = bytearray(p.concealed)
    c[t] -= 4
    state = state.with_player(
        seat, concealed=bytes(c), drawn=None, melds=(*p.melds, Meld("concealed_kong", (t,) * 4))
    )
    state = rules.on_kong(evolve(state, last_kong_from=None), seat, "concealed")
    return draw_tile(rules, state, seat, start="kong_replacement", from_back=True), events


def _complete_added_kong(rules: Ruleset, state: HandState, seat: int, t: Tile) -> HandState:
    p = state.players[seat]
    c = bytearray(p.concealed)
    c[t] -= 1
    melds = tuple(
        Meld("added_kong", (t,) * 4, m.from_seat, m.claimed) if m.kind == "pong" and m.tile == t else m
        for m in p.melds
    )
    state = state.with_player(seat, concealed=bytes(c), drawn=None, melds=melds)
    state = rules.on_kong(state, seat, "added")
    return draw_tile(rules, state, seat, start="kong_replacement", from_back=True)


def end_hand(rules: Ruleset, state: HandState, result: HandResult) -> HandState:
    """Close the hand: sum the payments, add extras (kongs, penalties, 铲), pick the next dealer."""
    n = state.num_players
    extras = list(result.extras)
    for i, pay in enumerate(state.kong_payments):
        extras.append((f"kong_{i}", pay))
    for reason, _seat, pay in state.penalties:
        extras.append((reason, pay))
    result = evolve(result, extras=tuple(extras))
    result = rules.finish(state, result)
    total = [0] * n
    for s in result.scores:
        for i, v in enumerate(s.payments):
            total[i] += v
    for _reason, pay in result.extras:
        for i, v in enumerate(pay):
            total[i] += v
    result = evolve(result, payments=tuple(total))
    result = evolve(result, next_dealer=rules.next_dealer(state, result))
    return evolve(state, phase="over", result=result, window=None)


# -- helpers for servers and bots ------------------------------------------------


def auto_action(state: HandState, seat: int) -> Action | None:
    """What the server does for a seat on timeout or 托管 (RULES §1.7): win if
    possible, pass on claims, else discard the drawn tile (or the rightmost)."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    for a in legal:
        if a.type == "win":
            return a
    if state.phase == "claim":
        return PASS
    if state.phase == "choose":
        return legal[0]
    p = state.players[seat]
    discards = [a for a in legal if a.type == "discard" and not a.ready]
    if p.drawn is not None and Action("discard", p.drawn) in discards:
        return Action("discard", p.drawn)
    if discards:
        return max(discards, key=lambda a: a.tile if a.tile is not None else -1)
    return legal[0]


def seats_to_act(state: HandState) -> list[int]:
    """Seats the hand is waiting for now."""
    if state.phase == "over":
        return []
    if state.phase == "claim" and state.window is not None:
        return state.window.waiting_for()
    if state.phase == "choose":
        rules = get_ruleset(state.variant)
        return [s for s in range(state.num_players) if rules.choice_actions(state, s)]
    return [state.turn]
