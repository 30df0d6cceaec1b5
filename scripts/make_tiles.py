"""Generate the tile art: one SVG per tile kind in static/games/tiles/.

Run `python scripts/make_tiles.py` after changing the drawing code and commit the
SVGs with it. Every tile is drawn from the same frame (an ivory face over a green
back, 60 × 84 units), so the set stays consistent; the names come from
games/rendering/labels.py so alt texts and files agree.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "static" / "games" / "tiles"

W, H = 60, 84  # the whole tile incl. its green back edge
FACE_H = 78
CJK = (
    ",".join(
        f"'{f}'"
        for f in (
            "Noto Serif CJK SC",
            "Source Han Serif SC",
            "Songti SC",
            "STSong",
            "SimSun",
            "Noto Sans CJK SC",
            "WenQuanYi Zen Hei",
            "PingFang SC",
            "Microsoft YaHei",
        )
    )
    + ",serif"
)

NAVY = "#1b2a6b"
RED = "#c0392b"
GREEN = "#177245"
BLUE = "#1f5fae"
NUMERALS = "一二三四五六七八九"


def frame(body: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img"><title>{title}</title>'
        '<defs><linearGradient id="f" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#fffdf4"/><stop offset="1" stop-color="#efe7cf"/>'
        "</linearGradient></defs>"
        f'<rect x="0.5" y="4" width="{W - 1}" height="{H - 4.5}" rx="7" fill="#1f7a4f" stroke="#0e4a2e"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="7" fill="url(#f)" stroke="#a89f80"/>'
        f"{body}</svg>\n"
    )


def text(x: float, y: float, s: str, size: float, fill: str, weight: int = 700) -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="{CJK}" font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="middle" dominant-baseline="central">{s}</text>'
    )


# --- characters 万 -----------------------------------------------------------------------


def characters(n: int) -> str:
    return (
        text(30, 24, NUMERALS[n - 1], 29, NAVY)
        + text(30, 57, "萬", 30, RED)
        + f'<text x="6" y="11" font-family="sans-serif" font-size="9" font-weight="700" '
        f'fill="{NAVY}">{n}</text>'
    )


# --- dots 筒 -------------------------------------------------------------------------------


def dot(cx: float, cy: float, r: float, color: str) -> str:
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{color}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.72:.2f}" fill="#fffdf4"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.5:.2f}" fill="none" stroke="{color}" '
        f'stroke-width="{max(r * 0.12, 1):.2f}" stroke-dasharray="2 1.6"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.24:.2f}" fill="{color}"/>'
    )


DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    1: [(30, 39, 22, RED)],
    2: [(30, 21, 13, GREEN), (30, 57, 13, BLUE)],
    3: [(15, 15, 10, BLUE), (30, 39, 10, RED), (45, 63, 10, GREEN)],
    4: [(17, 21, 11, BLUE), (43, 21, 11, GREEN), (17, 57, 11, GREEN), (43, 57, 11, BLUE)],
    5: [(16, 16, 10, BLUE), (44, 16, 10, GREEN), (30, 39, 10, RED), (16, 62, 10, GREEN), (44, 62, 10, BLUE)],
    6: [(18, 14, 9, GREEN), (42, 14, 9, GREEN)] + [(x, y, 9, RED) for y in (42, 63) for x in (18, 42)],
    7: [(14, 12, 7.5, GREEN), (30, 21, 7.5, GREEN), (46, 30, 7.5, GREEN)]
    + [(x, y, 8.5, RED) for y in (49, 67) for x in (19, 41)],
    8: [(x, y, 8.2, BLUE) for y in (12, 30, 48, 66) for x in (18, 42)],
    9: [(x, 15, 8.6, BLUE) for x in (13, 30, 47)]
    + [(x, 39, 8.6, RED) for x in (13, 30, 47)]
    + [(x, 63, 8.6, GREEN) for x in (13, 30, 47)],
}


def dots(n: int) -> str:
    return "".join(dot(*d) for d in DOTS[n])


# --- bamboo 条 -----------------------------------------------------------------------------


def stick(cx: float, cy: float, h: float = 20, color: str = GREEN, w: float = 8.5) -> str:
    x, y = cx - w / 2, cy - h / 2
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{w / 2}" fill="{color}"/>'
        f'<rect x="{cx - 0.6}" y="{y + 2}" width="1.2" height="{h - 4}" fill="#fffdf4" opacity="0.55"/>'
        f'<rect x="{x - 0.8}" y="{cy - 1}" width="{w + 1.6}" height="2" rx="1" fill="{color}"/>'
        f'<rect x="{x - 0.8}" y="{y}" width="{w + 1.6}" height="1.8" rx="0.9" fill="{color}"/>'
        f'<rect x="{x - 0.8}" y="{y + h - 1.8}" width="{w + 1.6}" height="1.8" rx="0.9" fill="{color}"/>'
    )


STICKS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 22, 24, GREEN), (30, 56, 24, BLUE)],
    3: [(30, 22, 24, GREEN), (19, 56, 24, GREEN), (41, 56, 24, GREEN)],
    4: [(19, 22, 24, GREEN), (41, 22, 24, BLUE), (19, 56, 24, BLUE), (41, 56, 24, GREEN)],
    5: [(15, 20, 22, GREEN), (45, 20, 22, BLUE), (30, 39, 22, RED), (15, 58, 22, BLUE), (45, 58, 22, GREEN)],
    6: [(x, y, 24, GREEN) for y in (22, 56) for x in (15, 30, 45)],
    7: [(30, 14, 18, RED)] + [(x, y, 20, GREEN) for y in (40, 63) for x in (15, 30, 45)],
    8: [(x, y, 24, GREEN if x in (12, 48) else BLUE) for y in (22, 56) for x in (12, 24, 36, 48)],
    9: [(x, y, 19, RED if x == 30 else GREEN) for y in (15, 39, 63) for x in (15, 30, 45)],
}


def bird() -> str:
    """1s: a small green bird on a branch (幺鸡)."""
    return (
        f'<path d="M14 62 Q30 70 48 60" stroke="#7a4b22" stroke-width="3" fill="none" '
        'stroke-linecap="round"/>'
        f'<path d="M22 52 Q10 66 12 74 Q20 64 28 58 Z" fill="{BLUE}"/>'
        f'<path d="M26 54 Q20 70 26 76 Q30 64 32 57 Z" fill="{RED}"/>'
        f'<ellipse cx="33" cy="42" rx="13" ry="15" fill="{GREEN}"/>'
        f'<path d="M27 38 Q35 30 42 42 Q35 50 27 46 Z" fill="#2fa36b"/>'
        f'<circle cx="38" cy="22" r="8" fill="{GREEN}"/>'
        f'<path d="M44 20 L52 23 L44 25 Z" fill="{RED}"/>'
        f'<circle cx="40" cy="20" r="1.8" fill="#fffdf4"/><circle cx="40.4" cy="20" r="0.9" fill="#111"/>'
        f'<path d="M34 14 Q36 7 31 6 Q33 10 32 14 Z" fill="{RED}"/>'
    )


def bamboo(n: int) -> str:
    if n == 1:
        return bird()
    w = 7 if n == 8 else 8.5
    return "".join(stick(x, y, h, c, w) for x, y, h, c in STICKS[n])


# --- honours and flowers -------------------------------------------------------------------


def honour(n: int) -> str:
    if n <= 4:
        return text(30, 40, "东南西北"[n - 1], 40, NAVY)
    if n == 5:  # 白: a blue frame
        return (
            f'<rect x="11" y="13" width="38" height="52" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="4"/>'
            f'<rect x="17" y="19" width="26" height="40" rx="2" fill="none" stroke="{BLUE}" '
            'stroke-width="1.5"/>'
        )
    if n == 6:
        return text(30, 40, "发", 42, GREEN)
    return text(30, 40, "中", 42, RED)


def flower(n: int) -> str:
    seasons = n <= 4
    colour = GREEN if seasons else BLUE
    accent = RED
    petals = "".join(
        f'<ellipse cx="48" cy="10" rx="2.2" ry="4" fill="{accent}" transform="rotate({a} 48 14)"/>'
        for a in (0, 72, 144, 216, 288)
    )
    return (
        f'<text x="6" y="13" font-family="sans-serif" font-size="11" font-weight="700" fill="{accent}">'
        f"{(n - 1) % 4 + 1}</text>"
        + petals
        + f'<circle cx="48" cy="14" r="1.8" fill="{"#e0b84f"}"/>'
        + text(30, 46, "春夏秋冬梅兰竹菊"[n - 1], 34, colour)
        + f'<path d="M12 70 Q30 62 48 70" stroke="{colour}" stroke-width="1.6" fill="none"/>'
    )


def back() -> str:
    """The tile back: the face in the back's green with a fine diamond lattice (the edge is ivory)."""
    lines = "".join(
        f'<path d="M{x} 6 L{x + 36} 72 M{x + 36} 6 L{x} 72" stroke="#2fa36b" '
        'stroke-width="1" opacity="0.45"/>'
        for x in range(-24, 60, 12)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img">'
        "<title>牌背 Tile back</title>"
        '<defs><clipPath id="c"><rect x="6" y="6" width="48" height="67" rx="4"/></clipPath></defs>'
        f'<rect x="0.5" y="4" width="{W - 1}" height="{H - 4.5}" rx="7" fill="#e9dfc0" stroke="#a89f80"/>'
        f'<rect x="0.5" y="0.5" width="{W - 1}" height="{FACE_H}" rx="7" fill="#1f7a4f" stroke="#0e4a2e"/>'
        f'<g clip-path="url(#c)">{lines}</g>'
        '<rect x="6" y="6" width="48" height="67" rx="4" fill="none" stroke="#2fa36b" stroke-width="1.5"/>'
        "</svg>\n"
    )


DRAWERS: dict[str, Callable[[int], str]] = {"m": characters, "p": dots, "s": bamboo, "z": honour, "f": flower}
COUNTS = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from games.rendering.labels import tile_label

    OUT.mkdir(parents=True, exist_ok=True)
    written = 0
    for suit, count in COUNTS.items():
        for n in range(1, count + 1):
            name = f"{n}{suit}"
            (OUT / f"{name}.svg").write_text(frame(DRAWERS[suit](n), tile_label(name)), encoding="utf-8")
            written += 1
    (OUT / "back.svg").write_text(back(), encoding="utf-8")
    print(f"wrote {written + 1} tiles to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
