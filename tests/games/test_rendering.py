"""The board HTML for a player and a spectator, mid-hand and at the settlement.

Contexts are built by hand (the contract of docs/protocol.md §1) around real engine
states, so these tests need no database.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine.actions import replay
from games.engine.simulate import play_hand
from games.engine.view import legal_json, view_for
from games.rendering import board
from games.rendering.board import board_model
from games.rendering.fragments import render_lobby_html, render_table_html
from games.rendering.labels import VARIANT_NAMES, pattern_name, split_tiles, tile_label

ROOT = Path(__file__).resolve().parents[2]
WINDS = ("1z", "2z", "3z", "4z")
NAMES = ("alice", "bob", "carol", "dave")


def table_info(n: int = 4, me: int | None = 0, phase: str = "playing", **extra: Any) -> dict[str, Any]:
    seats = [
        {
            "index": i,
            "wind": WINDS[i],
            "wind_zh": "东南西北"[i],
            "name": NAMES[i],
            "is_bot": i == 3,
            "is_you": i == me,
            "accepted": True,
            "connected": True,
            "balance": 1000 + i,
            "continue": None,
            "auto": False,
            "left": False,
            "pending": None,
        }
        for i in range(n)
    ]
    info = {
        "id": 7,
        "variant": "shanghai",
        "variant_name_zh": "上海麻将",
        "variant_name_en": "Shanghai",
        "name": "上海麻将 #7",
        "base": 2,
        "stake_state": "fixed",
        "owner": "alice",
        "public": True,
        "invite": None,
        "status": "playing",
        "phase": phase,
        "version": 41,
        "hand_number": 1,
        "dealer": 0,
        "round_wind": "1z",
        "timers": {"turn": 15, "claim": 8},
        "deadline_ms": 12400,
        "paused": False,
        "seats": seats,
        "spectators": 1,
        "message": None,
        "last_result": None,
    }
    info.update(extra)
    return info


def context(
    state: Any,
    seat: int | None,
    table: dict[str, Any] | None = None,
    extra_legal: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    n = state.num_players
    return {
        "table": table or table_info(n, seat),
        "view": view_for(state, seat),
        "legal": legal_json(state, seat) + (extra_legal or []),
        "viewer": {"user": NAMES[seat] if seat is not None else None, "seat": seat},
    }


def hand_tiles_in(html: str) -> list[str]:
    """The tiles drawn as someone's concealed hand (my hand, or opened hands)."""
    return re.findall(r'class="tile hand-tile[^"]*"[^>]*data-tile="(\w\w)"', html)


def concealed_sections(html: str) -> list[str]:
    return re.findall(r'<div class="concealed[^"]*">(.*?)</div>', html, re.S)


@pytest.fixture(scope="module")
def shanghai_hand() -> tuple[Any, list[Any]]:
    _, log, _ = play_hand("shanghai", 5)
    return replay("shanghai", 5, log[:40])[0], log


# --- tiles --------------------------------------------------------------------------------


def test_every_tile_has_an_svg_and_a_bilingual_label() -> None:
    names = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    names += [f"{n}z" for n in range(1, 8)] + [f"{n}f" for n in range(1, 9)]
    for name in names:
        svg = (ROOT / "static" / "games" / "tiles" / f"{name}.svg").read_text()
        assert svg.startswith("<svg") and tile_label(name) in svg
    assert (ROOT / "static" / "games" / "tiles" / "back.svg").exists()
    assert tile_label("5m") == "五万 5 Characters"
    assert tile_label("1z") == "东风 East wind"
    assert tile_label("6z") == "发财 Green dragon"
    assert tile_label("8f") == "菊 Chrysanthemum (flower 8)"


def test_split_tiles_reads_compact_notation() -> None:
    assert split_tiles("345m") == ["3m", "4m", "5m"]
    assert split_tiles("718f") == ["7f", "1f", "8f"]
    assert split_tiles("11m5z") == ["1m", "1m", "5z"]
    assert split_tiles("") == []


def test_pattern_names_come_from_the_variants_catalogue() -> None:
    # the same id is named as each variant's engine names it (it said 碰碰胡 everywhere)
    assert pattern_name("all_pungs", "yihua")["zh"] == "对对胡"
    assert pattern_name("all_pungs", "cantonese")["zh"] == "碰碰和"
    assert pattern_name("all_pungs", "shanghai")["zh"] == "碰碰胡"
    assert pattern_name("all_pungs", "cantonese")["href"] == "/rules/cantonese/#pattern-all_pungs"


