"""Property tests (hypothesis) for shanghai and yihua scoring.

Random winning hands are built the way a hand is won: four groups (runs or
pungs) and a pair, some groups declared as chi / pong / kongs, the winning
tile taken from the concealed part. For every such hand:
- a win's payments sum to zero and the winner gains exactly what the others lose;
- no value (total, breakdown, payment sign) is negative;
- the chosen reading is never worse than any other reading scored alone.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.__main__ import score_case
from games.engine.scoring import shanghai as sh
from games.engine.scoring import yihua as yh
from games.engine.scoring.context import WinContext
from games.engine.tiles import FLOWERS, HONOR, KINDS, format_tiles

RUN_STARTS = [t for t in range(HONOR) if t % 9 <= 6]
SETTINGS = settings(max_examples=300, deadline=None)


@st.composite
def flowers(draw: st.DrawFn, most: int = 8) -> str:
    chosen = draw(st.lists(st.sampled_from(FLOWERS), unique=True, max_size=most))
    return format_tiles(sorted(chosen))


@st.composite
def table(draw: st.DrawFn, variant: str) -> dict[str, Any]:
    """Who wins, how, and the table facts around it."""
    seat = draw(st.integers(0, 3))
    by = draw(st.sampled_from(["self_draw", "discard", "robbing_kong"]))
    data: dict[str, Any] = {"variant": variant, "seat": seat, "dealer": draw(st.integers(0, 3)), "by": by}
    if by != "self_draw":
        data["from"] = draw(st.sampled_from([s for s in range(4) if s != seat]))
    data["after_kong"] = draw(st.booleans())
    data["after_flower"] = draw(st.booleans())
    data["first_turn"] = draw(st.booleans())
    if variant == "shanghai":
        data["base"] = draw(st.integers(1, 5))
        data["huangfan"] = draw(st.booleans())
        pairs = [(c, d) for c in range(4) for d in range(4) if c != d]
        data["claims"] = [[c, d, draw(st.integers(0, 5))] for c, d in draw(st.lists(st.sampled_from(pairs)))]
    else:
        data["base"] = 2 * draw(st.integers(1, 10))
    return data


@st.composite
def normal_hand(draw: st.DrawFn) -> dict[str, Any]:
    """Tiles of a normal winning shape: concealed, win_tile, melds."""
    counts = [0] * KINDS
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        options = [("pung", t) for t in range(KINDS) if counts[t] <= 1]
        options += [("run", t) for t in RUN_STARTS if all(counts[t + i] <= 3 for i in range(3))]
        kind, t = draw(st.sampled_from(options))
        for x in (t, t + 1, t + 2) if kind == "run" else (t, t, t):
            counts[x] += 1
        groups.append((kind, t))
    pair = draw(st.sampled_from([t for t in range(KINDS) if counts[t] <= 2]))
    counts[pair] += 2
    concealed = [pair, pair]
    melds = []
    for kind, t in groups:
        tiles = [t, t + 1, t + 2] if kind == "run" else [t, t, t]
        if not draw(st.booleans()):
            concealed.extend(tiles)
            continue
        if kind == "run":
            melds.append({"kind": "chi", "tiles": format_tiles(tiles), "from": draw(st.integers(0, 3))})
            continue
        kinds = ["pong"] + (["kong", "added_kong", "concealed_kong"] if counts[t] == 3 else [])
        mk = draw(st.sampled_from(kinds))
        if mk != "pong":
            counts[t] += 1
            tiles.append(t)
        m: dict[str, Any] = {"kind": mk, "tiles": format_tiles(tiles)}
        if mk != "concealed_kong":
            m["from"] = draw(st.integers(0, 3))
        melds.append(m)
    concealed.sort()
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return {"concealed": format_tiles(concealed), "win_tile": format_tiles([win]), "melds": melds}


@st.composite
def seven_pairs_hand(draw: st.DrawFn) -> dict[str, Any]:
    counts = [0] * KINDS
    tiles: list[int] = []
    for _ in range(7):
        t = draw(st.sampled_from([t for t in range(KINDS) if counts[t] <= 2]))
        counts[t] += 2
        tiles += [t, t]
    tiles.sort()
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    return {"concealed": format_tiles(tiles), "win_tile": format_tiles([win]), "melds": []}


@st.composite
def any_tiles(draw: st.DrawFn, kinds: list[int]) -> dict[str, Any]:
    """Fourteen concealed tiles drawn from `kinds` (at most four of each)."""
    pool = [t for t in kinds for _ in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=14, max_size=14, unique=True))
    tiles = sorted(pool[i] for i in idx)
    win = tiles.pop(draw(st.integers(0, 13)))
    return {"concealed": format_tiles(tiles), "win_tile": format_tiles([win]), "melds": []}


def check_result(out: dict[str, Any], data: dict[str, Any]) -> None:
    pay = out["payments"]
    assert len(pay) == 4
    assert sum(pay) == 0
    assert out["value"] >= 0
    assert all(v >= 0 for _, v in out.get("breakdown", []))
    if not out["win"]:
        assert pay == [0, 0, 0, 0]
        return
    seat = data["seat"]
    assert out["value"] > 0
    assert pay[seat] > 0
    assert all(p <= 0 for s, p in enumerate(pay) if s != seat)
    if data["by"] != "self_draw":
        assert pay[data["from"]] < 0


# ---------------------------------------------------------------------------
# shanghai


def _shanghai_readings_check(data: dict[str, Any], out: dict[str, Any]) -> None:
    ctx = WinContext.from_json(data)
    values = [sh.value_of(r).value for r in sh.readings(ctx)]
    assert values, "a win must have at least one reading"
    assert max(values) == out["value"]
    assert all(v <= out["value"] for v in values)


@SETTINGS
@given(hand=normal_hand(), where=table("shanghai"), fl=flowers(most=7))
def test_shanghai_normal_wins(hand: dict[str, Any], where: dict[str, Any], fl: str) -> None:
    data = {**where, **hand, "flowers": fl}
    out = score_case(data)
    assert out["win"] is True
    check_result(out, data)
    _shanghai_readings_check(data, out)
    # the unit is the final flowers × base: the discarder (or each payer) pays a whole number of units
    assert all(p % (out["value"] * data["base"]) == 0 for p in out["payments"])


@SETTINGS
@given(hand=any_tiles(list(range(KINDS))), where=table("shanghai"))
def test_shanghai_eight_flowers_always_win(hand: dict[str, Any], where: dict[str, Any]) -> None:
    data = {**where, **hand, "flowers": "1f2f3f4f5f6f7f8f"}
    out = score_case(data)
    assert out["win"] is True
    assert "eight_flowers" in out["patterns"]
    assert out["value"] >= 300
    check_result(out, data)
    _shanghai_readings_check(data, out)


@SETTINGS
@given(hand=any_tiles(list(range(HONOR, KINDS))), where=table("shanghai"), fl=flowers(most=7))
def test_shanghai_all_honours_always_win(hand: dict[str, Any], where: dict[str, Any], fl: str) -> None:
    data = {**where, **hand, "flowers": fl}
    out = score_case(data)
    assert out["win"] is True
    assert "honours_any" in out["patterns"]
    assert out["value"] >= 100
    check_result(out, data)
    _shanghai_readings_check(data, out)


# ---------------------------------------------------------------------------
# yihua


def _yihua_check(data: dict[str, Any]) -> None:
    out = score_case(data)
    check_result(out, data)
    ctx = WinContext.from_json(data)
    cap = 10 * data["base"]
    if len(ctx.flowers) == 8:
        assert out["value"] == cap
        return
    valuations = [yh.value_of(r) for r in yh.readings(ctx)]
    assert valuations
    best = max(v.value for v in valuations)
    assert all(0 < v.value <= cap for v in valuations)
    if out["win"]:
        assert out["value"] == best
    else:
        # only the one-flower minimum may refuse a winning shape, and only on a discard
        assert out["reason"] == "one_flower_minimum"
        assert data["by"] == "discard"
        assert not any(v.meets_minimum for v in valuations)


@SETTINGS
@given(hand=normal_hand(), where=table("yihua"), fl=flowers())
def test_yihua_normal_wins(hand: dict[str, Any], where: dict[str, Any], fl: str) -> None:
    _yihua_check({**where, **hand, "flowers": fl})


@SETTINGS
@given(hand=seven_pairs_hand(), where=table("yihua"), fl=flowers(most=7))
def test_yihua_seven_pairs_wins(hand: dict[str, Any], where: dict[str, Any], fl: str) -> None:
    data = {**where, **hand, "flowers": fl}
    out = score_case(data)
    assert out["win"] is True  # seven pairs is 2 fan, so even a discard win passes the minimum
    assert "seven_pairs" in out["patterns"] or out["value"] == 10 * data["base"]
    _yihua_check(data)
