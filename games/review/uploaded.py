"""The review of a record file opened with `/replays/open/`: what `python -m games.engine review
--seat N` prints for it, computed on request for one hand and one seat (within the review's
budget of a second) and never stored as a HandReview — an uploaded hand has no row to hang it on.

The uploaded bytes are kept in the `opened_records` cache (a database table every process reads:
settings.CACHES) under their SHA-256 for `KEPT` seconds, so the review links of the opened page
find the record again without a second upload, whichever process serves them; the hand's
replay and the review of a (record, hand, seat, reviewer version) are cached beside it, so a
reload replays and reviews nothing.
Only someone who had the file knows its hash."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import caches

from games.engine.review import REVIEWER_VERSION, review_replayed
from games.history import replays

KEPT = 60 * 60
cache = caches["opened_records"]


class RecordGone(Exception):
    """The record is no longer kept (or never was): it must be opened again."""


def remember(raw: bytes) -> str:
    """Keep an opened record's bytes; their hash, which the review links name."""
    digest = hashlib.sha256(raw).hexdigest()
    cache.set(f"opened-record:{digest}", raw, KEPT)
    return digest


def _keys(digest: str, index: int, seat: int) -> tuple[str, str]:
    return f"opened-replay:{digest}:{index}", f"opened-review:{digest}:{index}:{seat}:{REVIEWER_VERSION}"


def kept(digest: str, index: int, seat: int) -> tuple[bytes, dict[str, Any] | None, dict[str, Any] | None]:
    """The kept record's bytes, and hand `index`'s replay data and `seat`'s review if they were
    kept too. Raises RecordGone. (A database read: on the request's thread, not a worker's.)"""
    raw = cache.get(f"opened-record:{digest}")
    if raw is None:
        raise RecordGone(digest)
    data_key, review_key = _keys(digest, index, seat)
    return raw, cache.get(data_key), cache.get(review_key)


def review_of_upload(
    raw: bytes, index: int, seat: int, data: dict[str, Any] | None, review: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What was not kept of hand `index`'s replay data and `seat`'s review, computed (CPU only:
    a record worker's thread). Raises the engine's RecordError/EngineError (a bad hand or seat)."""
    if data is None or review is None:  # the hand is replayed once for both
        replayed = replays.uploaded_hand(raw, index, settings.RECORD_MAX_HANDS)
        data = data if data is not None else replays.replay_data(replayed)
        review = review if review is not None else review_replayed(replayed, seat)
    return data, review


def keep(digest: str, index: int, seat: int, data: dict[str, Any], review: dict[str, Any]) -> None:
    """Keep a hand's replay data and a seat's review beside the record, so a reload computes nothing."""
    data_key, review_key = _keys(digest, index, seat)
    cache.set_many({data_key: data, review_key: review}, KEPT)