def test_every_scored_pattern_has_names_and_a_rules_link() -> None:
    from games.engine import patterns
    from games.engine.scoring import two_player

    for variant in patterns.VARIANTS:
        for p in patterns.catalogue(variant):
            name = pattern_name(p.id, variant)
            assert (name["zh"], name["en"]) == (p.name_zh, p.name_en)
            assert name["href"].endswith(f"/rules/{variant}/#pattern-{p.id}")
    for fan in two_player.FANS:
        assert "href" in pattern_name(fan.id, "two_player")


def test_bookkeeping_lines_are_named_without_a_link() -> None:
    expected = {"id": "base_flowers", "zh": "底花", "en": "Base flowers"}
    assert pattern_name("base_flowers", "shanghai") == expected
    assert pattern_name("huangfan", "shanghai")["zh"] == "荒番"
    assert pattern_name("mystery", "shanghai") == {"id": "mystery", "zh": "mystery", "en": "mystery"}


def test_a_pattern_named_without_its_variant_still_gets_a_name() -> None:
    assert pattern_name("single_wait") == {"id": "single_wait", "zh": "独吊", "en": "Single wait"}


# --- a player mid-hand ----------------------------------------------------------------------


def test_player_sees_own_hand_and_only_backs_of_others(shanghai_hand: tuple[Any, list[Any]]) -> None:
    state, _ = shanghai_hand
    html = render_table_html(context(state, 1))
    mine = view_for(state, 1)["seats"][1]["hand"]
    assert sorted(hand_tiles_in(html)) == sorted(mine)
    for section in concealed_sections(html):  # the other three seats: backs only
        assert "data-tile" not in section
        assert "back.svg" in section


def test_parts_are_out_of_band_swaps(shanghai_hand: tuple[Any, list[Any]]) -> None:
    state, _ = shanghai_hand
    html = render_table_html(context(state, 1))
    for part in ("table-status", "settlement", "board", "table-side"):
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"', html), part
    assert '"version": 41' in html  # every send carries the version it was rendered at
    assert re.search(r'id="balance" hx-swap-oob="true"', html)  # the header balance follows


def test_claim_prompt_shows_only_legal_options(shanghai_hand: tuple[Any, list[Any]]) -> None:
    state, _ = shanghai_hand  # step 40: seat 2 may chi 234m or 345m; seat 3 may kong or pong 4m
    html2 = render_table_html(context(state, 2))
    chis = re.findall(r'value="(\{&quot;type&quot;:&quot;chi&quot;[^"]*)"', html2)
    assert len(chis) == 2  # a choice of runs
    assert "type-pong" not in html2 and "type-kong" not in html2 and "type-win" not in html2
    assert "type-pass" in html2
    html3 = render_table_html(context(state, 3))
    assert "type-pong" in html3 and "type-kong" in html3 and "type-chi" not in html3
    html1 = render_table_html(context(state, 1))  # the discarder has nothing to answer
    assert "type-pass" not in html1 and "type-pong" not in html1


def test_action_buttons_send_the_legal_entry_unchanged(shanghai_hand: tuple[Any, list[Any]]) -> None:
    state, _ = shanghai_hand
    html = render_table_html(context(state, 2))
    sent = [
        json.loads(v.replace("&quot;", '"'))
        for v in re.findall(r'ws-send name="action" value="([^"]*)"', html)
    ]
    assert sorted(sent, key=json.dumps) == sorted(legal_json(state, 2), key=json.dumps)


def test_own_turn_tiles_are_discard_buttons_with_drawn_tile_apart() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:30])  # seat 2's turn after a draw
    seat = state.turn
    html = render_table_html(context(state, seat))
    view = view_for(state, seat)["seats"][seat]
    discards = {a["tile"] for a in legal_json(state, seat) if a["type"] == "discard"}
    buttons = re.findall(
        r'<button type="button" class="tile hand-tile[^"]*" ws-send[^>]*data-tile="(\w\w)"', html
    )
    assert set(buttons) == discards
    assert 'class="drawn-gap"' in html and view["drawn"]
    after_gap = html.split('class="drawn-gap"')[1]
    assert f'data-tile="{view["drawn"]}"' in after_gap.split("</div>")[0]
    assert "type-kong" in html  # the added kong on his own turn is a prompt button


