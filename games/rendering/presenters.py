"""What one viewer sees of a table: the render context (docs/protocol.md §1) and `legal`.

Built per viewer from the table's rows and the replayed hand; never holds another seat's
concealed tiles (the engine's `view_for` guarantees that; the pause rule below hides
what a draw would tell early).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from common import caches, settings_store
from games.engine.record import ADMIN_CLOSED
from games.engine.rulesets import get_ruleset
from games.engine.tiles import WIND_ZH, name, seat_wind
from games.engine.view import view_for
from games.engine.wall import commitment, deal_wall, wall_text
from games.models import Hand, Seat, Table
from games.moderation.penalties import ban_length, escape_share
from games.rendering.heads import FrameHead, frame_head
from games.table import snapshots
from games.table.hand_log import hand_state
from games.table.holds import most_a_hand_costs
from games.table.loaded import Loaded
from games.table.play import wronged_by_leaving
from games.table.store import load, loaded_from
from games.table.timing import continue_left_ms, remaining_ms, veiled


def table_context(table: Table | int, user: AbstractBaseUser | None, shared: bool = False) -> dict[str, Any]:
    """The render context for `user` (None or anonymous: a spectator).

    With `shared` (the sockets) the loaded rows come from this process's snapshot of the table
    at its current version (`shared_load`); only the per-viewer part is computed here."""
    table_id = table.pk if isinstance(table, Table) else table
    return context_for(shared_load(table_id) if shared else consistent_load(table_id), user)


def snapshot_context(snapshot: snapshots.Snapshot, user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """The render context from a snapshot, with no database work; None when it cannot be."""
    ctx = loaded_from(snapshot)
    return context_for(ctx, user) if ctx is not None else None


def context_for(ctx: Loaded, user: AbstractBaseUser | None, head: FrameHead | None = None) -> dict[str, Any]:
    """`head`: this viewer's `frame_head` of `ctx` when already read (the sockets read it first)."""
    head = frame_head(ctx, user) if head is None else head
    played = head.seat if head.seat is not None else played_seat(ctx, user)
    return {
        "table": table_info(ctx, user, head),
        "view": hand_view(ctx, played),
        "legal": head.legal,
        "viewer": {"user": user.get_username() if _authenticated(user) else None, "seat": head.seat},
        "played": played,  # the seat whose hand this viewer sees as their own (also once it is freed)
        "revision": head.revision,  # the server's own ordering of renders; never sent
        "moved_on": head.moved_on,  # the end of a pause, nothing else new (games.sockets.news)
    }


def played_seat(ctx: Loaded, user: AbstractBaseUser | None) -> int | None:
    """The seat a player played in a hand an admin closed mid-play (which freed every seat): it
    was their own hand, and it ended with no tile opened, so they still see theirs face up, and
    only it. Anywhere else a freed seat is anybody's to take (a hand played to its end shows every
    hand anyway). The settlement names who played each seat (usernames are unique)."""
    hand = ctx.hand
    if hand is None or hand.status != Hand.Status.OVER or not _authenticated(user):
        return None
    if (hand.result or {}).get("by") != ADMIN_CLOSED:
        return None
    names = (hand.settlement or {}).get("names") or []
    username = user.get_username()
    return names.index(username) if username in names else None


def consistent_load(table_id: int, tries: int = 5) -> Loaded:
    """Load without locking, yet all of one version: every change bumps the version in its own
    transaction, so when the version did not move while we read, what we read belongs together
    (a render racing a change would otherwise label a newer hand with an older version)."""
    return _consistent_load(table_id, tries)[0]


def _consistent_load(table_id: int, tries: int = 5) -> tuple[Loaded, bool]:
    """`consistent_load` and whether the version held still (else the rows may be mixed)."""
    for _ in range(tries):
        table = Table.objects.select_related("owner").get(pk=table_id)
        ctx = load(table)
        if Table.objects.filter(pk=table_id).values_list("revision", flat=True).first() == table.revision:
            return ctx, True
    return ctx, False  # on a very busy table the next change renders again anyway


