"""HTML for the live board and the lobby, built from the render context of docs/protocol.md §1.

`render_table_html(context)` returns the table page's live parts, each a top-level element
with an id and `hx-swap-oob`, so the htmx ws extension swaps every part in place. The same
parts make up the first page load (templates/games/table.html includes them), so a reload
shows exactly what the socket shows. Nothing here reads state the context does not hold:
the context is already this viewer's view (no other seat's concealed tiles).
"""

from __future__ import annotations

import contextlib
import json
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, trans_real

from games.engine import patterns
from games.engine.bots import LEVELS
from games.engine.tiles import WIND_EN, WIND_ZH

# --- tiles --------------------------------------------------------------------------------

NUMERALS_ZH = "一二三四五六七八九"
SUITS = {"m": ("万", "Characters"), "p": ("筒", "Dots"), "s": ("条", "Bamboo")}
HONOURS = {
    1: ("东风", "East wind"),
    2: ("南风", "South wind"),
    3: ("西风", "West wind"),
    4: ("北风", "North wind"),
    5: ("白板", "White dragon"),
    6: ("发财", "Green dragon"),
    7: ("红中", "Red dragon"),
}
FLOWERS = {
    1: ("春", "Spring"),
    2: ("夏", "Summer"),
    3: ("秋", "Autumn"),
    4: ("冬", "Winter"),
    5: ("梅", "Plum"),
    6: ("兰", "Orchid"),
    7: ("竹", "Bamboo flower"),
    8: ("菊", "Chrysanthemum"),
}


def _split(name: str) -> tuple[int, str]:
    if len(name) != 2 or not name[0].isdigit() or name[1] not in "mpszf":
        raise ValueError(f"not a tile name: {name!r}")
    return int(name[0]), name[1]


def tile_zh(name: str) -> str:
    n, suit = _split(name)
    if suit in SUITS:
        return NUMERALS_ZH[n - 1] + SUITS[suit][0]
    if suit == "z":
        return HONOURS[n][0]
    return FLOWERS[n][0]


def tile_en(name: str) -> str:
    n, suit = _split(name)
    if suit in SUITS:
        return f"{n} {SUITS[suit][1]}"
    if suit == "z":
        return HONOURS[n][1]
    return f"{FLOWERS[n][1]} (flower {n})"


def tile_label(name: str) -> str:
    """Chinese and English name, e.g. '五万 5 Characters'."""
    return f"{tile_zh(name)} {tile_en(name)}"


def split_tiles(text: str | None) -> list[str]:
    """'718f' → ['7f', '1f', '8f']; '345m' → ['3m', '4m', '5m'] (the engine's compact notation)."""
    out: list[str] = []
    digits = ""
    for ch in text or "":
        if ch.isdigit():
            digits += ch
        elif ch in "mpszf":
            out.extend(d + ch for d in digits)
            digits = ""
    return out


def tile(name: str, *, joker: bool = False, **flags: Any) -> dict[str, Any]:
    """What a template needs to draw one face-up tile."""
    label = tile_label(name)
    if joker:
        label = f"{label} · {_('joker')} 混"
    return {"name": name, "src": static(f"games/tiles/{name}.svg"), "label": label, "joker": joker, **flags}


def back_tile() -> dict[str, Any]:
    return {"name": None, "src": static("games/tiles/back.svg"), "label": _("hidden tile"), "joker": False}


# --- names --------------------------------------------------------------------------------

VARIANT_NAMES = {
    "shanghai": ("上海麻将", "Shanghai"),
    "yihua": ("一花起胡", "One-flower"),
    "cantonese": ("广东鸡平和", "Cantonese"),
    "tianjin": ("天津麻将", "Tianjin"),
    "two_player": ("二人麻将", "Two-player"),
}

EXTRA_NAMES: dict[str, tuple[str, str]] = {
    "kong": ("杠钱", "Kong payment"),
    "chan": ("铲", "Chan (four equal first discards)"),
    "false_win": ("诈胡", "False win"),
    "escape": ("逃跑", "Escape penalty"),
}


