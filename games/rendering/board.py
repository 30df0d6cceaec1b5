"""`board_model(context)`: everything the board templates draw, arranged around this viewer's seat
(seats, melds, rivers, the hand with its discards and waits)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.rulesets import get_ruleset
from games.engine.tiles import WIND_EN, WIND_ZH
from games.rendering.actions import TABLE_ACTIONS, action_json, hand_prompts, ready_discards, table_actions
from games.rendering.labels import (
    VARIANT_NAMES,
    back_tile,
    notice_text,
    round_label,
    split_tiles,
    tile,
    tile_name,
)
from games.rendering.settlement import settlement_model

# --- the board ------------------------------------------------------------------------------

POSITIONS = {2: ("bottom", "top"), 4: ("bottom", "right", "top", "left")}


def _forbidden_reason(variant: str) -> str:
    return _("吃后不能打这张 — you can't discard this tile right after this chi")


# Why a completed shape is not a win (the engine's reason codes, games/engine/waits.py).
def win_refusal(code: str) -> str:
    texts = {
        "win_locked": _("You passed a win: until your next draw you may only win by self-draw."),
        "missed_win_lock": _(
            "You passed a win this go-round: a discard wins only with more fan than the one you passed."
        ),
        "own_discard_lock": _("You discarded this tile since your last draw: you can't win on it."),
        "one_flower_minimum": _("A win on a discard needs at least one flower (一花起胡)."),
        "discarded_joker": _("You discarded a joker (小相公): you can't win this hand."),
        "self_draw_only": _("This rule set wins by self-draw only."),
        "missed_win": _("You passed a win: you can't win on a discard until your next turn."),
        "not_a_winning_hand": _("The shape completes but scores no winning hand."),
    }
    return texts.get(code, _("The rules don't allow this win now."))


def waits_model(waits: list[dict[str, Any]], jokers: set[str], variant: str = "") -> dict[str, Any]:
    """The waits strip: each wait's tile, the copies unseen by you, and one line of why-not
    (in a rule set that never wins on a discard, that line says so)."""
    rows = [
        {
            "tile": tile(w["tile"], joker=w["tile"] in jokers),
            "unseen": w["unseen"],
            "refused": bool(w.get("refused")),
        }
        for w in waits
    ]
    codes = [w.get("refused") or w.get("discard_refused") for w in waits]
    first = next((c for c in codes if c), "")
    only_draw = first and not any(w.get("refused") for w in waits)
    why = win_refusal(first) if first else ""
    if only_draw and first not in ("self_draw_only",):
        why = _("Only by self-draw: %(why)s") % {"why": why}
    if not why and variant in VARIANT_NAMES and not get_ruleset(variant).win_on_discard:
        why = win_refusal("self_draw_only")
    return {"tiles": rows, "why_not": why, "total_unseen": sum(w["unseen"] for w in waits)}


def _discard_hint(waits: list[dict[str, Any]]) -> str:
    """'→ waits 1s ×4, 4s ×4' for a hand tile (the discard → waits table)."""
    parts = ", ".join(f"{tile_name(w['tile'])} ×{w['unseen']}" for w in waits)
    return _("then waiting on %(waits)s") % {"waits": parts}


def _my_hand(
    seat_view: dict[str, Any],
    legal: list[dict[str, Any]],
    jokers: set[str],
    variant: str,
    my_turn: bool,
    view: dict[str, Any] | None = None,
) -> dict[str, Any]:
    tiles = list(seat_view.get("hand") or [])
    drawn = seat_view.get("drawn")
    discards = {a["tile"]: a for a in legal if a["type"] == "discard" and not a.get("ready")}
    forbidden = set(seat_view.get("forbidden") or [])
    can_discard = bool(discards) or any(a["type"] == "discard" for a in legal)
    after = {d["discard"]: d["waits"] for d in (view or {}).get("discard_waits") or []}
    rows: list[dict[str, Any]] = []
    for i, name in enumerate(tiles):
        action = discards.get(name)
        reason = ""
        if can_discard and action is None:
            reason = _forbidden_reason(variant) if name in forbidden else _("You can't discard this tile now")
            if seat_view.get("ready"):
                reason = _("报听后只能打摸到的牌 — after declaring ready you discard what you draw")
        rows.append(
            tile(
                name,
                joker=name in jokers,
                action=action_json(action) if action else None,
                disabled=bool(reason),
                reason=reason,
                index=i,
                waits_after=_discard_hint(after[name]) if name in after and not reason else "",
            )
        )
    drawn_tile = None
    if drawn is not None and rows and rows[-1]["name"] == drawn:
        drawn_tile = rows.pop()
    waits = (view or {}).get("waits") or []
    return {
        "tiles": rows,
        "drawn": drawn_tile,
        "clickable": can_discard and my_turn,
        "waits": waits_model(waits, jokers, variant) if waits else None,
    }


# Where a meld's claimed tile lies, as at a real table: turned sideways on the side of the player
# it came from — left from the previous player (上家), in the middle from the one across, right
# from the next (下家). Keyed by players, then (discarder − owner) mod players.
CLAIM_SIDES = {4: {1: "right", 2: "across", 3: "left"}, 2: {1: "across"}}


def meld_model(
    m: dict[str, Any], jokers: set[str], owner: int = 0, winds: list[str] | None = None
) -> dict[str, Any]:
    if m.get("tiles") is None:  # another player's concealed kong: four backs
        return {"kind": m["kind"], "tiles": [back_tile() for _ in range(m.get("count", 4))], "from": None}
    names = split_tiles(m["tiles"])
    tiles = [tile(t, joker=t in jokers) for t in names]
    if m["kind"] == "concealed_kong" and len(tiles) == 4:  # own/opened concealed kong: ends face down
        tiles[0] = back_tile()
        tiles[3] = back_tile()
    claimed, source = m.get("claimed"), m.get("from")
    at = next((i for i, t in enumerate(tiles) if claimed and t["name"] == claimed), None)
    if at is not None:
        taken = tiles.pop(at)
        n = len(winds or []) or 4
        side = (
            CLAIM_SIDES.get(n, CLAIM_SIDES[4]).get((source - owner) % n, "across")
            if source is not None
            else ""
        )
        wind = WIND_ZH.get((winds or [""] * n)[source], "") if source is not None and source < n else ""
        taken.update(claimed=True, side=side)
        if wind:
            taken["label"] = _("%(tile)s, claimed from %(wind)s") % {"tile": taken["label"], "wind": wind}
        tiles.insert({"left": 0, "right": len(tiles)}.get(side, 1), taken)
    return {"kind": m["kind"], "tiles": tiles, "from": source}


def _river(seat_view: dict[str, Any], last: dict[str, Any] | None, jokers: set[str]) -> list[dict[str, Any]]:
    claimed = set(seat_view.get("claimed_discards") or [])
    discards = seat_view.get("discards") or []
    last_index = len(discards) - 1 if last and last.get("seat") == seat_view["seat"] else -1
    return [
        tile(t, joker=t in jokers, dimmed=i in claimed, last=i == last_index) for i, t in enumerate(discards)
    ]


def bot_name(index: int) -> str:
    return _("Bot %(number)s") % {"number": index + 1}


def _seat(
    table_seat: dict[str, Any],
    seat_view: dict[str, Any] | None,
    view: dict[str, Any] | None,
    position: str,
    jokers: set[str],
    actions: dict[str, Any],
) -> dict[str, Any]:
    wind = (seat_view or {}).get("wind") or table_seat.get("wind")
    out: dict[str, Any] = {
        **table_seat,
        "sit_action": actions["sit"].get(table_seat["index"]),
        "add_bot_action": actions["add_bot"].get(table_seat["index"]),
        "remove_bot_action": actions["remove_bot"].get(table_seat["index"]),
        "position": position,
        "wind": wind,
        "wind_zh": WIND_ZH.get(wind or "", ""),
        "wind_en": WIND_EN.get(wind or "", ""),
        "in_hand": seat_view is not None,
    }
    if table_seat.get("is_bot"):  # the data names bots in Chinese; the board in the viewer's language
        out["name"] = bot_name(table_seat["index"])
    if seat_view is None or view is None:
        return out
    hand = seat_view.get("hand")
    winds = [sv.get("wind") or "" for sv in view.get("seats", [])]
    out.update(
        dealer=seat_view.get("dealer", False),
        ready=seat_view.get("ready", False),
        discarded_joker=seat_view.get("discarded_joker", False),
        melds=[meld_model(m, jokers, seat_view["seat"], winds) for m in seat_view.get("melds", [])],
        flowers=[tile(f) for f in split_tiles(seat_view.get("flowers"))],
        river=_river(seat_view, view.get("last_discard"), jokers),
        hand_count=seat_view.get("hand_count", 0),
        backs=[back_tile() for _ in range(seat_view.get("hand_count", 0))] if hand is None else [],
        open_hand=[tile(t, joker=t in jokers) for t in hand] if hand is not None else [],
        turn=view.get("turn") == seat_view["seat"],
    )
    return out


def board_model(context: dict[str, Any]) -> dict[str, Any]:
    """Everything the board templates draw, arranged around this viewer's seat."""
    table = context["table"]
    view = context.get("view")
    legal = list(context.get("legal") or [])
    viewer = context.get("viewer") or {}
    my_seat = viewer.get("seat")
    seats = table.get("seats", [])
    n = len(seats) or len((view or {}).get("seats", [])) or 4
    # a player whose seat was freed after the hand still sees it from their own side
    played = context.get("played")
    bottom = my_seat if my_seat is not None else played if played is not None else 0
    positions = POSITIONS.get(n, POSITIONS[4])
    jokers = set((view or {}).get("jokers") or [])
    hand_legal = [a for a in legal if a["type"] not in TABLE_ACTIONS]
    seat_views = (view or {}).get("seats", [])
    actions = table_actions(legal)
    arranged = []
    for s in seats:
        idx = s["index"]
        sv = seat_views[idx] if idx < len(seat_views) else None
        arranged.append(_seat(s, sv, view, positions[(idx - bottom) % n], jokers, actions))
    me = next((s for s in arranged if s["index"] == my_seat), None)
    my_turn = bool(view and view.get("turn") == my_seat and my_seat is not None)
    hand = None
    in_hand = view is not None and my_seat is not None and my_seat < len(seat_views)
    if me is not None and in_hand and view.get("phase") != "over":
        hand = _my_hand(seat_views[my_seat], hand_legal, jokers, table.get("variant", ""), my_turn, view)
    zh, en = VARIANT_NAMES.get(table.get("variant", ""), (table.get("variant_name_zh", ""), ""))
    result = settlement_model(table, view, arranged, jokers)
    if table.get("message"):
        table = {**table, "message": notice_text(table["message"])}
    return {
        "table": table,
        "view": view,
        "viewer": viewer,
        "version": table.get("version", 0),
        "spectator": my_seat is None,
        "seats": arranged,
        "by_position": {s["position"]: s for s in arranged},
        "me": me,
        # a claim held for its undo window, said as its button said it (words and tiles)
        "pending_claim": _held_claim(me),
        "hand": hand,
        "my_turn": my_turn,
        # a claim offered to this viewer: its board marks the discard (only its own board)
        "claim_open": any(a["type"] in ("pong", "chi", "kong", "win") for a in hand_legal) and not my_turn,
        "prompts": hand_prompts(hand_legal),
        "ready_discards": ready_discards(hand_legal),
        "actions": actions,
        "deadline_s": _seconds(table.get("deadline_ms")),
        # the clock running on this viewer's own move stands beside their hand (always on screen),
        # not in the centre box, which a phone may squeeze out of view
        "my_deadline_s": _my_deadline(table, view, my_turn),
        "continue_s": _seconds(table.get("continue_ms")),
        "turn_seat": next((s for s in arranged if s.get("turn")), None),
        "hand_number": table.get("hand_number"),
        "jokers": [tile(j, joker=True) for j in sorted(jokers)],
        "indicator": tile(view["indicator"]) if view and view.get("indicator") else None,
        "round_wind": _wind(view.get("round_wind") if view else table.get("round_wind")),
        "round_label": round_label(
            (view.get("round_wind") if view else table.get("round_wind")) or "1z",
            table.get("round_hand") or 1,
        ),
        "variant_zh": table.get("variant_name_zh") or zh,
        "variant_en": table.get("variant_name_en") or en,
        "phase": table.get("phase") or table.get("status"),
        "result": result,
        # The table waits for players: the last settlement starts put aside for a visitor (or a
        # player just stood up), so that it never stands between them and the seats; its heading,
        # the notice of what happened and a button to show it again stay. Its seated players see
        # it over the board (it may be why the table waits) and put it aside themselves.
        "result_aside": viewer.get("seat") is None and table.get("phase") == "waiting",
        # which hand's settlement it is (the board remembers a player's "put aside" for it)
        "result_hand": (table.get("last_result") or {}).get("hand_id") or table.get("hand_number") or 0,
        "players": n,
        "seats_full": bool(arranged) and all(s.get("name") for s in arranged),
        "header_balance": _header_balance(table, me, viewer),
    }


