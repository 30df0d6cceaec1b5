"""Names a board shows: tiles (zh, en, the SVG to draw), variants, settlement lines."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine import patterns

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


def tile_name(name: str) -> str:
    """A tile as the board names it to this viewer: both scripts on the English page (mahjong's
    own words stay in view), the Chinese name alone on the Chinese page ("二万", not
    "二万 2 Characters")."""
    return tile_zh(name) if translation.get_language().startswith("zh") else tile_label(name)


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


@cache
def tile_src(name: str) -> str:
    """A tile's image URL. Kept once found: the static storage hashes the name through its manifest
    on every call, and a board asks for a hundred tiles a frame; the URLs change only with the
    settings (then the cache is emptied) or a new deploy (a new process)."""
    return static(f"games/tiles/{name}.svg")


@receiver(setting_changed)
def _forget_tile_srcs(setting: str, **kwargs: Any) -> None:
    if setting in ("STATIC_URL", "STORAGES", "DEBUG"):
        tile_src.cache_clear()


def tile(name: str, *, joker: bool = False, **flags: Any) -> dict[str, Any]:
    """What a template needs to draw one face-up tile."""
    label = tile_name(name)
    if joker:
        label = f"{label} · {_('joker')} 混"
    return {"name": name, "src": tile_src(name), "label": label, "joker": joker, **flags}


def back_tile() -> dict[str, Any]:
    return {"name": None, "src": tile_src("back"), "label": _("hidden tile"), "joker": False}


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


# 荒番 said by its cause (games.engine.scoring.shanghai.huangfan_cause): the roll of this hand,
# drawn hands before it, or both — "after a drawn hand" alone was wrong when the dice did it
HUANGFAN_CAUSES: dict[str, tuple[str, str]] = {
    "dice": ("荒番（骰子）", "Doubled by the dice"),
    "drawn": ("荒番（荒牌后）", "Doubled after a drawn hand"),
    "both": ("荒番（骰子与荒牌）", "Doubled by the dice and a drawn hand"),
}


def huangfan_name(cause: str | None) -> dict[str, str]:
    """The 荒番 line's names for `cause`; the plain term when the cause is unknown."""
    if cause in HUANGFAN_CAUSES:
        zh, en = HUANGFAN_CAUSES[cause]
        return {"id": "huangfan", "zh": zh, "en": en, "cause": cause}
    return pattern_name("huangfan")


def extra_name(reason: str) -> dict[str, str]:
    key = "kong" if reason.startswith("kong") else reason
    zh, en = EXTRA_NAMES.get(key, (reason, reason.replace("_", " ")))
    return {"id": reason, "zh": zh, "en": en}


# --- the match's place ------------------------------------------------------------------------


def round_label(round_wind: str, hand_in_round: int) -> str:
    """东风圈 第2局 / "East round, hand 2": the prevailing wind and the 局 of the wind round."""
    labels = {
        "1z": _("East round, hand %(n)s"),
        "2z": _("South round, hand %(n)s"),
        "3z": _("West round, hand %(n)s"),
        "4z": _("North round, hand %(n)s"),
    }
    return labels.get(round_wind, labels["1z"]) % {"n": hand_in_round}


# A seat's notice is stored as its writer left it: one in both scripts, one in Chinese only, the
# admin's in the admin's language. The board says each in the viewer's language: known texts map
# to a message id, and any stored message id is translated as it is shown.
STORED_NOTICES: dict[str, str] = {
    "您没有选择继续，已离开座位 (you did not choose Continue and were stood up)": gettext_noop(
        "You did not choose Continue and were stood up."
    ),
    "您的积分不足，不能进行下一局": gettext_noop("You do not have enough points for the next hand."),
    "管理员关闭了这张牌桌。": gettext_noop("An admin closed this table."),
    "管理员将您移出了这张牌桌。": gettext_noop("An admin removed you from this table."),
}


def notice_text(message: str | None) -> str | None:
    """A stored seat notice in the viewer's language (unknown text is shown as it is)."""
    if not message:
        return message
    return _(STORED_NOTICES.get(message, message))
