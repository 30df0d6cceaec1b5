"""Fair deals and open records (games/engine/record.py, wall.py; docs/fairness.md, docs/record-format.md)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import new_hand
from games.engine.errors import EngineError
from games.engine.record import (
    MAX_BYTES,
    RecordError,
    check_record,
    hand_record,
    match_record,
    parse_record,
    replay_record,
    verify_record,
)
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.engine.simulate import play_hand
from games.engine.tiles import name
from games.engine.view import view_for
from games.engine.wall import commitment, deal_wall, new_salt

SALT = "5a" * 32
PLAYERS = ["ann", "bo", "cy", "di"]


def _setup(variant: str, dealer: int = 0, **options: Any) -> dict[str, Any]:
    return {"dealer": dealer, "round_wind": 27, "base": 2, "options": options, "counters": {}}


def record_of(variant: str, salt: str | None = SALT, seed: int = 7, dealer: int = 0, **options: Any) -> dict:
    """A bot-played hand of `variant`, exported as a record and read back as JSON."""
    setup = _setup(variant, dealer, **options)
    if salt is not None:
        setup["salt"] = salt
    state, log, problems = play_hand(variant, seed, check=False, **setup)
    assert problems == []
    actions = [(seat, action.to_json(), "bot") for seat, action in log]
    return json.loads(json.dumps(hand_record(variant, seed, setup, actions, PLAYERS)))


# --- commitment and reveal ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_commitment_opens_to_the_revealed_salt_and_wall(variant: str) -> None:
    record = record_of(variant)
    fair = record["fairness"]
    # what `printf '%s' "$salt:$wall" | sha256sum` prints, computed without the engine
    opened = hashlib.sha256(f"{fair['salt']}:{fair['wall']}".encode()).hexdigest()
    assert opened == fair["commitment"]
    # the commitment is the one every viewer saw from the deal on
    state = new_hand(variant, 0, salt=SALT, **_setup(variant))
    assert view_for(state, None)["commitment"] == fair["commitment"]
    assert view_for(state, 0)["commitment"] == fair["commitment"]
    # the wall is the variant's whole set in dealing order: the hands were dealt from its front
    wall = fair["wall"].split(" ")
    assert sorted(wall) == sorted(name(t) for t in get_ruleset(variant).wall_tiles())
    assert record["events"][0]["hands"][0] == wall[:13]
    assert verify_record(record)["ok"]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_no_view_of_a_dealt_hand_holds_the_salt_or_the_wall(variant: str) -> None:
    state = new_hand(variant, 0, salt=SALT, **_setup(variant))
    _, _, wall = deal_wall(get_ruleset(variant).wall_tiles(), 0, SALT)
    text = json.dumps([view_for(state, seat) for seat in (None, *range(state.num_players))])
    assert SALT not in text and " ".join(name(t) for t in wall[:8]) not in text


def test_the_salt_fixes_every_chance_of_the_hand() -> None:
    one = new_hand("tianjin", 1, salt=SALT)
    two = new_hand("tianjin", 2, salt=SALT)  # the seed is not used when there is a salt
    assert (one.wall, one.dice, one.joker_dice, one.indicator, one.seed) == (
        two.wall,
        two.dice,
        two.joker_dice,
        two.indicator,
        two.seed,
    )
    other = new_hand("tianjin", 1, salt="5b" * 32)
    assert other.commitment != one.commitment and other.wall != one.wall


def test_fresh_salts_are_32_random_bytes() -> None:
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(s) == 64 and int(s, 16) >= 0 for s in salts)


@pytest.mark.parametrize("salt", ["", "5A" * 32, "5a" * 31, 12, "zz" * 32])
def test_a_bad_salt_is_refused(salt: Any) -> None:
    with pytest.raises(EngineError) as e:
        new_hand("shanghai", 0, salt=salt)
    assert e.value.code == "bad_salt"


def test_commitment_of_text_and_tiles_agree() -> None:
    _, _, wall = deal_wall(get_ruleset("cantonese").wall_tiles(), 0, SALT)
    assert commitment(SALT, wall) == commitment(SALT, " ".join(name(t) for t in wall))


# --- verify and replay on simulated hands (property-based) --------------------------------------

RECORD_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _options(variant: str, draw: st.DrawFn) -> dict[str, Any]:
    if variant != "two_player":
        return {}
    return {
        "exchange": draw(st.booleans()),
        "cuopai": draw(st.booleans()),
        "cuopai_p": 0.5,
        "reserve": draw(st.booleans()),
    }


@pytest.mark.parametrize("variant", VARIANT_IDS)
@RECORD_SETTINGS
@given(data=st.data())
def test_every_simulated_hand_exports_verifies_and_replays(variant: str, data: st.DataObject) -> None:
    salt = data.draw(st.binary(min_size=32, max_size=32)).hex()
    dealer = data.draw(st.integers(0, get_ruleset(variant).players - 1))
    record = record_of(variant, salt=salt, dealer=dealer, **_options(variant, data.draw))
    check_record(record)
    replayed = replay_record(record)
    assert replayed.final.phase == "over"
    report = verify_record(record)
    assert report["ok"] and report["commitment"] == record["fairness"]["commitment"]
    assert report["draws"] == sum(1 for e in record["events"] if e["type"] == "draw")
    # every draw from the front took the wall's next tile (no pre-hand exchange reorders it)
    if not record["options"].get("exchange") and not record["options"].get("cuopai"):
        wall = record["fairness"]["wall"].split(" ")
        n = len(record["players"])
        fronts = [e["tile"] for e in record["events"] if e["type"] == "draw" and e["end"] == "front"]
        assert fronts == wall[13 * n : 13 * n + len(fronts)]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_hand_dealt_before_commitments_exports_with_its_seed(variant: str) -> None:
    record = record_of(variant, salt=None, seed=12345)
    fair = record["fairness"]
    assert fair["scheme"] == "legacy-seed" and fair["commitment"] is None and fair["seed"] == "12345"
    assert "salt" not in fair
    check_record(record)
    assert verify_record(record)["scheme"] == "legacy-seed"


def test_a_hand_an_admin_closed_has_a_record() -> None:
    setup = {**_setup("shanghai"), "salt": SALT}
    _state, log, _ = play_hand("shanghai", 3, check=False, **setup)
    actions = [(seat, action.to_json(), "human") for seat, action in log[:10]]
    record = json.loads(json.dumps(hand_record("shanghai", 3, setup, actions, PLAYERS, closed_by_admin=True)))
    assert record["result"]["by"] == "admin_closed" and record["events"][-1]["type"] == "end"
    assert len(replay_record(record).steps) == 10
    with pytest.raises(RecordError):
        hand_record("shanghai", 3, setup, actions, PLAYERS)  # not over, not closed


def test_a_match_record_is_its_header_and_hands() -> None:
    hands = [record_of("cantonese", salt=new_salt(), seed=i) for i in range(2)]
    record = match_record({"id": 1, "variant": "cantonese", "players": PLAYERS}, hands)
    check_record(json.loads(json.dumps(record)))
    assert parse_record(json.dumps(record))["hands"][1] == hands[1]


# --- bad records: the first problem, named ------------------------------------------------------


def _first_problem(record: Any) -> RecordError:
    with pytest.raises(RecordError) as e:
        replay_record(parse_record(json.dumps(record)))
    return e.value


@pytest.fixture(scope="module")
def good() -> dict:
    return record_of("shanghai", seed=11)


def test_a_changed_draw_is_named(good: dict) -> None:
    bad = copy.deepcopy(good)
    draw = next(e for e in bad["events"] if e["type"] == "draw")
    draw["tile"] = "9s" if draw["tile"] != "9s" else "1m"
    error = _first_problem(bad)
    assert error.code == "wrong_draw" and "event" in error.message


def test_a_changed_salt_breaks_the_commitment(good: dict) -> None:
    bad = copy.deepcopy(good)
    bad["fairness"]["salt"] = "0" + bad["fairness"]["salt"][1:]
    if bad["fairness"]["salt"] == good["fairness"]["salt"]:
        bad["fairness"]["salt"] = "1" + bad["fairness"]["salt"][1:]
    assert _first_problem(bad).code == "broken_commitment"


def test_a_rearranged_wall_with_a_fresh_commitment_is_not_the_salts_wall(good: dict) -> None:
    bad = copy.deepcopy(good)
    wall = bad["fairness"]["wall"].split(" ")
    i = next(i for i in range(1, len(wall)) if wall[i] != wall[0])
    wall[0], wall[i] = wall[i], wall[0]
    bad["fairness"]["wall"] = " ".join(wall)
    bad["fairness"]["commitment"] = commitment(bad["fairness"]["salt"], bad["fairness"]["wall"])
    error = _first_problem(bad)
    assert error.code == "broken_commitment" and "salt deals" in error.message


def test_a_short_wall_is_not_the_tile_set(good: dict) -> None:
    bad = copy.deepcopy(good)
    bad["fairness"]["wall"] = bad["fairness"]["wall"].rsplit(" ", 1)[0]
    assert _first_problem(bad).code == "broken_commitment"


def test_a_wrong_result_is_named(good: dict) -> None:
    bad = copy.deepcopy(good)
    bad["result"]["payments"][0] += 1
    error = _first_problem(bad)
    assert error.code == "wrong_result" and "payments" in error.message


def test_an_illegal_action_is_named_with_its_number(good: dict) -> None:
    bad = copy.deepcopy(good)
    actions = [e for e in bad["events"] if e["type"] == "action"]
    actions[0]["seat"] = (actions[0]["seat"] + 1) % 4  # someone else moves first
    error = _first_problem(bad)
    assert error.code == "illegal_action" and error.message.startswith("action 1 ")


def test_a_wrong_schema_version_is_named(good: dict) -> None:
    bad = {**good, "version": 2}
    error = _first_problem(bad)
    assert error.code == "wrong_version" and "version 1" in error.message


def test_a_schema_violation_names_where(good: dict) -> None:
    bad = copy.deepcopy(good)
    bad["events"][1]["tile"] = "0m"
    error = _first_problem(bad)
    assert error.code == "schema" and "events/1" in error.message


def test_an_unknown_setup_key_is_a_schema_error(good: dict) -> None:
    bad = copy.deepcopy(good)
    bad["setup"]["salt_extra"] = 1
    assert _first_problem(bad).code == "schema"


def test_more_than_one_megabyte_is_refused_unread() -> None:
    with pytest.raises(RecordError) as e:
        parse_record(b" " * (MAX_BYTES + 1))
    assert e.value.code == "too_large"


@pytest.mark.parametrize("raw", [b"{", b"\xff\xfe", b"[]", b'{"format": "mjai"}'])
def test_not_a_record(raw: bytes) -> None:
    with pytest.raises(RecordError) as e:
        parse_record(raw)
    assert e.value.code in ("bad_json", "wrong_format")
