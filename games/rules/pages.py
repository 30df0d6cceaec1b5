"""What the rules pages show (/rules/, /rules/<variant>/), built from the engine's own data.

Pattern ids, names, values and example hands come from the catalogue
(games/engine/patterns); the worked settlement example is scored by the
engine's scorer right here, so the page cannot drift from the engine.
The prose around them is read from games/rules/text/ by games/rules/content.py.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from games.engine import patterns
from games.engine.patterns import Pattern
from games.engine.rulesets import get_ruleset
from games.engine.scoring import tianjin as tianjin_scoring
from games.engine.scoring.context import ScoreResult, WinContext
from games.engine.tiles import WIND_EN, WIND_ZH
from games.rendering.labels import VARIANT_NAMES, split_tiles, tile
from games.rules import content

WINDS_ZH = tuple(WIND_ZH[f"{i}z"] for i in range(1, 5))  # by seat wind 0–3, the engine's names
WINDS_EN = tuple(WIND_EN[f"{i}z"] for i in range(1, 5))
MELD_LABELS = {
    "chi": ("吃", "chi"),
    "pong": ("碰", "pong"),
    "kong": ("明杠", "exposed kong"),
    "added_kong": ("加杠", "added kong"),
    "concealed_kong": ("暗杠", "concealed kong"),
}


def page_language() -> str:
    """'zh' or 'en': the language the site's switch (LocaleMiddleware) picked."""
    return "zh" if (get_language() or "").lower().startswith("zh") else "en"


def variant_list() -> list[dict[str, str]]:
    return [{"id": v, "zh": zh, "en": en} for v, (zh, en) in VARIANT_NAMES.items()]


# --- values --------------------------------------------------------------------------------


def value_label(p: Pattern, lang: str) -> str:
    """A pattern's value in the variant's own unit, as the table prints it."""
    n = p.value
    if lang == "zh":
        text = {
            "flowers": f"{n} 花",
            "fan": f"{n} 番",
            "minimum": f"起码 {n} 番",
            "factor": f"×{n}",
            "base": f"{n} × 底分",
        }[p.unit]
        if p.each:
            text += "（每张）" if p.id == "flowers" else "（每副）"
        return text
    text = {
        "flowers": f"{n} flowers",
        "fan": f"{n} fan",
        "minimum": f"at least {n} fan",
        "factor": f"×{n}",
        "base": f"{n} × base stake",
    }[p.unit]
    return text + (" each" if p.each else "")


# --- example hands -------------------------------------------------------------------------


def _seat_name(seat: int, dealer: int, players: int, lang: str) -> str:
    wind = (seat - dealer) % players
    return f"{WINDS_ZH[wind]}家" if lang == "zh" else WINDS_EN[wind]


def _caption(case: dict[str, Any], variant: str, lang: str) -> list[str]:
    players = case.get("players", 2 if variant == "two_player" else 4)
    dealer = case.get("dealer", 0)
    seat = case.get("seat", 0)
    zh = lang == "zh"
    out = [_seat_name(seat, dealer, players, lang) + ("（庄）" if zh and seat == dealer else "")]
    if not zh and seat == dealer:
        out[0] += " (dealer)"
    by = case.get("by", "self_draw")
    frm = case.get("from")
    if by == "self_draw":
        out.append("自摸" if zh else "self-drawn")
    elif by == "robbing_kong":
        name = _seat_name(frm, dealer, players, lang)
        out.append(f"抢{name}的杠" if zh else f"robbing {name}'s kong")
    else:
        name = _seat_name(frm, dealer, players, lang)
        out.append(f"和{name}打出的牌" if zh else f"on {name}'s discard")
    flags = (
        ("after_kong", "杠后补牌", "on a kong replacement"),
        ("after_flower", "补花后", "on a flower replacement"),
        ("last_tile", "牌墙最后一张", "the wall's last tile"),
        ("first_turn", "第一轮", "first turn"),
        ("triple_win", "三家同时和", "one of three winners"),
    )
    out += [z if zh else e for key, z, e in flags if case.get(key)]
    if case.get("round_wind", "1z") != "1z":
        wind = int(case["round_wind"][0]) - 1
        out.append(f"{WINDS_ZH[wind]}风圈" if zh else f"{WINDS_EN[wind]} round")
    return out


def _in_order(text: str) -> list[str]:
    """Tile names in the order a player sorts a hand: 万 筒 条, then honours, by number."""
    return sorted(split_tiles(text), key=lambda name: ("mpszf".index(name[1]), name[0]))


def example_model(variant: str, pattern_id: str, lang: str) -> dict[str, Any] | None:
    case = patterns.examples(variant).get(pattern_id)
    if case is None:
        return None
    jokers = set(split_tiles(case.get("jokers")))
    concealed = [tile(n, joker=n in jokers) for n in _in_order(case["concealed"])]
    melds = [
        {
            "label": MELD_LABELS[m["kind"]][0 if lang == "zh" else 1],
            "tiles": [tile(n) for n in split_tiles(m["tiles"])],
        }
        for m in case.get("melds", [])
    ]
    return {
        "concealed": concealed,
        "win": tile(case["win_tile"], joker=case["win_tile"] in jokers, last=True),
        "melds": melds,
        "flowers": [tile(n) for n in split_tiles(case.get("flowers"))],
        "jokers": [tile(n, joker=True) for n in sorted(jokers)],
        "caption": _caption(case, variant, lang),
    }