def test_forbidden_tiles_are_disabled_with_a_reason() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:30])
    seat = state.turn
    view = view_for(state, seat)
    hand = view["seats"][seat]["hand"]
    forbidden = hand[0]
    ctx = context(state, seat)
    ctx["view"]["seats"][seat]["forbidden"] = [forbidden]
    ctx["legal"] = [a for a in ctx["legal"] if a.get("tile") != forbidden or a["type"] != "discard"]
    html = render_table_html(ctx)
    disabled = re.findall(
        r'class="tile hand-tile disabled[^"]*" aria-disabled="true" data-tile="(\w\w)" '
        r'data-reason="([^"]*)"',
        html,
    )
    assert {t for t, _ in disabled} == {forbidden}
    assert all("吃后不能打这张" in reason for _, reason in disabled)
    assert not re.search(
        rf'ws-send name="action" value="[^"]*{forbidden}[^"]*"[^>]*data-tile="{forbidden}"', html
    )


# --- a spectator ----------------------------------------------------------------------------


@pytest.mark.parametrize("steps", [10, 24, 40, 55])
def test_spectator_never_sees_a_concealed_tile(steps: int) -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:steps])
    html = render_table_html(context(state, None, table_info(4, None)))
    assert hand_tiles_in(html) == []
    for section in concealed_sections(html):
        assert "data-tile" not in section
    assert "ws-send" not in html  # nothing to do
    assert "banner watching" in html
    assert 'id="balance"' not in html


def test_seat_view_never_shows_other_hands_as_hand_tiles() -> None:
    _, log, _ = play_hand("shanghai", 9)
    state, _ = replay("shanghai", 9, log[:20])
    for me in range(4):
        html = render_table_html(context(state, me))
        assert sorted(hand_tiles_in(html)) == sorted(view_for(state, me)["seats"][me]["hand"])


def test_two_player_board_has_two_seats_top_and_bottom() -> None:
    state, log, _ = play_hand("two_player", 3)
    mid, _ = replay("two_player", 3, log[:8])
    model = board_model(context(mid, 0))
    assert [s["position"] for s in model["seats"]] == ["bottom", "top"]
    html = render_table_html(context(mid, 0))
    assert "players-2" in html


def test_ready_discards_get_their_own_prompt() -> None:
    _, log, _ = play_hand("two_player", 3)
    mid = next(
        st for st in (replay("two_player", 3, log[:k])[0] for k in range(len(log))) if st.phase == "turn"
    )
    seat = mid.turn
    ctx = context(mid, seat, table_info(2, seat, variant="two_player"))
    tile = next(a["tile"] for a in ctx["legal"] if a["type"] == "discard")
    ctx["legal"].append({"type": "discard", "tile": tile, "ready": True})
    html = render_table_html(ctx)
    assert "ready-row" in html and "&quot;ready&quot;:true" in html


# --- table actions and the settlement ------------------------------------------------------


def test_waiting_table_shows_seat_buttons_and_stake_flow() -> None:
    table = table_info(4, None, phase="waiting", status="waiting", stake_state="proposed", deadline_ms=None)
    table["seats"][2].update(name=None, is_bot=False, balance=None, accepted=False)
    legal = [
        {"type": "sit", "seat": 2},
        {"type": "set_stake", "base": 2, "even": True},
        {"type": "accept_stake"},
        {"type": "add_bot", "seat": 2},
    ]
    html = render_table_html(
        {"table": table, "view": None, "legal": legal, "viewer": {"user": "eve", "seat": None}}
    )
    assert "Sit here 西" in html or "西" in html
    assert "&quot;type&quot;:&quot;sit&quot;,&quot;seat&quot;:2" in html
    assert 'data-merge="base"' in html and 'step="2"' in html
    assert "accept_stake" in html and "add_bot" in html
    assert "start" not in re.findall(r"&quot;type&quot;:&quot;(\w+)&quot;", html)


