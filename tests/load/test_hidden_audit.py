"""The hidden-information audit (tests/load/audit.py) over every variant: 0 leaking frames."""

from __future__ import annotations

import json
import os

import pytest
from asgiref.sync import sync_to_async

from games.engine.rulesets import VARIANT_IDS, get_ruleset
from tests.conftest import make_user
from tests.load.audit import Viewer, audit_table, check_html, check_json

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = int(os.environ.get("AUDIT_HANDS", "1"))


@pytest.mark.parametrize("variant", VARIANT_IDS)
async def test_no_frame_reveals_hidden_tiles(variant: str) -> None:
    count = get_ruleset(variant).players
    players = [await sync_to_async(make_user)(f"{variant}-p{i}") for i in range(count)]
    spectator = await sync_to_async(make_user)(f"{variant}-watcher")
    report = await audit_table(players, spectator, variant, HANDS, seed=len(variant))
    assert report.violations == [], report.violations[:20]
    assert report.hands == HANDS
    assert report.json_frames > 50 * HANDS and report.html_frames > 50 * HANDS
    assert report.reconnects > 0 and report.syncs > 0
    assert any(len(s) == 64 for s in report.secrets)  # the salts were among the checked secrets


def test_the_checks_catch_leaks() -> None:
    """The audit's own checks fire on frames that do leak (so a clean run means something)."""
    viewer = Viewer("seat0", None, 0, True)
    seats = [
        {"seat": 0, "hand": ["1m", "2m"], "melds": [], "discards": []},
        {
            "seat": 1,
            "hand_count": 13,
            "melds": [{"kind": "concealed_kong", "tiles": ["5p"] * 4}],
            "discards": [],
        },
    ]
    frame = {
        "type": "state",
        "view": {
            "hand": {"phase": "turn", "seats": seats, "wall": ["3s"], "hint": "7z"},
            "table": {"paused": False, "seats": [{"index": 0}, {"index": 1, "pending": {"type": "pong"}}]},
        },
        "legal": [],
    }
    problems = check_json(frame, viewer, [["1m", "2m"], ["4s", "4s", "4s"]])
    text = " | ".join(problems)
    for expected in ("forbidden key", "concealed kong", "pending", "tile 7z", "tile 3s"):
        assert expected in text, text
    seats[1]["hand"] = ["4s", "4s", "4s"]
    assert any("shows ['hand']" in p for p in check_json(frame, viewer, None))
    html = (
        '<section class="seat pos-1" data-seat="1">'
        '<div class="concealed"><span data-tile="5m"></span></div></section>'
    )
    assert check_html(html, viewer) == ["html: seat 1's concealed tiles named"]


def test_the_secret_check_catches_the_salt_and_the_wall() -> None:
    """A frame with the salt, the dealt wall or the next live tiles in order is a leak."""
    from tests.load.audit import check_secrets

    secrets = {"ab" * 32, "1m 2m 3m", '["5p", "6p"]'}
    assert check_secrets('{"view": {"hand": {"commitment": "ff00"}}}', secrets) == []
    for leak in ("ab" * 32, "wall: 1m 2m 3m 4m", '{"x": ["5p", "6p"]}'):
        assert len(check_secrets(leak, secrets)) == 1, leak


def test_a_reveal_is_set_aside_only_for_a_finished_hand() -> None:
    from tests.load.audit import set_aside_reveals

    frame = {"view": {"table": {"last_result": {"hand_id": 7, "fairness": {"salt": "ab" * 32}}}}}
    kept, problems = set_aside_reveals(json.loads(json.dumps(frame)), over={7})
    assert problems == [] and "fairness" not in kept["view"]["table"]["last_result"]
    _, problems = set_aside_reveals(frame, over=set())
    assert problems == ["hand 7 revealed before it is over"]
    html = '<p>x</p><details class="fairness reveal" data-hand="7"><code>salt</code></details>'
    assert set_aside_reveals(html, over={7}) == ("<p>x</p>", [])
    assert set_aside_reveals(html, over={8})[1] == ["html: hand 7 revealed before it is over"]


@pytest.mark.parametrize("answer_after_pause", [False, True], ids=["answered-in-pause", "answered-later"])
async def test_a_claim_window_looks_the_same_as_none_to_everybody_outside_it(
    answer_after_pause: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claim windows stay hidden (tests/load/claims.py): per discard, the frames and error codes a seat that
    cannot claim, a spectator and an anonymous visitor get are the same, timing aside, whether
    two seats could claim the discard (and passed) or nobody could."""
    from tests.games.claim_window import CLAIMANTS, CLAIMED, UNCLAIMED
    from tests.load.claims import observe

    people = [await sync_to_async(make_user)(f"cw{answer_after_pause:d}-{i}") for i in range(4)]
    spectator = await sync_to_async(make_user)(f"cw{answer_after_pause:d}-watcher")
    claimed = await observe(people, spectator, monkeypatch, CLAIMED, CLAIMANTS, answer_after_pause)
    unclaimed = await observe(people, spectator, monkeypatch, UNCLAIMED, (), answer_after_pause)
    assert claimed.codes["pause"] == unclaimed.codes["pause"] == ["not_your_turn"] * 3  # no oracle
    # after the pause (and the window) the outsider still holds the paused version, which stands
    # for the one play moved on to: the engine's own refusal, not a stale version
    assert claimed.codes["after"] == unclaimed.codes["after"] == ["not_your_turn"] * 3
    if answer_after_pause:  # the window outlived the pause: to outsiders the pause went on
        assert claimed.codes["window"] == unclaimed.codes["pause"]
    for name in ("seat2", "spectator", "anonymous"):
        assert claimed.frames[name] == unclaimed.frames[name], name
    # the discard's frame, paused, and nothing more: play moving on to seat 1 is sent to seat 1
    # alone, so the outsider's board stays paused until the next change everybody sees
    (paused,) = claimed.frames["seat2"]
    assert paused["view"]["table"]["paused"] and paused["view"]["hand"]["turn"] is None