def shared_load(table_id: int) -> Loaded:
    """`consistent_load`, shared per (table, version) through this process's snapshot: one
    cheap query when the snapshot is at the current version (a change made here or announced
    with its snapshot, or another socket's load). Every change bumps the version, so a snapshot
    at the current version is what a fresh, consistent load would read; `now` is taken afresh
    (the countdown) and the spectator count, kept outside the version, from the query."""
    row = Table.objects.filter(pk=table_id).values_list("revision", "spectators", "created").first()
    if row is not None:
        version, spectators, created = row
        snapshot = snapshots.at(table_id, version, created)
        ctx = loaded_from(snapshot) if snapshot is not None else None
        if ctx is not None:
            ctx.spectators = spectators
            return ctx
    ctx, consistent = _consistent_load(table_id)
    if consistent:  # never share a load the version moved under
        states = {}
        hand = ctx.hand
        if hand is not None:
            states[(hand.pk, hand.actions_count)] = _state_at(ctx, hand.actions_count)
            if ctx.table.pause_until is not None and hand.actions_count > 0:
                before = hand.actions_count - 1
                states[(hand.pk, before)] = _state_at(ctx, before)
        snapshots.keep(snapshots.pack(ctx.table, ctx.seats, ctx.hand, states, fresh_balances=False), states)
    return ctx


def json_view(context: dict[str, Any]) -> dict[str, Any]:
    """The JSON protocol's `view`: the table, this viewer's hand view and the last result."""
    table = context["table"]
    return {
        "phase": table["phase"],
        "table": table,
        "hand": context["view"],
        "last_result": table["last_result"],
        "viewer": context["viewer"],
    }


def _authenticated(user: AbstractBaseUser | None) -> bool:
    return user is not None and user.is_authenticated


def phase_of(ctx: Loaded) -> str:
    if ctx.table.status == Table.Status.CLOSED:
        return "closed"
    if ctx.hand_running:
        return "playing"
    if ctx.hand_over and ctx.table.status == Table.Status.PLAYING:
        return "hand_over"
    return "waiting"


def table_info(ctx: Loaded, user: AbstractBaseUser | None, head: FrameHead) -> dict[str, Any]:
    """The table part of a frame: what every viewer sees at this version (built once per
    version, `_public_info`), the countdowns at this instant (`head`), and this viewer's own bits."""
    table = ctx.table
    me = ctx.seat_of(user)
    may_invite = me is not None or (_authenticated(user) and table.owner_id == user.pk)
    mine = me.index if me is not None else None
    pause_ms = head.pause_ms
    # A seat in a claim window sees its claim timer from the discard's frame on, the pause
    # included (its timer starts when the pause ends): no frame marks the pause's end.
    deadline = remaining_ms(ctx, mine)
    seconds = table.claim_seconds if ctx.state and ctx.state.phase == "claim" else table.turn_seconds
    limit = pause_ms + 1000 * seconds
    info = dict(_public_info(ctx))
    info["seats"] = [
        {**seat, "is_you": seat["index"] == mine, "pending": ctx.seats[seat["index"]].pending}
        if seat["index"] == mine
        else seat
        for seat in info["seats"]
    ]
    info["invite"] = table.invite_token if may_invite else None
    info["version"] = head.version
    info["deadline_ms"] = min(deadline, limit) if deadline is not None else None
    # Outside a claim window the pause lasts as long as the window: its end is not announced
    # (pause_ms None once the minimum has run), it is shown when play moves on.
    info["paused"] = head.paused
    info["pause_ms"] = pause_ms or None  # the board is shown again when it passes
    info["message"] = table.notices.get(str(user.pk)) if _authenticated(user) else None
    info["continue_ms"] = continue_left_ms(ctx, me)  # the settlement's countdown for Continue
    info["escape_stakes"] = escape_stakes(ctx, info, me)
    info["my_escape_penalty"] = info["escape_stakes"]["amount"] if info["escape_stakes"] else None
    return info