def pattern_name(pattern_id: str, variant: str = "") -> dict[str, str]:
    """A settlement line's names, from the variant's pattern catalogue (games/engine/patterns),
    with `href` to the pattern's entry on the rules page; a bookkeeping line (底花, 荒番, 花)
    has names but no link. The same id may be named differently per variant (对对胡 in
    yihua, 碰碰和 in cantonese), which is why the variant is asked for."""
    entry = patterns.pattern(variant, pattern_id)
    if entry is None and variant not in patterns.VARIANTS:
        # no variant given (an older caller): the first catalogue naming the id, without a link
        found = next((p for v in patterns.VARIANTS if (p := patterns.pattern(v, pattern_id))), None)
        if found is not None:
            return {"id": pattern_id, "zh": found.name_zh, "en": found.name_en}
    if entry is not None:
        href = reverse("rules:variant", args=[variant]) + f"#pattern-{pattern_id}"
        return {"id": pattern_id, "zh": entry.name_zh, "en": entry.name_en, "href": href}
    term = patterns.term(pattern_id)
    if term is not None:
        return {"id": pattern_id, "zh": term.name_zh, "en": term.name_en}
    return {"id": pattern_id, "zh": pattern_id, "en": pattern_id.replace("_", " ")}


def extra_name(reason: str) -> dict[str, str]:
    key = "kong" if reason.startswith("kong") else reason
    zh, en = EXTRA_NAMES.get(key, (reason, reason.replace("_", " ")))
    return {"id": reason, "zh": zh, "en": en}


# --- actions --------------------------------------------------------------------------------


def action_json(action: dict[str, Any]) -> str:
    """The exact text sent back as the `action` field (the legal entry, unchanged)."""
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def _button(action: dict[str, Any], label: str, **extra: Any) -> dict[str, Any]:
    return {"action": action_json(action), "label": label, "type": action["type"], **extra}


def _kind_label(kind: str) -> str:
    return {
        "exposed": _("Kong 明杠"),
        "added": _("Kong 加杠"),
        "concealed": _("Kong 暗杠"),
    }.get(kind, _("Kong 杠"))


