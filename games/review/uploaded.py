"""The review of a record file opened with `/replays/open/`: what `python -m games.engine review
--seat N` prints for it, computed on request for one hand and one seat (within the review's
budget of a second) and never stored as a HandReview — an uploaded hand has no row to hang it on.

The uploaded bytes are kept in Django's cache under their SHA-256 for `KEPT` seconds, so the
review links of the opened page can find the record again without a second upload; the hand's
replay and the review of a (record, hand, seat, reviewer version) are cached beside it, so a
reload replays and reviews nothing.
Only someone who had the file knows its hash."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games.engine.review import REVIEWER_VERSION, review_replayed
from games.history import replays

KEPT = 60 * 60


class RecordGone(Exception):
    """The record is no longer kept (or never was): it must be opened again."""


def remember(raw: bytes) -> str:
    """Keep an opened record's bytes; their hash, which the review links name."""
    digest = hashlib.sha256(raw).hexdigest()
    cache.set(f"opened-record:{digest}", raw, KEPT)
    return digest


def review_of_upload(digest: str, index: int, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The replay data of hand `index` of the kept record and the review of `seat` in it.
    Raises RecordGone, or the engine's RecordError/EngineError (a bad hand or seat)."""
    raw = cache.get(f"opened-record:{digest}")
    if raw is None:
        raise RecordGone(digest)
    data_key = f"opened-replay:{digest}:{index}"
    review_key = f"opened-review:{digest}:{index}:{seat}:{REVIEWER_VERSION}"
    data, review = cache.get(data_key), cache.get(review_key)
    if data is None or review is None:  # the hand is replayed once for both
        replayed = replays.uploaded_hand(raw, index, settings.RECORD_MAX_HANDS)
        if data is None:
            data = replays.replay_data(replayed)
            cache.set(data_key, data, KEPT)
        if review is None:
            review = review_replayed(replayed, seat)
            cache.set(review_key, review, KEPT)
    return data, review