def test_the_waiting_note_says_what_the_table_waits_for() -> None:
    """Not "waiting for every seat to be filled" when every seat is taken and Start is offered."""

    def note(table: dict[str, Any], legal: list[dict[str, Any]]) -> str:
        html = render_table_html(
            {"table": table, "view": None, "legal": legal, "viewer": {"user": "alice", "seat": 0}},
            "en",
        )
        found = re.search(r'<p class="waiting-note">(.*?)</p>', html, re.S)
        assert found, html
        return found.group(1)

    full = table_info(4, 0, phase="waiting", status="waiting", deadline_ms=None)
    assert "start when you are ready" in note(full, [{"type": "start"}])
    assert "every seat to be filled" not in note(full, [{"type": "start"}])
    assert "stake to be agreed" in note(full, [])
    empty = table_info(4, 0, phase="waiting", status="waiting", deadline_ms=None)
    empty["seats"][2].update(name=None, is_bot=False)
    assert "every seat to be filled" in note(empty, [])


def test_settlement_lists_patterns_payments_and_balances() -> None:
    state, _, _ = play_hand("shanghai", 5)  # seat 0 wins on seat 3's discard
    view = view_for(state, None)
    result = view["result"]
    table = table_info(
        4,
        1,
        phase="hand_over",
        last_result={
            "hand": 1,
            "result": result,
            "payments": [12, 0, 0, -12],
            "balances": [1012, 1001, 1002, 991],
            "penalties": [],
            "hands": None,
        },
        message="您的积分不足，不能进行下一局",
    )
    html = render_table_html(
        {
            "table": table,
            "view": view_for(state, 1),
            "legal": [{"type": "continue"}, {"type": "leave"}],
            "viewer": {"user": "bob", "seat": 1},
        },
        "en",
    )
    settlement = html.split('id="settlement"')[1].split("</section>")[0]
    assert "底花" in settlement and "Base flowers" in settlement
    # the Chinese page names patterns in Chinese alone (not "底花 Base flowers")
    zh_html = render_table_html(
        {"table": table, "view": view_for(state, 1), "legal": [], "viewer": {"user": "bob", "seat": 1}},
        "zh-hans",
    )
    assert "底花" in zh_html and "Base flowers" not in zh_html and " Characters" not in zh_html
    # each seat's flowers are in its row, so "Base flowers n" can be checked
    rows = re.findall(r"<tr class=.*?</tr>", settlement, re.S)
    for i, seat in enumerate(view["seats"]):
        for flower in split_tiles(seat.get("flowers")):
            assert any(f'data-tile="{flower}"' in row for row in rows), (i, flower)
    assert any(split_tiles(s.get("flowers")) for s in view["seats"])  # the hand had flowers to show
    # each pattern links to its entry on the rules page; bookkeeping lines (底花) do not
    for pid, _value in result["scores"][0]["breakdown"]:
        if pid != "base_flowers":
            assert f'href="/rules/shanghai/#pattern-{pid}"' in settlement
    assert "#pattern-base_flowers" not in settlement
    assert "+12" in settlement and "-12" in settlement and "1012" in settlement and "991" in settlement
    assert "You do not have enough points for the next hand." in settlement  # the stored notice, in English
    assert "continue" in settlement and "leave" in settlement
    for i in range(4):  # every hand opened
        for t in view["seats"][i]["hand"]:
            assert f'data-tile="{t}"' in settlement


def test_drawn_hand_settlement() -> None:
    state, _, _ = play_hand("shanghai", 5)
    ctx = context(state, 0, table_info(4, 0, phase="hand_over"))
    ctx["view"]["result"] = {
        "winners": [],
        "drawn": True,
        "by": None,
        "from": None,
        "win_tile": None,
        "scores": [],
        "extras": [],
        "payments": [0, 0, 0, 0],
        "next_dealer": 0,
    }
    html = render_table_html(ctx)
    assert "荒牌" in html
    assert "Base flowers" not in html


def test_jokers_indicator_and_discarded_joker_are_marked() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:40])
    ctx = context(state, 1, table_info(4, 1, variant="tianjin"))
    hand = ctx["view"]["seats"][1]["hand"]
    ctx["view"]["jokers"] = [hand[0]]
    ctx["view"]["indicator"] = "9s"
    ctx["view"]["seats"][2]["discarded_joker"] = True
    html = render_table_html(ctx)
    assert "翻牌" in html and 'data-tile="9s"' in html
    assert re.search(rf'class="tile hand-tile joker"[^>]*data-tile="{hand[0]}"', html)
    assert "小相公" in html