def pattern_rows(variant: str, lang: str) -> list[dict[str, Any]]:
    """The pattern table, grouped as the variant's rule book groups it."""
    out = []
    for g in patterns.groups(variant):
        rows = [
            {
                "id": p.id,
                "anchor": f"pattern-{p.id}",
                "zh": p.name_zh,
                "en": p.name_en,
                "value": value_label(p, lang),
                "summary": p.summary_zh if lang == "zh" else p.summary_en,
                "impossible": p.impossible,
                "example": example_model(variant, p.id, lang),
            }
            for p in patterns.catalogue(variant)
            if p.group == g.id
        ]
        if rows:
            out.append(
                {
                    "id": g.id,
                    "name": g.name_zh if lang == "zh" else g.name_en,
                    "note": g.note_zh if lang == "zh" else g.note_en,
                    "rows": rows,
                }
            )
    return out


# --- the worked settlement example -------------------------------------------------------


def worked_example(variant: str, lang: str) -> dict[str, Any]:
    """The variant's worked case, scored by the engine, with who pays whom and why."""
    text = content.VARIANTS[variant]
    case = {"variant": variant, **text.worked_case}
    ctx = WinContext.from_json(case)
    result = get_ruleset(variant).score(ctx)
    lines = [
        {
            "zh": name["zh"],
            "en": name["en"],
            "value": v,
            "href": f"#pattern-{pid}" if patterns.pattern(variant, pid) else "",
        }
        for pid, v in result.breakdown
        for name in (_line_name(variant, pid),)
    ]
    rows = [
        {
            "seat": _seat_name(s, ctx.dealer, ctx.players, lang),
            "change": p,
            "why": _why(variant, ctx, result, s, lang),
        }
        for s, p in enumerate(result.payments)
    ]
    hand = {
        "concealed": [tile(n) for n in _in_order(text.worked_case["concealed"])],
        "win": tile(text.worked_case["win_tile"], last=True),
        "flowers": [tile(n) for n in split_tiles(text.worked_case.get("flowers"))],
        "jokers": [tile(n, joker=True) for n in split_tiles(text.worked_case.get("jokers"))],
    }
    return {
        "intro": text.worked_intro.get(lang),
        "hand": hand,
        "lines": lines,
        "value": result.value,
        "value_text": _value_text(variant, ctx, result, lang),
        "rows": rows,
    }


def _line_name(variant: str, pid: str) -> dict[str, str]:
    p = patterns.pattern(variant, pid)
    if p is not None:
        return {"zh": p.name_zh, "en": p.name_en}
    term = patterns.term(pid)
    return {"zh": term.name_zh, "en": term.name_en} if term else {"zh": pid, "en": pid}