def _header_balance(table: dict[str, Any], me: dict[str, Any] | None, viewer: dict[str, Any]) -> int | None:
    """The points the page's header should show: a seated viewer's balance; after an admin closed
    the table under a player (their seat freed, a notice for them), the balance the last hand left
    them, so the header is not the one from before that hand."""
    if me is not None:
        return me.get("balance")
    last = table.get("last_result") or {}
    names, balances = last.get("names") or [], last.get("balances") or []
    user = viewer.get("user")
    if table.get("phase") != "closed" or not table.get("message") or user is None or user not in names:
        return None
    i = names.index(user)
    return balances[i] if i < len(balances) else None


def _held_claim(me: dict[str, Any] | None) -> dict[str, Any] | None:
    pending = (me or {}).get("pending")
    if not isinstance(pending, dict) or "type" not in pending:
        return None
    shown = hand_prompts([pending])
    return shown[0] if shown else None


def _my_deadline(table: dict[str, Any], view: dict[str, Any] | None, my_turn: bool) -> int | None:
    if view is None or view.get("phase") == "over" or not (my_turn or view.get("my_move")):
        return None
    return _seconds(table.get("deadline_ms"))


def _seconds(ms: int | None) -> int | None:
    return None if ms is None else max(0, -(-int(ms) // 1000))


def _wind(name: str | None) -> dict[str, str] | None:
    if not name:
        return None
    return {"name": name, "zh": WIND_ZH.get(name, ""), "en": WIND_EN.get(name, "")}
