"""Opening an uploaded record costs the server real work (every hand replayed and checked, a page
with every step): only a signed-in person may, so many times an hour per account and per address,
a bounded number of hands per record, a few at once per process, off the request thread."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from games.engine import record as records
from games.history import views
from tests.conftest import logged_in_client, make_user
from tests.games.history_helpers import finished_hand

pytestmark = pytest.mark.django_db

URL = "/replays/open/"


def upload(client: Client, content: bytes, address: str = "203.0.113.7") -> object:
    return client.post(URL, {"record": SimpleUploadedFile("r.json", content)}, REMOTE_ADDR=address)


@pytest.fixture
def raw(alice: User) -> bytes:
    hand = finished_hand(alice)
    return Client().get(f"/api/hands/{hand.pk}/record").content


def test_an_anonymous_upload_is_sent_to_log_in_and_nothing_is_replayed(
    raw: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "replay_record", lambda _h: pytest.fail("replayed for a stranger"))
    response = upload(Client(), raw)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@override_settings(RECORD_UPLOADS_PER_USER_PER_HOUR=2, RECORD_UPLOADS_PER_ADDRESS_PER_HOUR=3)
def test_uploads_are_limited_per_account_and_per_address(raw: bytes, bob: User) -> None:
    client = logged_in_client(bob)
    assert [upload(client, raw).status_code for _ in range(3)] == [200, 200, 429]
    carol = logged_in_client(make_user("carol"))
    assert upload(carol, raw).status_code == 200  # the address's third
    dave = logged_in_client(make_user("dave"))
    assert upload(dave, raw).status_code == 429  # the address's fourth
    assert upload(dave, raw, address="198.51.100.7").status_code == 200


@override_settings(RECORD_MAX_HANDS=3)
def test_a_record_of_too_many_hands_is_refused_before_any_replay(
    raw: bytes, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand = json.loads(raw)
    match = {"format": hand["format"], "version": hand["version"], "kind": "match", "hands": [hand] * 4}
    match["match"] = {"id": 1, "variant": hand["variant"], "players": [p["name"] for p in hand["players"]]}
    monkeypatch.setattr(records, "replay_record", lambda _h: pytest.fail("replayed a record too big"))
    client = logged_in_client(bob)
    client.cookies["django_language"] = "en"
    response = upload(client, json.dumps(match).encode())
    assert response.status_code == 400 and "at most 3 hands" in response.content.decode()


def test_when_the_workers_are_busy_the_upload_is_told_to_come_back(
    raw: bytes, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "RECORD_WORKERS", views.Workers(0))
    response = upload(logged_in_client(bob), raw)
    assert response.status_code == 503 and response["Retry-After"]


@pytest.mark.parametrize(
    "content",
    [b"[" * 200_000 + b"]" * 200_000, None],
    ids=["deep-array", "deep-meta"],
)
def test_deeply_nested_json_is_bad_json_not_a_crash(raw: bytes, bob: User, content: bytes | None) -> None:
    if content is None:
        record = json.loads(raw)
        deep: dict = {}
        node = deep
        for _ in range(5000):
            node["x"] = {}
            node = node["x"]
        record["meta"] = deep
        content = _dumps_deep(record)
    with pytest.raises(records.RecordError) as refused:
        records.parse_record(content)
    assert refused.value.code == "bad_json"
    response = upload(logged_in_client(bob), content)
    assert response.status_code == 400 and 'id="record-error"' in response.content.decode()


def _dumps_deep(record: dict) -> bytes:
    """json.dumps recurses: write the 5,000-deep meta by hand."""
    meta = record.pop("meta")
    depth = 0
    while meta:
        meta = meta["x"]
        depth += 1
    head = json.dumps(record)[:-1]
    return (head + ', "meta": ' + '{"x": ' * depth + "{}" + "}" * depth + "}").encode()
