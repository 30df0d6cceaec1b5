"""Property tests for 广东鸡平和 scoring: any winning hand settles to zero (RULES §4.6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.scoring.cantonese import score
from games.engine.scoring.context import WinContext
from games.engine.state import Meld


@st.composite
def winning_contexts(draw: st.DrawFn) -> WinContext:
    groups = []
    for _ in range(4):
        if draw(st.booleans()):
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            groups.append(("run", tuple(range(suit * 9 + start, suit * 9 + start + 3))))
        else:
            t = draw(st.integers(0, 33))
            groups.append(("pung", (t, t, t)))
    pair = draw(st.integers(0, 33))
    tiles = [t for _, g in groups for t in g] + [pair, pair]
    counts = Counter(tiles)
    declared = draw(st.integers(0, 4))
    kong_kinds = []
    melds = []
    seat, dealer = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    others = [s for s in range(4) if s != seat]
    for kind, g in groups[:declared]:
        if kind == "run":
            melds.append(Meld("chi", g, draw(st.sampled_from(others))))
            continue
        mk = draw(st.sampled_from(["pong", "kong", "added_kong", "concealed_kong"]))
        if mk != "pong":
            kong_kinds.append(g[0])
            g = g + g[:1]
        melds.append(Meld(mk, g, None if mk == "concealed_kong" else draw(st.sampled_from(others))))
    for t in kong_kinds:
        counts[t] += 1
    if any(c > 4 for c in counts.values()):
        tiles = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]  # nine gates: always legal
        melds = []
    concealed = [t for _, g in groups[declared:] for t in g] + [pair, pair] if melds else list(tiles)
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    by = draw(st.sampled_from(["self_draw", "discard", "robbing_kong"]))
    kw: dict[str, Any] = {}
    if by != "self_draw":
        kw["from_seat"] = draw(st.sampled_from(others))
        kw["triple_win"] = by == "discard" and draw(st.booleans())
    else:
        kw["after_kong"] = draw(st.booleans())
        kw["kong_from"] = draw(st.none() | st.sampled_from(others))
        kw["last_tile"] = draw(st.booleans())
        kw["liability"] = draw(
            st.none()
            | st.tuples(
                st.sampled_from(["twelve_tiles", "none", "big_three_dragons"]), st.sampled_from(others)
            )
        )
    return WinContext(
        variant="cantonese",
        concealed=tuple(concealed),
        win_tile=win,
        seat=seat,
        dealer=dealer,
        melds=tuple(melds),
        by=by,
        first_turn=draw(st.booleans()),
        round_wind=draw(st.integers(27, 30)),
        base=draw(st.sampled_from([1, 2, 5])),
        **kw,
    )


@settings(max_examples=300, deadline=None)
@given(winning_contexts())
def test_every_win_settles_to_zero(ctx: WinContext) -> None:
    out = score(ctx)
    assert out.win
    assert sum(out.payments) == 0
    assert out.payments[ctx.seat] > 0
    # value = 2^fan × base with 0 ≤ fan ≤ 6 (§4.6)
    fan = (out.value // ctx.base).bit_length() - 1
    assert out.value == 2**fan * ctx.base and 0 <= fan <= 6
    # a raiser means at least 3 fan (§4.5)
    if {"kong_bloom", "last_tile", "robbing_kong", "triple_win"} & set(out.patterns):
        assert fan >= 3
    # within the cap (no special hand) the fan never passes 3 (§4.3)
    specials_fan = dict(out.breakdown)
    if not any(specials_fan.get(p, 0) >= 4 for p in specials_fan):
        assert fan <= 3