def test_undo_and_pending_claim() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:40])
    table = table_info(4, 3)
    table["seats"][3]["pending"] = {"type": "pong", "tile": "4m"}
    ctx = context(state, 3, table)
    ctx["legal"] = [{"type": "auto", "on": True}, {"type": "leave"}, {"type": "undo"}]
    html = render_table_html(ctx)
    assert "act undo" in html
    assert "type-pong" not in html
    # said in words with the tile's image, never in engine codes ("pong 4m")
    held = re.search(r'<p class="pending">(.*?)</p>', html, re.S)
    assert held, html
    assert "碰" in held.group(1) and 'data-tile="4m"' in held.group(1)
    assert not re.search(r">\s*(pong|4m)\b", held.group(1))


def test_a_held_chi_shows_its_run_as_tiles() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:40])
    table = table_info(4, 3)
    table["seats"][3]["pending"] = {"type": "chi", "tile": "4m", "tiles": "3m4m5m"}
    ctx = context(state, 3, table)
    ctx["legal"] = [{"type": "undo"}]
    held = re.search(r'<p class="pending">(.*?)</p>', render_table_html(ctx), re.S)
    assert held and "吃" in held.group(1)
    assert re.findall(r'data-tile="(\w+)"', held.group(1)) == ["3m", "4m", "5m"]
    assert "chi 4m" not in held.group(1)


def test_your_own_clock_stands_beside_your_hand_not_in_the_centre() -> None:
    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:42])  # seat 2 to discard
    assert state.phase == "turn"
    mover = state.turn
    html = render_table_html(context(state, mover, table_info(4, mover)))
    me = html[html.index('class="seat pos-bottom me') :]
    timer = r'<div class="hand-row">.*class="my-timer".*class="countdown mine" data-ms="12400"'
    assert re.search(timer, me, re.S)
    assert 'class="countdown"' not in html[: html.index('class="seat pos-bottom me')]  # not in the centre
    other = (mover + 1) % 4
    html = render_table_html(context(state, other, table_info(4, other)))
    assert "my-timer" not in html
    assert 'class="countdown" data-ms="12400"' in html  # someone else's move: the centre's clock


def test_lobby_html_groups_tables_by_variant() -> None:
    tables = [
        {
            "id": 1,
            "variant": "shanghai",
            "owner": "alice",
            "base": 2,
            "stake_state": "fixed",
            "seats_taken": 4,
            "seats_total": 4,
            "free": 0,
            "spectators": 3,
            "status": "playing",
            "public": True,
            "seats": [{"index": i, "wind_zh": "东南西北"[i], "name": "x", "is_bot": False} for i in range(4)],
        },
        {
            "id": 2,
            "variant": "two_player",
            "owner": "bob",
            "base": 1,
            "stake_state": "proposed",
            "seats_taken": 1,
            "seats_total": 2,
            "free": 1,
            "spectators": 0,
            "status": "waiting",
            "public": True,
            "seats": [
                {"index": 0, "wind_zh": "东", "name": "bob", "is_bot": False},
                {"index": 1, "wind_zh": "南", "name": None, "is_bot": False},
            ],
        },
    ]
    html = render_lobby_html(tables)
    assert 'id="lobby-tables"' in html and 'hx-swap-oob="true"' in html
    assert html.index("上海麻将") < html.index("二人麻将")
    assert 'data-table="1"' in html and 'data-table="2"' in html
    free = render_lobby_html(tables, free_only=True)
    assert 'data-table="1"' not in free and 'data-table="2"' in free
    only = render_lobby_html(tables, variant="shanghai")
    assert "二人麻将" not in only


def test_rendering_module_is_variant_generic() -> None:
    assert set(VARIANT_NAMES) == {"shanghai", "yihua", "cantonese", "tianjin", "two_player"}


def test_language_follows_the_socket_cookie_or_accept_language() -> None:
    from games.rendering.fragments import language_from_scope

    assert language_from_scope({"headers": [(b"accept-language", b"en-US,en;q=0.9")]}) == "en"
    assert language_from_scope({"headers": [(b"accept-language", b"zh-CN")]}) == "zh-hans"
    cookie = [(b"cookie", b"django_language=en; sessionid=x"), (b"accept-language", b"zh-CN")]
    assert language_from_scope({"headers": cookie}) == "en"
    assert language_from_scope({"headers": []}) == "zh-hans"


