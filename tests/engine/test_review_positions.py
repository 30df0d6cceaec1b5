"""The reviewer on hand-built positions: per variant, 20 hands of 14 tiles on the seat's own turn,
early in the hand (nothing discarded, nobody called), each with one clearly best discard:

- ten where exactly one discard leaves the hand ready (every other discard leaves it at least
  one tile farther: shanten 1 or more);
- ten one tile from ready, where one discard keeps far more effective tiles (unseen copies that
  bring the hand closer) than any other — at least 8 more and at least 5/3 as many (two-player,
  whose 72-tile set has only characters and honours: 6 more and 10/7 as many).

"Clearly best" is judged by those exact counts alone (standard shape; no hand with four pairs
where seven pairs score, no four of a kind, no suit over seven tiles, so neither a special shape,
a kong, nor a one-suit plan competes); the reviewer's answer had no part in choosing the hands.
Each row: the 14 tiles, the best discard, and why.
"""

from __future__ import annotations

import pytest

from games.engine.actions import Action, new_hand
from games.engine.review import review_decision
from games.engine.state import HandState, evolve
from games.engine.tiles import counts_of, parse, tile

POSITIONS: dict[str, list[tuple[str, str, str]]] = {
    "shanghai": [
        ("123345m33p13789s5z", "5z", "only discard left ready (4 waits unseen); next 1s: shanten 1"),
        ("12789m789p224569s", "9s", "only discard left ready (4 waits unseen); next 1m: shanten 1"),
        ("12334m23488p2348s", "8s", "only discard left ready (7 waits unseen); next 3m: shanten 1"),
        ("1377m2348p456678s", "8p", "only discard left ready (4 waits unseen); next 1m: shanten 1"),
        ("1245677m666p3345s", "3s", "only discard left ready (4 waits unseen); next 1m: shanten 1"),
        ("777m2245679s1666z", "1z", "only discard left ready (4 waits unseen); next 9s: shanten 1"),
        ("3789m67s11555666z", "3m", "only discard left ready (8 waits unseen); next 6s: shanten 1"),
        ("334m123555p34456s", "4m", "only discard left ready (7 waits unseen); next 4s: shanten 1"),
        ("234999m55588p8s66z", "8s", "only discard left ready (4 waits unseen); next 8p: shanten 1"),
        ("11456m1237899p88s", "9p", "only discard left ready (4 waits unseen); next 8s: shanten 1"),
        ("123678m13p46678s6z", "6z", "23 effective tiles; next best 4s: 13"),
        ("44478m1567p67789s", "1p", "29 effective tiles; next best 7s: 17"),
        ("45567m23345p345s6z", "6z", "38 effective tiles; next best 4m: 16"),
        ("34567m24888p1237s", "7s", "33 effective tiles; next best 2p: 17"),
        ("35m123p44468s2555z", "2z", "24 effective tiles; next best 8s: 14"),
        ("111234m45p12567s3z", "3z", "24 effective tiles; next best 1s: 14"),
        ("13m345777p257789s", "2s", "19 effective tiles; next best 1m: 10"),
        ("7889m1113489s666z", "8m", "24 effective tiles; next best 4s: 13"),
        ("334459m46p567789s", "9m", "25 effective tiles; next best 4m: 13"),
        ("456m57p12379s6777z", "6z", "20 effective tiles; next best 5p: 10"),
    ],
    "yihua": [
        ("13456m234p234s455z", "4z", "only discard left ready (4 waits unseen); next 1m: shanten 1"),
        ("33378m234p5s55666z", "5s", "only discard left ready (8 waits unseen); next 8m: shanten 1"),
        ("678m66p456888s133z", "1z", "only discard left ready (4 waits unseen); next 6p: shanten 1"),
        ("88m68999p567999s6z", "6z", "only discard left ready (4 waits unseen); next 8p: shanten 1"),
        ("57789m234456p225z", "5z", "only discard left ready (4 waits unseen); next 7m: shanten 1"),
        ("12223m345p34455s1z", "1z", "only discard left ready (7 waits unseen); next 4s: shanten 1"),
        ("22288m345p45688s3z", "3z", "only discard left ready (4 waits unseen); next 8s: shanten 1"),
        ("567m345678p239s33z", "9s", "only discard left ready (8 waits unseen); next 2s: shanten 1"),
        ("56799m35678p8s222z", "8s", "only discard left ready (4 waits unseen); next 3p: shanten 1"),
        ("567m1233p3345668s", "3p", "only discard left ready (4 waits unseen); next 8s: shanten 1"),
        ("12379m5667p45668s", "6p", "23 effective tiles; next best 8s: 12"),
        ("345m4789p4777s223z", "3z", "40 effective tiles; next best 4p: 24"),
        ("367889m46678p888s", "3m", "28 effective tiles; next best 8m: 13"),
        ("456m33367p23s1116z", "6z", "28 effective tiles; next best 3p: 16"),
        ("1234m234p336789s4z", "4z", "42 effective tiles; next best 1m: 25"),
        ("56789m222456p168s", "1s", "29 effective tiles; next best 5m: 13"),
        ("44556m24456p234s7z", "7z", "28 effective tiles; next best 2p: 16"),
        ("56m222p12334s4447z", "7z", "29 effective tiles; next best 3s: 17"),
        ("234456m1223489p9s", "9s", "25 effective tiles; next best 1p: 13"),
        ("34557m234p68s5666z", "5z", "23 effective tiles; next best 7m: 13"),
    ],
    "cantonese": [
        ("33m345567p235677s", "7s", "only discard left ready (8 waits unseen); next 2s: shanten 1"),
        ("1567789m789p66s11z", "1m", "only discard left ready (4 waits unseen); next 6s: shanten 1"),
        ("99m2334459p11345s", "9p", "only discard left ready (4 waits unseen); next 1s: shanten 1"),
        ("478m11456p567789s", "4m", "only discard left ready (8 waits unseen); next 7m: shanten 1"),
        ("789m33666p35s4445z", "5z", "only discard left ready (4 waits unseen); next 3s: shanten 1"),
        ("345567m256p888s66z", "2p", "only discard left ready (8 waits unseen); next 5p: shanten 1"),
        ("66m99p1235789s111z", "5s", "only discard left ready (4 waits unseen); next 6m: shanten 1"),
        ("13567m678p112399s", "1s", "only discard left ready (4 waits unseen); next 1m: shanten 1"),
        ("234m567p336668s77z", "8s", "only discard left ready (4 waits unseen); next 3s: shanten 1"),
        ("1233466p456777s2z", "2z", "only discard left ready (7 waits unseen); next 1p: shanten 1"),
        ("1777m777p1223489s", "1m", "25 effective tiles; next best 1s: 13"),
        ("24888p11168s1777z", "1z", "20 effective tiles; next best 2p: 10"),
        ("23457m123444p46s1z", "1z", "23 effective tiles; next best 7m: 13"),
        ("56778m23678p1345s", "1s", "33 effective tiles; next best 7m: 17"),
        ("134557m35678p111s", "1m", "26 effective tiles; next best 7m: 13"),
        ("238m778899p56999s", "8m", "28 effective tiles; next best 9s: 16"),
        ("4455668m13888p35s", "8m", "20 effective tiles; next best 1p: 10"),
        ("56789m2567p23789s", "2p", "33 effective tiles; next best 5m: 17"),
        ("455669m34p345567s", "9m", "29 effective tiles; next best 5m: 17"),
        ("123789m13777p267s", "2s", "24 effective tiles; next best 1p: 14"),
    ],
    "tianjin": [
        ("23456m456999p355z", "3z", "only discard left ready (15 waits unseen); next 2m: shanten 1"),
        ("234455m12567p234s", "4m", "only discard left ready (8 waits unseen); next 1p: shanten 1"),
        ("4m33378p22233666z", "4m", "only discard left ready (12 waits unseen); next 8p: shanten 1"),
        ("345m123555p377s33z", "3s", "only discard left ready (8 waits unseen); next 7s: shanten 1"),
        ("45689m789p99s2555z", "2z", "only discard left ready (8 waits unseen); next 9m: shanten 1"),
        ("234567m67889p55s1z", "1z", "only discard left ready (7 waits unseen); next 8p: shanten 1"),
        ("111599m555666s22z", "5m", "only discard left ready (8 waits unseen); next 9m: shanten 1"),
        ("3344478m678p789s3z", "3z", "only discard left ready (12 waits unseen); next 8m: shanten 1"),
        ("1234478m222456p2s", "2s", "only discard left ready (12 waits unseen); next 8m: shanten 1"),
        ("345p56667s144555z", "1z", "only discard left ready (7 waits unseen); next 5s: shanten 1"),
        ("556677m66788p168s", "1s", "29 effective tiles; next best 6p: 17"),
        ("13577m7889p33355z", "8p", "20 effective tiles; next best 1m: 12"),
        ("12m12678p3457s444z", "7s", "24 effective tiles; next best 1m: 14"),
        ("35m345777p23445s6z", "6z", "33 effective tiles; next best 3m: 17"),
        ("12678m1777p12888s", "1p", "24 effective tiles; next best 1m: 14"),
        ("12378m222p234459s", "9s", "37 effective tiles; next best 4s: 21"),
        ("5667m11178p56789s", "6m", "37 effective tiles; next best 5s: 20"),
        ("68m234678p127889s", "8s", "24 effective tiles; next best 6m: 13"),
        ("138m888p12389s333z", "8m", "24 effective tiles; next best 1m: 14"),
        ("22344m55677p456s2z", "2z", "34 effective tiles; next best 2m: 16"),
    ],
    "two_player": [
        ("2333467889m1114z", "4z", "only discard left ready (3 waits unseen); next 8m: shanten 1"),
        ("23444556789m122z", "1z", "only discard left ready (6 waits unseen); next 4m: shanten 1"),
        ("2223477789m2225z", "5z", "only discard left ready (6 waits unseen); next 2m: shanten 1"),
        ("12333567789m226z", "6z", "only discard left ready (3 waits unseen); next 3m: shanten 1"),
        ("1112333468m1777z", "1z", "only discard left ready (4 waits unseen); next 8m: shanten 1"),
        ("111345789m25566z", "2z", "only discard left ready (4 waits unseen); next 3m: shanten 1"),
        ("2356777999m1114z", "4z", "only discard left ready (8 waits unseen); next 2m: shanten 1"),
        ("2333467789m4555z", "4z", "only discard left ready (7 waits unseen); next 7m: shanten 1"),
        ("2346678889m3336z", "6z", "only discard left ready (3 waits unseen); next 6m: shanten 1"),
        ("11145666789m114z", "4z", "only discard left ready (7 waits unseen); next 6m: shanten 1"),
        ("1123334589m1666z", "1z", "23 effective tiles; next best 1m: 12"),
        ("1255677789m1333z", "1z", "23 effective tiles; next best 5m: 12"),
        ("1256677789m2555z", "2z", "26 effective tiles; next best 1m: 12"),
        ("2356777899m3666z", "3z", "23 effective tiles; next best 2m: 16"),
        ("1233344589m3337z", "7z", "26 effective tiles; next best 1m: 12"),
        ("1256777889m1113z", "3z", "26 effective tiles; next best 1m: 12"),
        ("1123334578m3334z", "4z", "23 effective tiles; next best 3m: 16"),
        ("1223467889m2666z", "2z", "26 effective tiles; next best 2m: 18"),
        ("1256777899m3335z", "5z", "23 effective tiles; next best 7m: 12"),
        ("1256777889m3336z", "6z", "26 effective tiles; next best 1m: 12"),
    ],
}