def escape_stakes(ctx: Loaded, info: dict[str, Any], me: Seat | None) -> dict[str, int] | None:
    """What leaving now would cost this viewer, stated beside the countdown and in the leave
    confirmation: {"amount": points, "ban_minutes": the ban that would follow}. None wherever
    leaving costs nothing: between hands, at a table whose other seats are all bots or have left,
    for a spectator (docs/operations.md "Stakes and escapes"). No query: renders may run on a
    socket's event loop (the ban was read when the hand started: Seat.ban_if_escaping)."""
    if me is None:
        return None
    wronged = wronged_by_leaving(ctx, me)
    due = info.get("escape_penalty")
    if not wronged or due is None:
        return None
    balance = info["seats"][me.index].get("balance")
    share = escape_share(due, len(wronged), most_a_hand_costs(ctx.table), balance)
    ban = me.ban_if_escaping or int(ban_length(1).total_seconds() // 60)
    return {"amount": share * len(wronged), "ban_minutes": ban}


# (table id, created, version, spectators) -> the part of `table_info` every viewer shares.
# Only for a snapshot's rows (always of one version); read, never changed.
_INFOS: dict[tuple[int, Any, int, int], dict[str, Any]] = caches.registered({})
_INFOS_LIMIT = 1000


def _public_info(ctx: Loaded) -> dict[str, Any]:
    table = ctx.table
    spectators = table.spectators if ctx.spectators is None else ctx.spectators
    key = (table.pk, table.created, table.revision, spectators)
    known = _INFOS.get(key) if ctx.states is not None else None
    if known is not None:
        return known
    rules = get_ruleset(table.variant)
    penalty = settings_store.escape_penalty_for_render(table)  # (each reads the site's settings)
    multiplier = settings_store.escape_multiplier_for_render(table)
    index_of = {s.user_id: s.index for s in ctx.seats if s.user_id}
    dealer = ctx.state.dealer if ctx.state is not None else table.dealer
    info = {
        "id": table.pk,
        "variant": table.variant,
        "variant_name_zh": rules.name_zh,
        "variant_name_en": rules.name_en,
        "name": f"{rules.name_zh} #{table.pk}",
        "base": table.base,
        "stake_state": table.stake_state,
        "stake_chooser": index_of.get(table.stake_chooser_id),
        "stake_setter": index_of.get(table.stake_setter_id),
        "owner": table.owner.get_username() if table.owner else None,
        "public": table.public,
        "invite": None,
        "status": table.status,
        "phase": phase_of(ctx),
        "version": table.version,
        "hand_number": ctx.hand.number if ctx.hand is not None else 0,
        "dealer": dealer,
        "round_wind": name(ctx.state.round_wind if ctx.state else table.round_wind),
        "round_hand": ctx.hand.round_hand if ctx.hand is not None else 1,  # 第 n 局 of the wind round
        "timers": {
            "turn": table.turn_seconds,
            "claim": table.claim_seconds,
            "min_pause_ms": table.min_pause_ms,
            "undo_ms": table.undo_ms,
            "grace": table.grace_seconds,
        },
        "deadline_ms": None,
        "paused": False,
        "pause_ms": None,
        "seats": [_seat_info(s, dealer, rules.players) for s in ctx.seats],
        "spectators": spectators,
        "message": None,
        "continue_ms": None,
        # the escape penalty while a hand runs (no query: this may render on a socket's event loop)
        "escape_penalty": penalty if ctx.hand_running else None,
        # what a joiner may want to know first: the multiplier that applies, and the house rules
        "escape_multiplier": multiplier,
        "escape_points": penalty if table.base else None,
        "options": {**(table.options or {}), "escape_penalty": multiplier},
        "last_result": last_result(ctx),
    }
    if ctx.states is not None:
        caches.put(_INFOS, key, info, _INFOS_LIMIT)
    return info


def _seat_info(seat: Any, dealer: int, players: int) -> dict[str, Any]:
    """A seat as everybody sees it (`table_info` marks the viewer's own: is_you, pending)."""
    wind = name(seat_wind(seat.index, dealer, players))
    balance = None
    if seat.user_id:
        profile = getattr(seat.user, "profile", None)
        balance = profile.balance if profile is not None else None
    label = seat.user.get_username() if seat.user_id else None
    if seat.is_bot:
        label = f"机器人 {seat.index + 1}"
    return {
        "index": seat.index,
        "wind": wind,
        "wind_zh": WIND_ZH[wind],
        "name": label,
        "is_bot": seat.is_bot,
        "bot_level": seat.bot_level if seat.is_bot else None,
        "is_you": False,
        "accepted": seat.accepted,
        "connected": seat.connected,
        "balance": balance,
        "continue": seat.continue_choice,
        "auto": bool(seat.user_id) and (seat.auto or seat.left or not seat.connected),
        "left": seat.left,
        "pending": None,
        "rank": seat.rank if seat.user_id else None,  # the tier (games.history.ranks)
    }


def last_result(ctx: Loaded) -> dict[str, Any] | None:
    hand = ctx.hand
    if hand is None or hand.status != Hand.Status.OVER:
        return None
    settlement = hand.settlement or {}
    # the hand's own base stake: the settlement line's arithmetic (the table's may change later)
    base = (hand.setup or {}).get("base")
    reveals = reveal(hand, ctx.table.variant)
    return {
        "hand": hand.number,
        "hand_id": hand.pk,
        "result": hand.result,
        "base": base,
        **settlement,
        "fairness": reveals,
    }


def reveal(hand: Hand, variant: str) -> dict[str, Any]:
    """After the hand (never before): the commitment shown from the deal on, and the salt and wall
    that open it (docs/fairness.md); a hand dealt before commitments has only its wall."""
    salt = hand.setup.get("salt")
    _, _, wall = deal_wall(get_ruleset(variant).wall_tiles(), hand.seed, salt)
    return {"commitment": commitment(salt, wall) if salt else None, "salt": salt, "wall": wall_text(wall)}


def hand_view(ctx: Loaded, seat: int | None) -> dict[str, Any] | None:
    """The engine's view for this viewer, with the pause rule applied (see docs/protocol.md)."""
    state, hand = ctx.state, ctx.hand
    if hand is None:
        return None
    if state is None:  # over: the final state, every hand opened
        state = _state_at(ctx, hand.actions_count)
    view = dict(_view(hand, hand.actions_count, state, seat))  # the top level is changed below
    view["seats"] = list(view["seats"])
    if seat is not None and ctx.seats[seat].pending is not None:
        view["my_move"] = False  # the claim is made, only held for its undo window
    if ctx.state is None and view["phase"] != "over":
        return _ended_early(view, hand)
    if ctx.state is None or not veiled(ctx, seat):
        return view  # (a seat in a claim window sees it, during the pause too: phase "claim")
    # The pause after a discard, and outside a claim window the window too: the board as the
    # discard left it, whether a window opened, was answered, or closed within the pause.
    count = hand.actions_count
    window = state if state.phase == "claim" else None
    if state.phase == "turn" and count > 0:
        before_state = _state_at(ctx, count - 1)
        before = _view(hand, count - 1, before_state, seat)
        if before_state.phase == "claim":  # the window closed within the pause: as it was open
            view, window = dict(before), before_state
        else:  # nobody could claim: the discard (or kong) and the next draw are one action
            view["seats"][state.turn] = before["seats"][state.turn]
            view["wall_left"] = before["wall_left"]
            if seat == state.turn:  # its waits help as before the draw (after, it names the tile)
                view.update({key: before.get(key, []) for key in ("waits", "discard_waits")})
    if window is not None and window.window is not None and window.window.kind == "rob":
        # An added kong that may be robbed looks like one that may not: as before it was declared
        # (the kong shows when play moves on), the last discard still the last one.
        view["last_discard"] = _discard_view(window.last_discard)
        if view["last_discard"] is None:
            del view["last_discard"]
    view["phase"] = "claim"
    view["turn"] = None
    view["my_move"] = False
    return view


def _ended_early(view: dict[str, Any], hand: Hand) -> dict[str, Any]:
    """A hand settled without a last action (an admin closed it: drawn, no payments): its log
    replays to the middle of play, so the view says it is over itself. Unlike a hand played to
    its end, no concealed hand is opened: each player keeps seeing only their own."""
    ended = {key: value for key, value in view.items() if key not in ("waits", "discard_waits")}
    ended.update(phase="over", turn=None, my_move=False, result=hand.result)
    return ended


def _discard_view(last: tuple[int, int] | None) -> dict[str, Any] | None:
    """A hand's last discard as the engine's view shows it (games.engine.view)."""
    return None if last is None else {"seat": last[0], "tile": name(last[1]), "kind": "discard"}


# (hand id, seed, actions applied, seat) -> the engine's view: the log is append-only, so the key
# fixes it (the seed too: SQLite may give a rolled-back hand's id again). A board is rendered for
# each viewer paused, then unpaused, and the state before a discard again for the pause: each
# view is computed once. Shared: read, never changed.
_VIEWS: dict[tuple[int, int, int, int | None], dict[str, Any]] = caches.registered({})
_VIEWS_LIMIT = 2000  # ~10 per busy table; each view is needed for about a second


def _view(hand: Hand, count: int, state: Any, seat: int | None) -> dict[str, Any]:
    key = (hand.pk, hand.seed, count, seat)
    view = _VIEWS.get(key)
    if view is None:
        public = None if seat is None else _view(hand, count, state, None)  # built once, shared
        view = caches.put(_VIEWS, key, view_for(state, seat, public), _VIEWS_LIMIT)
    return view


def _state_at(ctx: Loaded, count: int) -> Any:
    """The hand's state after its first `count` actions: the snapshot's, else a cached replay."""
    hand = ctx.hand
    assert hand is not None
    known = ctx.states.get((hand.pk, count)) if ctx.states else None
    if known is not None:
        return known
    variant = ctx.table.variant
    ghost = Hand(pk=hand.pk, seed=hand.seed, setup=hand.setup, actions_count=count)
    return hand_state(ghost, variant)