def test_render_in_the_viewers_language(shanghai_hand: tuple[Any, list[Any]]) -> None:
    state, _ = shanghai_hand
    ctx = context(state, 2)
    assert "Pass 过" in render_table_html(ctx, "en")
    zh = render_table_html(ctx, "zh-hans")
    assert "过" in zh and "Pass 过" not in zh


# --- the waits help -------------------------------------------------------------------------


def test_a_ready_hand_shows_its_waits_with_unseen_counts_in_both_languages() -> None:
    from django.utils import translation

    from tests.engine.test_waits import after_dealer_discard

    state = after_dealer_discard("yihua", "123m456m789p23s55z", "9s", "9s", base=2)
    ctx = context(state, 0, table_info(4, 0, variant="yihua"))
    with translation.override("en"):
        html = render_table_html(ctx)
    strip = html.split('class="waits"')[1].split("</div>")[0]
    assert re.findall(r'data-tile="(\w\w)"', strip) == ["1s", "4s"]
    assert strip.count("4 left") == 2
    assert "at least one flower" in strip  # why a discard of 1s/4s would not win
    with translation.override("zh-hans"):
        html = render_table_html(ctx)
    assert "听牌" in html and "剩 4 张" in html and "一花起胡：至少一朵花" in html
    spectator = render_table_html(context(state, None))
    assert 'class="waits"' not in spectator  # the help is the seat's own


def test_each_discard_that_keeps_the_hand_ready_says_what_it_would_wait_on() -> None:
    from django.utils import translation

    from games.engine.scenario import scenario

    others = ["147m258p369s1234z", "258m369p147s1234z", "369m147p258s1234z"]
    state = scenario("cantonese", hands=["123m456m789p23s55z", *others], draws="4s")
    with translation.override("en"):
        html = render_table_html(context(state, 0, table_info(4, 0, variant="cantonese")))
    hints = dict(re.findall(r'data-tile="(\w\w)" data-waits="([^"]*)"', html))
    assert "2s" in hints and "×4" in hints["2s"] and "then waiting on" in hints["2s"]
    assert hints["5z"].count("×") == 1  # a single wait on the other white dragon


def test_a_claim_offered_marks_the_discard_on_the_claimants_board_only(
    shanghai_hand: tuple[Any, list[Any]],
) -> None:
    from games.engine.actions import replay as replay_log

    _, log = shanghai_hand
    for count in range(1, len(log)):
        state, _ = replay_log("shanghai", 5, log[:count])
        if state.phase == "claim" and state.window is not None and state.window.waiting_for():
            break
    else:
        pytest.skip("no claim window in this hand")
    claimant = state.window.waiting_for()[0]
    html = render_table_html(context(state, claimant))
    board_tag = re.search(r'<div id="board" class="([^"]*)"', html)
    assert board_tag and "claim-open" in board_tag.group(1).split() and 'class="countdown-bar"' in html
    others = [s for s in range(4) if s not in state.window.waiting_for()]
    for seat in [*others, None]:
        board = render_table_html(context(state, seat))
        assert "claim-open" not in board and "countdown-bar" not in board


def test_settlement_shows_each_winners_arithmetic_in_the_viewers_language() -> None:
    state, _, _ = play_hand("shanghai", 5)  # seat 0 wins on seat 3's discard
    result = view_for(state, None)["result"]
    last = {"hand": 1, "result": result, "base": 2, "payments": result["payments"], "penalties": []}
    score = result["scores"][0]
    paid = -min(score["payments"])
    context = {
        "table": table_info(4, 1, phase="hand_over", last_result=last),
        "view": view_for(state, 1),
        "legal": [],
        "viewer": {"user": "bob", "seat": 1},
    }
    english = render_table_html(context, "en").split('class="arithmetic">')[1].split("</p>")[0]
    chinese = render_table_html(context, "zh-hans").split('class="arithmetic">')[1].split("</p>")[0]
    assert f"flowers × base 2 = {score['value'] * 2}" in english and f"pays {paid}" in english
    assert f"花 × 底分 2 = {score['value'] * 2}" in chinese and f"付 {paid}" in chinese