def _value_text(variant: str, ctx: WinContext, result: ScoreResult, lang: str) -> str:
    b = dict(result.breakdown)
    zh = lang == "zh"
    v = result.value
    if variant == "shanghai":
        base = b.get("base_flowers", 0)
        fan = sum(n for pid, n in result.breakdown if pid != "base_flowers" and pid != "huangfan")
        if zh:
            return f"底花 {base} × 2^{fan} = {v} 花；一份 = {v} 花 × 底分 {ctx.base} = {v * ctx.base}。"
        unit = v * ctx.base
        return f"Base flowers {base} × 2^{fan} = {v} flowers; one unit = {v} × base {ctx.base} = {unit}."
    if variant == "yihua":
        fan = sum(n for pid, n in result.breakdown if pid != "flowers")
        flowers = b.get("flowers", 0)
        b2, cap = ctx.base // 2, 10 * ctx.base
        if zh:
            return f"(底数 {ctx.base} + {flowers} 花 × {b2}) × 2^{fan} = {v}（封顶 {cap}）。"
        return f"(base {ctx.base} + {flowers} flowers × {b2}) × 2^{fan} = {v} (cap {cap})."
    if variant == "cantonese":
        total = sum(n for _pid, n in result.breakdown)
        fan = (v // ctx.base).bit_length() - 1
        if zh:
            return f"合计 {total} 番，封顶后 {fan} 番：2^{fan} × 底分 {ctx.base} = {v}。"
        return f"{total} fan in all, {fan} after the cap: 2^{fan} × base {ctx.base} = {v}."
    if variant == "tianjin":
        factors = " × ".join(str(n) for _pid, n in result.breakdown)
        return f"1 × {factors} = {v}" + ("。" if zh else ".")
    total = sum(n for _pid, n in result.breakdown)
    cap = get_ruleset(variant).default_options.get("cap", total)
    if zh:
        return f"合计 {total} 番，{cap} 分封顶：分数 {v}。"
    return f"{total} fan in all, capped at {cap}: value {v}."


def _why(variant: str, ctx: WinContext, result: ScoreResult, seat: int, lang: str) -> str:
    """Why this seat gains or pays what it does (numbers from the engine's payments)."""
    zh = lang == "zh"
    pay = -result.payments[seat]
    if seat == ctx.seat:
        return "赢家，收到其他人的支付" if zh else "the winner: receives the others' payments"
    if pay == 0:
        return "不付" if zh else "pays nothing"
    v = result.value
    if variant == "shanghai":
        unit = v * ctx.base
        k = pay // unit
        related = k > 1
        if zh:
            return f"{k} 份 × {unit} = {pay}" + ("（与赢家有三口关系）" if related else "")
        units = f"{k} unit{'s' if k > 1 else ''}"
        return f"{units} × {unit} = {pay}" + (" (related to the winner, 三口)" if related else "")
    if variant == "tianjin":
        m = tianjin_scoring.pair_multiplier(ctx.seat, seat, ctx.dealer, ctx.zuozhuang, ctx.lazhuang)
        return f"{v} × m {m} × {'底分' if zh else 'base'} {ctx.base} = {pay}" + _why_m(ctx, seat, zh)
    if variant == "two_player":
        multiplier = get_ruleset(variant).default_options.get("self_draw_multiplier", 1)
        if ctx.is_self_draw and v * multiplier * ctx.base == pay:
            if zh:
                return f"自摸：分数 {v} × {multiplier} × 底分 {ctx.base} = {pay}"
            return f"self-draw: value {v} × {multiplier} × base {ctx.base} = {pay}"
        return f"{v} × {'底分' if zh else 'base'} {ctx.base} = {pay}"
    if ctx.is_self_draw:
        return f"自摸，每家付 {pay}" if zh else f"self-draw: each other player pays {pay}"
    return f"放炮，付 {pay}" if zh else f"the discarder pays {pay}"


def _why_m(ctx: WinContext, seat: int, zh: bool) -> str:
    """Where a tianjin pair multiplier comes from: 坐庄 and the non-dealer's 拉庄."""
    if ctx.dealer not in (ctx.seat, seat):
        return ""
    other = seat if ctx.seat == ctx.dealer else ctx.seat
    pulls = ctx.lazhuang[other] if other < len(ctx.lazhuang) else 0
    parts = []
    if ctx.zuozhuang:
        parts.append("坐庄 ×2" if zh else "dealer sits ×2")
    if pulls:
        parts.append(f"拉{pulls}庄 ×{2**pulls}" if zh else f"pulled {pulls} ×{2**pulls}")
    if not parts:
        return ""
    return f"（{'，'.join(parts)}）" if zh else f" ({', '.join(parts)})"


def _payment_lines(variant: str, lang: str) -> list[str]:
    """Payment rules that depend on a house-rule option, read from the ruleset's defaults."""
    if variant != "two_player":
        return []
    m = get_ruleset(variant).default_options.get("self_draw_multiplier", 1)
    if lang == "zh":
        return [f"自摸（及抢杠，按自摸计）：对手付 分数 × {m} × 底分；点和：放炮者付 分数 × 1 × 底分。"]
    return [
        f"Self-draw (and robbing a kong, paid as a self-draw): the opponent pays value × {m} × base "
        "stake; a discard win: the discarder pays value × 1 × base stake."
    ]


def house_rules(variant: str, lang: str) -> list[dict[str, Any]]:
    out = []
    for key, default in get_ruleset(variant).default_options.items():
        text = content.OPTION_TEXT.get(key)
        meaning = text.get(lang) if text else key.replace("_", " ")
        out.append({"key": key, "default": default, "meaning": meaning})
    return out


def variant_page(variant: str) -> dict[str, Any]:
    lang = page_language()
    text = content.VARIANTS[variant]
    zh, en = VARIANT_NAMES[variant]
    return {
        "variant": variant,
        "name_zh": zh,
        "name_en": en,
        "lang": lang,
        "overview": [x.get(lang) for x in text.overview],
        "flow": [x.get(lang) for x in text.flow],
        "restrictions": [x.get(lang) for x in text.restrictions],
        "scoring": [x.get(lang) for x in text.scoring] + _payment_lines(variant, lang),
        "groups": pattern_rows(variant, lang),
        "worked": worked_example(variant, lang),
        "house_rules": house_rules(variant, lang),
        "decisions": [
            {"number": d.number, "seed": d.seed, "text": d.text.get(lang)}
            for d in content.DECISIONS.get(variant, ())
        ],
        "variants": variant_list(),
    }


def index_page() -> dict[str, Any]:
    lang = page_language()
    return {
        "lang": lang,
        "common": [x.get(lang) for x in content.COMMON_FLOW],
        "variants": [
            {**v, "overview": content.VARIANTS[v["id"]].overview[0].get(lang)} for v in variant_list()
        ],
    }