def position(variant: str, hand: str) -> HandState:
    """Seat 0 (the dealer) to discard from `hand`, its first tile just drawn, on a fresh table.
    Tianjin's joker is set to 7z, which no Tianjin position holds."""
    state = new_hand(variant, 1, base=2)
    tiles = parse(hand)
    players = list(state.players)
    players[0] = evolve(players[0], concealed=counts_of(tiles), drawn=tiles[0], flowers=(), draw_count=1)
    changes = {}
    if variant == "tianjin":
        changes = {
            "jokers": (tile("7z"),),
            "indicator": None,
            "choices": (("lazhuang", (0, 0, 0, 0)), ("zuozhuang", False)),
        }
    return evolve(
        state, players=tuple(players), phase="turn", turn=0, turn_start="draw", window=None, **changes
    )


def test_the_table_has_twenty_positions_per_variant() -> None:
    assert {v: len(rows) for v, rows in POSITIONS.items()} == dict.fromkeys(POSITIONS, 20)
    for variant, rows in POSITIONS.items():
        for hand, best, _why in rows:
            assert len(parse(hand)) == 14 and tile(best) in parse(hand), (variant, hand)


@pytest.mark.parametrize("variant", list(POSITIONS))
def test_the_reviewer_recommends_the_clearly_best_discard(variant: str) -> None:
    wrong = []
    for hand, best, why in POSITIONS[variant]:
        state = position(variant, hand)
        played = Action("discard", parse(hand)[0])
        decision = review_decision(state, 0, played)
        assert decision is not None
        if decision["recommended"] != {"type": "discard", "tile": best}:
            wrong.append((hand, best, decision["recommended_label"], why))
    assert wrong == []
