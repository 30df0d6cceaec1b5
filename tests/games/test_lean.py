"""The lean socket's JSON text (games/sockets/lean.py)."""

from __future__ import annotations

import json

import pytest

from games.sockets.lean import json_text


def test_a_frame_is_compact_utf8_json() -> None:
    frame = {"type": "state", "view": {"name": "上海麻将 #1", "seats": [1, None, True]}}
    text = json_text(frame)
    assert text == '{"type":"state","view":{"name":"上海麻将 #1","seats":[1,null,true]}}'
    assert json.loads(text) == frame


def test_keys_that_are_not_strings_are_written_as_strings() -> None:
    assert json.loads(json_text({"payments": {0: 8, 3: -8}})) == {"payments": {"0": 8, "3": -8}}


def test_what_json_cannot_hold_is_still_refused() -> None:
    with pytest.raises(TypeError):
        json_text({"tiles": {1, 2}})
