"""Tile ids and the notation of RULES §0; seat winds (§0) and the joker cycle (§5.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.tiles import (
    EAST,
    GREEN,
    NORTH,
    RED,
    SOUTH,
    WEST,
    WHITE,
    add,
    counts_of,
    format_tiles,
    is_dragon,
    is_flower,
    is_honour,
    is_suited,
    is_terminal,
    is_wind,
    name,
    names,
    next_in_cycle,
    parse,
    rank_of,
    remove,
    seat_wind,
    suit_of,
    tile,
    tiles_of,
)

any_tile = st.integers(min_value=0, max_value=41)  # 34 kinds + 8 flowers
kind = st.integers(min_value=0, max_value=33)


# -- notation ---------------------------------------------------------------


def test_parse_examples_from_the_rules() -> None:
    # RULES §0: `123m55p` = 1m 2m 3m 5p 5p; 1m..9m = 0..8, 1p = 9, 1s = 18, 1z East = 27
    assert parse("123m55p") == [0, 1, 2, 13, 13]
    assert parse("1z2z3z4z5z6z7z") == [EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED]
    assert parse("1234567z") == list(range(27, 34))
    assert parse("9m1p9p1s9s") == [8, 9, 17, 18, 26]
    assert parse("1f8f") == [34, 41]
    assert parse("12345678f") == list(range(34, 42))
    assert parse("") == []


def test_parse_keeps_order_and_ignores_spaces() -> None:
    assert parse("5p 1m 3m") == [13, 0, 2]
    assert parse("1m 1m") == [0, 0]


def test_single_tile() -> None:
    assert tile("5p") == 13
    assert tile("7z") == RED
    with pytest.raises(EngineError) as e:
        tile("12m")
    assert e.value.code == "bad_tiles"


@pytest.mark.parametrize(
    "text",
    ["1", "m", "0m", "10m", "8z", "9z", "1x", "1M", "123", "1m2", "1m\t2p", "东", "1m,2m", "-1m"],
)
def test_bad_strings_raise_bad_tiles(text: str) -> None:
    with pytest.raises(EngineError) as e:
        parse(text)
    assert e.value.code == "bad_tiles"


@pytest.mark.parametrize("value", [None, 5, ["1m"], b"1m"])
def test_non_strings_raise_bad_tiles(value: object) -> None:
    with pytest.raises(EngineError) as e:
        parse(value)  # type: ignore[arg-type]
    assert e.value.code == "bad_tiles"


def test_ninth_flower_is_rejected() -> None:
    # RULES §0: flowers are 1f-8f, one of each
    with pytest.raises(EngineError):
        parse("9f")


@given(st.lists(any_tile, max_size=20))
def test_format_then_parse_is_the_identity(tiles: list[int]) -> None:
    assert parse(format_tiles(tiles)) == tiles


@given(st.lists(any_tile, max_size=20))
def test_a_tuple_is_named_as_the_same_tiles_in_a_list(tiles: list[int]) -> None:
    # tuples (melds, flowers) take the kept path, any other iterable is named afresh
    assert format_tiles(tuple(tiles)) == format_tiles(tiles) == format_tiles(iter(tiles))
    assert names(tuple(tiles)) == names(tiles) == [name(t) for t in tiles]


@given(st.lists(any_tile, max_size=20))
def test_format_is_compact_and_canonical(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    # one suit letter per run of same-suit tiles, never two letters in a row
    assert len(text) == len(tiles) + sum(
        1 for i, t in enumerate(tiles) if i + 1 == len(tiles) or suit_of(tiles[i + 1]) != suit_of(t)
    )
    assert format_tiles(parse(text)) == text


def test_format_examples() -> None:
    assert format_tiles([0, 1, 2, 13, 13]) == "123m55p"
    assert format_tiles([0, 9, 0]) == "1m1p1m"
    assert format_tiles([27, 33, 34]) == "17z1f"
    assert format_tiles([]) == ""


@given(any_tile)
def test_name_round_trips(t: int) -> None:
    assert tile(name(t)) == t
    assert rank_of(t) == int(name(t)[0])


# -- predicates -------------------------------------------------------------


def test_predicates_partition_the_kinds() -> None:
    for t in range(42):
        assert [is_suited(t), is_honour(t), is_flower(t)].count(True) == 1
        assert is_wind(t) + is_dragon(t) == is_honour(t)
    assert [t for t in range(42) if is_terminal(t)] == parse("19m19p19s")
    assert [t for t in range(42) if is_wind(t)] == parse("1234z")
    assert [t for t in range(42) if is_dragon(t)] == parse("567z")
    assert [suit_of(t) for t in parse("9m1p9s7z1f")] == [0, 1, 2, 3, 4]


@given(st.lists(kind, max_size=14))
def test_counts_and_tiles_of_are_inverse(tiles: list[int]) -> None:
    counts = counts_of(tiles)
    assert len(counts) == 34
    assert tiles_of(counts) == sorted(tiles)


def test_add_and_remove() -> None:
    counts = counts_of(parse("11m"))
    assert add(counts, 0) == counts_of(parse("111m"))
    assert remove(counts, 0, 2) == bytes(34)
    with pytest.raises(EngineError) as e:
        remove(counts, 1)
    assert e.value.code == "tile_not_in_hand"


# -- seat winds (RULES §0) -----------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "dealer", "wind"),
    [
        (0, 0, EAST),
        (1, 0, SOUTH),
        (2, 0, WEST),
        (3, 0, NORTH),
        # the dealer is always East; the seat before the dealer is North
        (2, 2, EAST),
        (3, 2, SOUTH),
        (0, 2, WEST),
        (1, 2, NORTH),
        (0, 3, SOUTH),
    ],
)
def test_seat_wind_four_players(seat: int, dealer: int, wind: int) -> None:
    assert seat_wind(seat, dealer, 4) == wind


def test_seat_wind_two_players() -> None:
    # RULES §0: two players: dealer East, the other South
    assert seat_wind(0, 0, 2) == EAST
    assert seat_wind(1, 0, 2) == SOUTH
    assert seat_wind(1, 1, 2) == EAST
    assert seat_wind(0, 1, 2) == SOUTH


# -- joker indicator cycle (RULES §5.3) ----------------------------------------


@pytest.mark.parametrize(
    ("indicator", "joker"),
    [
        ("1m", "2m"),
        ("8m", "9m"),
        ("9m", "1m"),  # 9 → 1 within the suit
        ("9p", "1p"),
        ("5s", "6s"),
        ("9s", "1s"),
        ("1z", "2z"),  # E → S → W → N → E
        ("2z", "3z"),
        ("3z", "4z"),
        ("4z", "1z"),
        ("7z", "6z"),  # 中 → 发 → 白 → 中
        ("6z", "5z"),
        ("5z", "7z"),
    ],
)
def test_next_in_cycle(indicator: str, joker: str) -> None:
    assert next_in_cycle(tile(indicator)) == tile(joker)


def test_next_in_cycle_is_a_permutation_of_each_group() -> None:
    # every kind is "next" of exactly one kind, and the cycle stays in its group
    assert sorted(next_in_cycle(t) for t in range(34)) == list(range(34))
    for t in range(34):
        n = next_in_cycle(t)
        assert suit_of(n) == suit_of(t)
        assert is_wind(n) == is_wind(t)