@pytest.mark.parametrize(
    ("source", "side", "at"),
    [(3, "left", 0), (2, "across", 1), (1, "right", 2)],  # seat 0's previous player is seat 3
)
def test_a_claimed_tile_lies_on_the_side_it_came_from(source: int, side: str, at: int) -> None:
    meld = board.meld_model(
        {"kind": "pong", "tiles": "5p5p5p", "from": source, "claimed": "5p"}, set(), 0, list(WINDS)
    )
    claimed = [t for t in meld["tiles"] if t.get("claimed")]
    assert len(claimed) == 1 and claimed[0]["side"] == side
    assert meld["tiles"].index(claimed[0]) == at
    assert "东南西北"[source] in claimed[0]["label"]  # named for a screen reader too


def test_a_chi_shows_the_claimed_tile_first_and_two_players_across() -> None:
    chi = board.meld_model(
        {"kind": "chi", "tiles": "3s4s5s", "from": 3, "claimed": "5s"}, set(), 0, list(WINDS)
    )
    assert [t["name"] for t in chi["tiles"]] == ["5s", "3s", "4s"]
    duo = board.meld_model(
        {"kind": "pong", "tiles": "1z1z1z", "from": 0, "claimed": "1z"}, set(), 1, ["1z", "2z"]
    )
    assert [t.get("side") for t in duo["tiles"]] == [None, "across", None]


def test_the_waits_strip_says_when_a_rule_set_wins_by_self_draw_only() -> None:
    waits = [{"tile": "1p", "unseen": 2}]
    assert board.waits_model(waits, set(), "tianjin")["why_not"] == board.win_refusal("self_draw_only")
    assert board.waits_model(waits, set(), "shanghai")["why_not"] == ""


def test_settlement_names_who_played_a_seat_freed_since() -> None:
    """An escaped player's seat is freed at settlement: the panel still names who paid."""
    from django.utils import translation

    state, _, _ = play_hand("shanghai", 5)  # seat 0 wins on seat 3's discard
    table = table_info(
        4,
        1,
        phase="hand_over",
        last_result={
            "hand": 1,
            "result": view_for(state, None)["result"],
            "payments": [12, 0, 0, -12],
            "balances": [1012, 1001, 1002, 0],
            "penalties": [],
            "hands": None,
            "names": ["alice", "bob", "carol", "dora"],
        },
    )
    table["seats"][3].update(name=None, is_bot=False)  # dora left; her seat is empty now
    with translation.override("en"):
        html = render_table_html(
            {"table": table, "view": view_for(state, 1), "legal": [], "viewer": {"user": "bob", "seat": 1}}
        )
    settlement = html.split('id="settlement"')[1].split("</section>")[0]
    assert "won on dora's discard" in settlement
    row = re.search(r'<tr class="[^"]*">\s*<td><span class="wind">北</span> ([^<]*)<', settlement)
    assert row and row.group(1).strip() == "dora"


def test_a_payment_the_balance_floor_cut_shows_what_was_due() -> None:
    """Seat 3 had too few points: the row shows what moved and, beside it, what was due."""
    from django.utils import translation

    state, _, _ = play_hand("shanghai", 5)  # seat 0 wins on seat 3's discard
    result = view_for(state, None)["result"]
    due = result["payments"]
    assert due[0] > 0 > due[3]
    moved = [due[0] - 1, 0, 0, due[3] + 1]  # seat 3 was one point short
    table = table_info(
        4,
        1,
        phase="hand_over",
        last_result={"hand": 1, "result": result, "payments": moved, "balances": [1, 1, 1, 0], "hands": None},
    )
    for language, shown in (("en", "(due {})"), ("zh-hans", "（应为 {}）")):
        with translation.override(language):
            html = render_table_html(
                {
                    "table": table,
                    "view": view_for(state, 1),
                    "legal": [],
                    "viewer": {"user": "bob", "seat": 1},
                }
            )
        settlement = html.split('id="settlement"')[1].split("</section>")[0]
        assert shown.format(due[3]) in settlement and shown.format(due[0]) in settlement
        assert settlement.count('class="due"') == 2  # the two seats the floor changed, no others


