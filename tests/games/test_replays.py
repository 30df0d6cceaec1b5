"""Replays: only finished hands, for the people allowed to see them; every step opens every hand."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.services import create_api_token
from games.engine.actions import Action, replay
from games.history.replays import build
from games.models import HandAction
from tests.conftest import logged_in_client
from tests.games.history_helpers import finished_hand, running_hand, won_hand

pytestmark = pytest.mark.django_db


def test_the_replay_api_has_seed_actions_and_a_full_view_per_step(alice: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    response = anon_client.get(f"/api/hands/{hand.pk}/replay")
    assert response.status_code == 200
    data = response.json()
    assert data["seed"] == str(hand.seed)
    rows = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    assert [a["seq"] for a in data["actions"]] == [r.seq for r in rows]
    assert len(data["steps"]) == len(rows) + 1
    # Every hand is open at every step, the deal included.
    for step in (data["steps"][0], data["steps"][len(rows) // 2]):
        assert all("hand" in seat for seat in step["view"]["seats"])
    assert data["steps"][-1]["view"]["phase"] == "over"
    assert data["result"] == hand.result
    # The seed and the log replay to the same final state.
    state, _ = replay(
        "two_player", hand.seed, [(r.seat, Action.from_json(r.action)) for r in rows], **hand.setup
    )
    assert state.phase == "over"


def test_a_hand_in_progress_is_never_replayable(
    alice: User, alice_client: Client, anon_client: Client
) -> None:
    hand = running_hand(alice)
    for client in (alice_client, anon_client):
        response = client.get(f"/api/hands/{hand.pk}/replay")
        assert response.status_code == 403
        assert response.json()["error"] == "hand_in_progress"
        assert "steps" not in response.json()
        assert client.get(reverse("history:replay", args=[hand.pk])).status_code == 404
    with pytest.raises(AssertionError):
        build(hand)


def test_an_unknown_hand_is_a_json_404(anon_client: Client) -> None:
    response = anon_client.get("/api/hands/999999/replay")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_replay_page_for_player_spectator_and_stranger(alice: User, bob: User, anon_client: Client) -> None:
    hand = finished_hand(alice)
    url = reverse("history:replay", args=[hand.pk])
    assert url == f"/hands/{hand.pk}/replay/"
    for client in (logged_in_client(alice), logged_in_client(bob), anon_client):
        response = client.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="replay-data"' in html and "replay.js" in html and 'data-step="next"' in html


def test_a_private_tables_replay_is_for_its_players(alice: User, bob: User, anon_client: Client) -> None:
    hand = finished_hand(alice, public=False)
    url = reverse("history:replay", args=[hand.pk])
    assert logged_in_client(alice).get(url).status_code == 200
    assert logged_in_client(bob).get(url).status_code == 404
    assert anon_client.get(url).status_code == 404
    assert anon_client.get(f"/api/hands/{hand.pk}/replay").status_code == 404
    # Her API token identifies her to the API as well.
    token = create_api_token(alice)
    response = Client().get(f"/api/hands/{hand.pk}/replay", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200


def test_the_replay_names_each_pattern_as_its_variant_does(alice: User, anon_client: Client) -> None:
    from games.engine import patterns

    hand = won_hand(alice)
    data = anon_client.get(f"/api/hands/{hand.pk}/replay").json()
    named = {pid for score in (hand.result or {}).get("scores", []) for pid in score.get("patterns", [])}
    assert named, "the helper hand is a won hand"
    assert set(data["pattern_names"]) == named
    for pid, name in data["pattern_names"].items():
        entry = patterns.pattern("two_player", pid)
        assert entry is not None and (name["zh"], name["en"]) == (entry.name_zh, entry.name_en)
        assert name["href"] == f"/rules/two_player/#pattern-{pid}"


def _page_data(client: Client, hand_id: int, language: str) -> tuple[str, dict]:
    import json
    import re

    html = client.get(
        reverse("history:replay", args=[hand_id]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    raw = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    return html, json.loads(raw)


def test_the_replay_reads_in_the_viewers_language_with_the_tables_names(alice: User) -> None:
    hand = won_hand(alice)  # alice and a bot at a two_player table
    client = logged_in_client(alice)
    html, data = _page_data(client, hand.pk, "en")
    assert data["players"] == ["alice", "Bot 2"]  # the bot as the live board names it in English
    steps = data["text"]["steps"]
    assert len(steps) == len(data["steps"]) and steps[0] == "The deal"
    discards = [t for t in steps if " discards " in t]
    assert discards and all(t.startswith(("alice ", "Bot 2 ")) for t in discards)
    assert "机器人" not in html
    assert not any(re.search(r"\b\d[mpsz]\b", t) for t in steps)  # no engine notation ("6s")
    assert data["text"]["info"][0].startswith("Wall ")
    assert "⏮" not in html and "⏭" not in html and html.count('<svg class="icon"') == 4
    scores = data["text"]["scores"]
    assert scores and all("_" not in p for s in scores for p in s["patterns"])  # names, not ids
    assert all(s["line"] for s in scores)
    _html, chinese = _page_data(client, hand.pk, "zh-hans")
    assert chinese["players"] == ["alice", "机器人 2"]
    assert any(" 打出 " in t for t in chinese["text"]["steps"]) and chinese["text"]["info"][0].startswith(
        "牌墙 "
    )
    assert data["bottom"] == 0


def test_step_texts_for_every_kind_of_action() -> None:
    from django.utils import translation

    from games.history.replay_text import step_text

    with translation.override("en"):
        assert step_text({"type": "chi", "tile": "6s", "tiles": "567s"}, "bot", "Bo") == (
            "Bo chows 6 Bamboo into 5 Bamboo 6 Bamboo 7 Bamboo"
        )
        assert (
            step_text({"type": "pong", "tile": "5z"}, "timeout", "Ann")
            == "Ann pongs White dragon (time ran out)"
        )
        assert step_text({"type": "kong", "tile": "1m", "kind": "concealed"}, "human", "Ann") == (
            "Ann declares a kong (暗杠) of 1 Characters"
        )
        assert (
            step_text({"type": "choose", "kind": "lazhuang", "value": 2}, "human", "Ann")
            == "Ann pulls 2 (拉庄)"
        )
    with translation.override("zh-hans"):
        assert step_text({"type": "pong", "tile": "5m"}, "human", "甲") == "甲 碰 五万"
        assert step_text({"type": "pass"}, "auto", "甲") == "甲 过 (托管)"


# --- fair deals and open records ------------------------------------------------------------


def test_a_new_hand_shows_its_commitment_and_hides_salt_and_wall(alice: User, alice_client: Client) -> None:
    """From the deal on every viewer's JSON view carries view.hand.commitment; no view or page of
    the running hand holds the salt or the wall, and neither replay nor record is served."""
    import hashlib

    from games.engine.rulesets import get_ruleset
    from games.engine.wall import deal_wall, wall_text
    from games.rendering.presenters import json_view, table_context

    hand = running_hand(alice)
    salt = hand.setup["salt"]
    assert len(salt) == 64
    wall = wall_text(deal_wall(get_ruleset("two_player").wall_tiles(), hand.seed, salt)[2])
    expected = hashlib.sha256(f"{salt}:{wall}".encode()).hexdigest()
    for user in (alice, None):
        view = json_view(table_context(hand.table_id, user))
        assert view["hand"]["commitment"] == expected
        text = json.dumps(view)
        assert salt not in text and wall not in text and wall[:23] not in text
    page = alice_client.get(reverse("games:table", args=[hand.table_id])).content.decode()
    assert expected in page and salt not in page and wall[:23] not in page
    for url in (f"/api/hands/{hand.pk}/record", f"/api/hands/{hand.pk}/replay"):
        response = alice_client.get(url)
        assert response.status_code == 403 and salt not in response.content.decode()


def test_after_the_hand_the_replay_reveals_salt_and_wall(alice: User, anon_client: Client) -> None:
    import hashlib

    hand = finished_hand(alice)
    data = anon_client.get(f"/api/hands/{hand.pk}/replay").json()
    assert data["salt"] == hand.setup["salt"]
    assert hashlib.sha256(f"{data['salt']}:{data['wall']}".encode()).hexdigest() == data["commitment"]
    assert data["steps"][0]["view"]["commitment"] == data["commitment"]
    page = anon_client.get(reverse("history:replay", args=[hand.pk])).content.decode()
    assert data["salt"] in page and 'id="download-record"' in page


def test_the_hand_record_is_valid_and_verifies(alice: User, anon_client: Client) -> None:
    from games.engine.record import check_record, verify_record

    hand = finished_hand(alice)
    response = anon_client.get(f"/api/hands/{hand.pk}/record")
    assert response.status_code == 200
    record = response.json()
    check_record(record)
    assert verify_record(record)["ok"]
    assert record["fairness"]["salt"] == hand.setup["salt"]
    assert record["result"]["payments"] == hand.result["payments"]
    assert [p["name"] for p in record["players"]][:1] == ["alice"]
    download = anon_client.get(f"/api/hands/{hand.pk}/record?download=1")
    assert download["Content-Disposition"] == f'attachment; filename="hand-{hand.pk}.json"'


def test_an_older_hand_without_a_salt_exports_with_its_seed(alice: User, anon_client: Client) -> None:
    """Hands stored before commitments have only a seed: the record says so and still replays."""
    from games.engine.record import replay_record
    from games.engine.simulate import play_hand
    from games.engine.view import result_view
    from games.models import Hand

    hand = finished_hand(alice)
    # make it an older hand: the setup without a salt, and a log dealt from the seed
    setup = {k: v for k, v in hand.setup.items() if k != "salt"}
    final, log, _ = play_hand("two_player", hand.seed, check=False, **setup)
    HandAction.objects.filter(hand=hand).delete()
    for seq, (seat, action) in enumerate(log, 1):
        HandAction.objects.create(hand=hand, seq=seq, seat=seat, action=action.to_json(), actor="bot")
    result = result_view(final.result)
    Hand.objects.filter(pk=hand.pk).update(setup=setup, result=result, actions_count=len(log))
    record = anon_client.get(f"/api/hands/{hand.pk}/record").json()
    assert record["fairness"]["scheme"] == "legacy-seed" and record["fairness"]["commitment"] is None
    assert record["fairness"]["seed"] == str(hand.seed) and "salt" not in record["fairness"]
    assert replay_record(record).final.phase == "over"
    data = anon_client.get(f"/api/hands/{hand.pk}/replay").json()
    assert data["commitment"] is None and data["salt"] is None and data["wall"] == record["fairness"]["wall"]
    assert data["steps"][0]["view"]["commitment"] is None


def test_the_match_record_holds_only_finished_hands(alice: User, bob: User, anon_client: Client) -> None:
    from games.engine.record import check_record, replay_record
    from games.models import Hand

    hand = finished_hand(alice)
    response = anon_client.get(f"/api/matches/{hand.match_id}/record")
    assert response.status_code == 200
    record = response.json()
    check_record(record)
    assert record["kind"] == "match" and [h["meta"]["site_hand"] for h in record["hands"]] == [hand.pk]
    assert replay_record(record["hands"][0]).final.phase == "over"
    running = running_hand(alice)
    assert running.status == Hand.Status.PLAYING
    assert anon_client.get(f"/api/matches/{running.match_id}/record").json()["error"] == "no_finished_hand"
    assert anon_client.get("/api/matches/999999/record").status_code == 404
    private = finished_hand(alice, public=False)
    assert logged_in_client(bob).get(f"/api/matches/{private.match_id}/record").status_code == 404
    assert logged_in_client(alice).get(f"/api/matches/{private.match_id}/record").status_code == 200


def _first_action(record: dict) -> dict:
    return next(e for e in record["events"] if e["type"] == "action")


def _upload(client: Client, content: bytes, filename: str = "hand.json") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(reverse("history:open_record"), {"record": SimpleUploadedFile(filename, content)})


def test_an_uploaded_record_opens_in_the_viewer_and_stores_nothing(alice: User, anon_client: Client) -> None:
    from games.models import Hand

    hand = finished_hand(alice)
    raw = anon_client.get(f"/api/hands/{hand.pk}/record").content
    before = (Hand.objects.count(), HandAction.objects.count())
    response = _upload(logged_in_client(alice), raw)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="replay-hands"' in html and "replay.js" in html and 'id="record-error"' not in html
    assert (Hand.objects.count(), HandAction.objects.count()) == before


@pytest.mark.parametrize(
    "tamper, words",
    [
        (lambda r: r["result"]["payments"].__setitem__(0, r["result"]["payments"][0] + 1), "result"),
        (lambda r: r.update(version=2), "version 2"),
        (lambda r: r["fairness"].update(commitment="0" * 64), "commitment"),
        (lambda r: _first_action(r).update(seat=1 - _first_action(r)["seat"]), "action 1"),
    ],
)
def test_a_tampered_upload_is_refused_with_the_first_problem(
    alice: User, anon_client: Client, tamper: Any, words: str
) -> None:
    hand = finished_hand(alice)
    record = anon_client.get(f"/api/hands/{hand.pk}/record").json()
    tamper(record)
    response = _upload(logged_in_client(alice), json.dumps(record).encode())
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="record-error"' in html and words in html and 'id="replay-hands"' not in html


def test_an_upload_over_a_megabyte_or_missing_is_refused(alice: User, anon_client: Client) -> None:
    from games.engine.record import MAX_BYTES

    client = logged_in_client(alice)
    response = _upload(client, b" " * (MAX_BYTES + 1))
    assert response.status_code == 400 and "1 MB" in response.content.decode()
    response = client.post(reverse("history:open_record"), {})
    assert response.status_code == 400 and 'id="record-error"' in response.content.decode()
    assert client.get(reverse("history:open_record")).status_code == 200
    assert anon_client.get(reverse("history:open_record")).status_code == 302  # sign in first


def test_the_replays_text_names_a_pattern_as_the_hands_variant_does() -> None:
    """all_pungs is 对对胡 in yihua and 碰碰和 in cantonese, never the first catalogue's 碰碰胡."""
    from django.utils import translation

    from games.history.replay_text import replay_text

    for variant, name in (("yihua", "对对胡"), ("cantonese", "碰碰和"), ("shanghai", "碰碰胡")):
        score = {"seat": 0, "value": 1, "patterns": ["all_pungs"], "payments": [0, 0, 0, 0]}
        data = {
            "variant": variant,
            "players": ["a", "b", "c", "d"],
            "steps": [],
            "result": {"scores": [score]},
        }
        with translation.override("zh-hans"):
            [line] = replay_text(data)["scores"]
        assert line["patterns"][0].startswith(name), (variant, line)