def hand_prompts(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons for every legal hand action except plain discards (those are the hand's tiles)."""
    out: list[dict[str, Any]] = []
    for a in legal:
        kind = a["type"]
        if kind == "win":
            out.append(_button(a, _("Win 胡"), tiles=[tile(a["tile"])] if a.get("tile") else [], tone="win"))
        elif kind == "kong":
            out.append(_button(a, _kind_label(a.get("kind", "")), tiles=[tile(a["tile"])], tone="claim"))
        elif kind == "pong":
            out.append(_button(a, _("Pong 碰"), tiles=[tile(a["tile"])], tone="claim"))
        elif kind == "chi":
            run = [tile(t, claimed=(t == a.get("tile"))) for t in split_tiles(a.get("tiles"))]
            out.append(_button(a, _("Chi 吃"), tiles=run, tone="claim"))
        elif kind == "pass":
            out.append(_button(a, _("Pass 过"), tiles=[], tone="pass"))
        elif kind == "choose":
            out.append(_button(a, _choice_label(a), tiles=[], tone="choose"))
        elif kind == "exchange":
            tiles = [tile(t) for t in split_tiles(a.get("tiles"))]
            label = _("Exchange 换牌") if tiles else _("Keep my tiles 不换")
            out.append(_button(a, label, tiles=tiles, tone="choose"))
        elif kind == "cuopai":
            out.append(_button(a, _("Swap the drawn tile for 搓牌"), tiles=[tile(a["tile"])], tone="choose"))
        elif kind != "discard":  # an action this board doesn't know yet: still offer it
            tiles = [tile(t) for t in split_tiles(a.get("tiles") or a.get("tile"))]
            out.append(_button(a, kind, tiles=tiles, tone="choose"))
    order = {"win": 0, "claim": 1, "choose": 2, "pass": 3}
    return sorted(out, key=lambda b: order[b["tone"]])


def _choice_label(a: dict[str, Any]) -> str:
    value = a.get("value", 0)
    if a.get("kind") == "zuozhuang":
        return _("Sit as dealer 坐庄") if value else _("Don't sit 不坐")
    labels = {0: _("No pull 不拉"), 1: _("Pull once 拉一庄"), 2: _("Pull twice 拉两庄")}
    return labels.get(value, f"拉 {value}")


def ready_discards(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discards that also declare 报听 (two_player): shown as their own prompt row."""
    return [
        _button(a, tile_label(a["tile"]), tiles=[tile(a["tile"])], tone="ready")
        for a in legal
        if a["type"] == "discard" and a.get("ready")
    ]


TABLE_ACTIONS = (
    "sit",
    "stand",
    "add_bot",
    "remove_bot",
    "set_stake",
    "accept_stake",
    "start",
    "continue",
    "leave",
    "auto",
    "undo",
)


def table_actions(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Table-level legal actions by type (seat-bound ones keyed by seat)."""
    out: dict[str, Any] = {"sit": {}, "add_bot": {}, "remove_bot": {}}
    for a in legal:
        kind = a["type"]
        if kind == "add_bot":  # one button per strength; the level rides along with the entry
            seat = a.get("seat")
            out[kind][seat] = [{"level": lv, "action": action_json({**a, "level": lv})} for lv in LEVELS]
        elif kind in ("sit", "remove_bot"):
            out[kind][a.get("seat")] = action_json(a)
        elif kind == "set_stake":
            out["set_stake"] = {"min": a.get("min", 1), "even": bool(a.get("even")), "action": a}
        elif kind in TABLE_ACTIONS:
            out[kind] = action_json(a)
            if kind == "auto":
                out["auto_on"] = bool(a.get("on"))
    return out


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


def waits_model(waits: list[dict[str, Any]], jokers: set[str]) -> dict[str, Any]:
    """The waits strip: each wait's tile, the copies unseen by you, and one line of why-not."""
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
    return {"tiles": rows, "why_not": why, "total_unseen": sum(w["unseen"] for w in waits)}


def _discard_hint(waits: list[dict[str, Any]]) -> str:
    """'→ waits 1s ×4, 4s ×4' for a hand tile (the discard → waits table)."""
    parts = ", ".join(f"{tile_label(w['tile'])} ×{w['unseen']}" for w in waits)
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
        "waits": waits_model(waits, jokers) if waits else None,
    }


def _meld(m: dict[str, Any], jokers: set[str]) -> dict[str, Any]:
    if m.get("tiles") is None:  # another player's concealed kong: four backs
        return {"kind": m["kind"], "tiles": [back_tile() for _ in range(m.get("count", 4))], "from": None}
    names = split_tiles(m["tiles"])
    tiles = [tile(t, joker=t in jokers) for t in names]
    if m["kind"] == "concealed_kong" and len(tiles) == 4:  # own/opened concealed kong: ends face down
        tiles[0] = back_tile()
        tiles[3] = back_tile()
    claimed = m.get("claimed")
    for t in tiles:
        if claimed and t["name"] == claimed:
            t["claimed"] = True
            break
    return {"kind": m["kind"], "tiles": tiles, "from": m.get("from")}


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
    out.update(
        dealer=seat_view.get("dealer", False),
        ready=seat_view.get("ready", False),
        discarded_joker=seat_view.get("discarded_joker", False),
        melds=[_meld(m, jokers) for m in seat_view.get("melds", [])],
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
    bottom = my_seat if my_seat is not None else 0
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
    return {
        "table": table,
        "view": view,
        "viewer": viewer,
        "version": table.get("version", 0),
        "spectator": my_seat is None,
        "seats": arranged,
        "by_position": {s["position"]: s for s in arranged},
        "me": me,
        "hand": hand,
        "my_turn": my_turn,
        # a claim offered to this viewer: its board marks the discard (only its own board)
        "claim_open": any(a["type"] in ("pong", "chi", "kong", "win") for a in hand_legal) and not my_turn,
        "prompts": hand_prompts(hand_legal),
        "ready_discards": ready_discards(hand_legal),
        "actions": actions,
        "deadline_s": _seconds(table.get("deadline_ms")),
        "continue_s": _seconds(table.get("continue_ms")),
        "turn_seat": next((s for s in arranged if s.get("turn")), None),
        "hand_number": table.get("hand_number"),
        "jokers": [tile(j, joker=True) for j in sorted(jokers)],
        "indicator": tile(view["indicator"]) if view and view.get("indicator") else None,
        "round_wind": _wind(view.get("round_wind") if view else table.get("round_wind")),
        "variant_zh": table.get("variant_name_zh") or zh,
        "variant_en": table.get("variant_name_en") or en,
        "phase": table.get("phase") or table.get("status"),
        "result": result,
        "players": n,
    }


def _seconds(ms: int | None) -> int | None:
    return None if ms is None else max(0, -(-int(ms) // 1000))


def _wind(name: str | None) -> dict[str, str] | None:
    if not name:
        return None
    return {"name": name, "zh": WIND_ZH.get(name, ""), "en": WIND_EN.get(name, "")}


def settlement_model(
    table: dict[str, Any], view: dict[str, Any] | None, seats: list[dict[str, Any]], jokers: set[str]
) -> dict[str, Any] | None:
    """The settlement panel: patterns with values, payments, balances; None while no result."""
    last = table.get("last_result") or None
    result = (last or {}).get("result") or (view or {}).get("result")
    if not result:
        return None
    from games.settlement_lines import settlement_line  # (it names patterns through this module)

    n = len(seats)
    names = [s.get("name") or pgettext("empty seat", "—") for s in seats]
    variant = table.get("variant", "")
    base = (last or {}).get("base") or table.get("base") or 0
    scores = []
    for score in result.get("scores", []):
        breakdown = score.get("breakdown") or [[p, None] for p in score.get("patterns", [])]
        scores.append(
            {
                "seat": score["seat"],
                "name": names[score["seat"]] if score["seat"] < n else "",
                "value": score.get("value"),
                "win": score.get("win", True),
                "patterns": [{**pattern_name(p, variant), "value": v} for p, v in breakdown],
                "line": settlement_line(variant, score, base, names).text,
            }
        )
    payments = (last or {}).get("payments") or result.get("payments") or [0] * n
    balances = (last or {}).get("balances") or [s.get("balance") for s in seats]
    practice = (last or {}).get("practice") or [0] * n  # payments with a bot: shown, not applied
    hands = (last or {}).get("hands") or [None] * n
    rows = []
    for s in seats:
        i = s["index"]
        hand_names = hands[i] if i < len(hands) and hands[i] is not None else None
        if hand_names is None and view and i < len(view.get("seats", [])):
            hand_names = view["seats"][i].get("hand")
        rows.append(
            {
                "seat": s,
                "payment": payments[i] if i < len(payments) else 0,
                "practice": practice[i] if i < len(practice) else 0,
                "balance": balances[i] if i < len(balances) else None,
                "hand": [tile(t, joker=t in jokers) for t in hand_names or []],
                "melds": s.get("melds", []),
                "winner": i in result.get("winners", []),
            }
        )
    extras = [
        {**extra_name(e.get("reason", "")), "payments": e.get("payments", [])}
        for e in result.get("extras", [])
    ]
    penalties = [
        {
            **p,
            "name": names[p["seat"]] if p.get("seat") is not None and p["seat"] < n else "",
            "label": extra_name(p.get("reason", "escape")),
        }
        for p in (last or {}).get("penalties", [])
    ]
    return {
        "drawn": result.get("drawn") or not result.get("winners"),
        "by": result.get("by"),
        "from": result.get("from"),
        "from_name": names[result["from"]] if result.get("from") is not None and result["from"] < n else "",
        "win_tile": tile(result["win_tile"]) if result.get("win_tile") else None,
        "scores": scores,
        "rows": rows,
        "extras": extras,
        "penalties": penalties,
        "hand": (last or {}).get("hand"),
    }


PARTS = ("table-status", "board", "prompt", "table-side", "settlement")


def language_from_scope(scope: dict[str, Any]) -> str:
    """The viewer's language for a websocket, as LocaleMiddleware picks it for a page:
    the language cookie, then Accept-Language, then LANGUAGE_CODE."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    cookies = SimpleCookie()
    with contextlib.suppress(Exception):
        cookies.load(headers.get("cookie", ""))
    candidates = []
    if settings.LANGUAGE_COOKIE_NAME in cookies:
        candidates.append(cookies[settings.LANGUAGE_COOKIE_NAME].value)
    candidates += [
        code for code, _q in trans_real.parse_accept_lang_header(headers.get("accept-language", ""))
    ]
    for code in candidates:
        with contextlib.suppress(LookupError):
            return trans_real.get_supported_language_variant(code)
    return settings.LANGUAGE_CODE


def _language(code: str | None) -> contextlib.AbstractContextManager[None]:
    return translation.override(code) if code else contextlib.nullcontext()


def render_table_html(context: dict[str, Any], language: str | None = None) -> str:
    """All live parts of the table page for this viewer, each with `hx-swap-oob`.

    `language`: the viewer's (see `language_from_scope`); a socket has no LocaleMiddleware."""
    with _language(language or (context.get("viewer") or {}).get("language")):
        model = board_model(context)
        return render_to_string("games/_table_parts.html", {**model, "oob": True})


# What the board says for an error code the socket reports. The JSON protocol keeps the service's
# English message (API clients read the code); a person reads this, in their own language. A code
# not listed here shows the service's message as it is.
def error_text(code: str) -> str | None:
    texts = {
        "stale_version": _("The table moved on; here is the current state."),
        "not_your_turn": _("It is not your turn."),
        "illegal_action": _("That move is not allowed now."),
        "paused": _("Wait for the short pause after the discard."),
        "seat_taken": _("That seat is taken."),
        "already_seated": _("You already have a seat here."),
        "not_seated": _("You are not seated at this table."),
        "login_required": _("Log in to play."),
        "table_closed": _("The table is closed."),
        "no_table": _("There is no such table."),
        "insufficient_points": _("Not enough points for this stake (50 × the base stake)."),
        "banned": _("You are banned from playing for now."),
        "bad_stake": _("That base stake is not allowed."),
        "stake_unset": _("The base stake has not been set yet."),
        "stake_fixed": _("The base stake is fixed."),
        "not_stake_chooser": _("Another player sets the base stake."),
        "hand_running": _("Not while a hand is being played."),
        "no_hand": _("No hand is being played."),
        "hand_over": _("The hand is over: choose Continue or Leave."),
        "claim_pending": _("Your claim is pending; undo it first."),
        "nothing_to_undo": _("There is no claim to undo."),
        "already_continued": _("You already chose to continue."),
        "already_left": _("You already left; a bot finishes this hand."),
        "left": _("You left this hand."),
        "rate_limited": _("Too many messages; slow down."),
        "too_big": _("That message is too large."),
        "unavailable": _("The server is busy for a moment; try again."),
        "pong_locked": _("You passed this pong: you can't pong it until your next discard."),
        "win_locked": _("You passed a win: until your next draw you may only win by self-draw."),
        "discard_after_chi": _("吃后不能打这张 — you can't discard this tile right after this chi"),
        "own_discard_lock": _("You discarded this tile since your last draw: you can't win on it."),
        "missed_win_lock": _(
            "You passed a win this go-round: a discard wins only with more fan than the one you passed."
        ),
    }
    return texts.get(code)


def render_error_html(
    code: str, message: str, language: str | None = None, retry_after: int | None = None
) -> str:
    """A short notice swapped into the table page (for errors the socket reports), in the
    viewer's language; `retry_after`: the seconds a `busy` server asked for (board.js waits them
    before reconnecting)."""
    with _language(language):
        text = error_text(code) or message
        context = {"code": code, "message": text, "oob": True, "retry_after": retry_after}
        return render_to_string("games/_notice.html", context)


# --- lobby ----------------------------------------------------------------------------------


def lobby_groups(
    tables: list[dict[str, Any]], variant: str = "", free_only: bool = False
) -> list[dict[str, Any]]:
    """Tables grouped by variant (in the variants' usual order), filtered."""
    groups = []
    for vid, (zh, en) in VARIANT_NAMES.items():
        if variant and vid != variant:
            continue
        rows = [t for t in tables if t["variant"] == vid and (not free_only or t["free"] > 0)]
        groups.append({"id": vid, "zh": zh, "en": en, "tables": rows})
    return groups


def render_lobby_html(
    tables: list[dict[str, Any]], variant: str = "", free_only: bool = False, oob: bool = True
) -> str:
    """The lobby's table list (`#lobby-tables`), for the first load and every live update.

    Each table dict: id, variant, name, owner, base, stake_state, seats_taken, seats_total,
    free, spectators, status (waiting/playing), seats [{index, wind, name, is_bot}].
    """
    return render_to_string(
        "games/_lobby_tables.html",
        {
            "groups": lobby_groups(tables, variant, free_only),
            "oob": oob,
            "variant": variant,
            "free_only": free_only,
            "count": len(tables),
        },
    )