def test_the_settlement_names_the_huangfan_cause_and_who_paid_each_kong_payment() -> None:
    state, _, _ = play_hand("shanghai", 5)  # seat 0 wins on seat 3's discard
    view = view_for(state, 1)
    result = view["result"]
    result["scores"][0]["breakdown"] = [*result["scores"][0]["breakdown"], ["huangfan", 2]]
    result["extras"] = [{"reason": "kong_exposed", "payments": [-2, -2, 6, -2]}]
    view["huangfan_cause"] = "dice"
    table = table_info(4, 1, phase="hand_over", deadline_ms=None)
    ctx = {"table": table, "view": view, "legal": [], "viewer": {"user": "bob", "seat": 1}}
    settlement = render_table_html(ctx, "en").split('id="settlement"')[1].split("</section>")[0]
    assert "Doubled by the dice" in settlement and "after a drawn hand" not in settlement
    kong = re.search(r"<li>.*?杠钱.*?</li>", settlement, re.S)
    assert kong, settlement
    said = re.sub(r"<[^>]+>", "", kong.group(0))
    for wind, name, amount in (
        ("东", "alice", "-2"),
        ("南", "bob", "-2"),
        ("西", "carol", "+6"),
        ("北", "Bot 4", "-2"),
    ):
        assert f"{wind} {name} {amount}" in said, said
    view["huangfan_cause"] = "drawn"
    assert "Doubled after a drawn hand" in render_table_html(ctx, "en")


def test_after_an_admin_closes_the_table_its_players_read_it_once_in_their_language() -> None:
    """Seats freed, the viewer no longer seated: no "you are watching" banner, the notice once and
    in the viewer's language, the bots of the last hand still named."""
    state, _, _ = play_hand("shanghai", 5)
    table = table_info(
        4,
        None,
        phase="closed",
        status="closed",
        deadline_ms=None,
        message="An admin closed this table.",
        last_result={
            "hand": 1,
            "result": view_for(state, None)["result"],
            "payments": [12, 0, 0, -12],
            "balances": [1012, 1001, 1002, 991],
            "penalties": [],
            "hands": None,
            "names": ["alice", "bob", None, None],
            "bots": [False, False, True, True],
        },
    )
    for s in table["seats"]:
        s.update(name=None, is_bot=False, balance=None)
    ctx = {"table": table, "view": None, "legal": [], "viewer": {"user": "alice", "seat": None}}
    html = render_table_html(ctx, "en")
    assert html.count("An admin closed this table.") == 1
    assert "banner watching" not in html
    settlement = html.split('id="settlement"')[1].split("</section>")[0]
    assert "Bot 3" in settlement and "Bot 4" in settlement
    assert "管理员关闭了这张牌桌" in render_table_html(ctx, "zh-hans")
    # the header's points are those the last hand left her, not the ones from before it
    assert re.search(r'id="balance" hx-swap-oob="true"[^>]*>[^<]*<strong>1012</strong>', html)


def test_a_stored_bilingual_notice_is_said_in_the_viewers_language() -> None:
    from games.table.timers import NOT_CONTINUED

    _, log, _ = play_hand("shanghai", 5)
    state, _ = replay("shanghai", 5, log[:40])
    ctx = context(state, 1, table_info(4, 1, message=NOT_CONTINUED))
    english = render_table_html(ctx, "en")
    assert "You did not choose Continue and were stood up." in english and "您没有选择继续" not in english


def test_the_settlement_says_how_to_check_the_fair_deal() -> None:
    state, _, _ = play_hand("shanghai", 5)
    fair = {"commitment": "ab" * 32, "salt": "s" * 16, "wall": "1m 2m"}
    last = {
        "hand": 1,
        "hand_id": 9,
        "result": view_for(state, None)["result"],
        "payments": [12, 0, 0, -12],
        "balances": [1012, 1001, 1002, 991],
        "penalties": [],
        "fairness": fair,
    }
    ctx = context(state, 1, table_info(4, 1, phase="hand_over", last_result=last))
    settlement = render_table_html(ctx, "en").split('id="settlement"')[1].split("</section>")[0]
    assert "fairness-hint" in settlement and "SHA-256 of the salt" in settlement
    assert "docs/fairness.md" not in settlement  # a repository file is no help to a player
    assert 'href="/fairness/"' in settlement  # the site page that explains checking
