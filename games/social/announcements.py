"""Site-wide announcements: an admin writes one with an expiry; it shows at the top
of every page (`{% site_announcements %}` in base.html) and, at once, as a banner on every open
board through the channel layer: each table socket also joins ANNOUNCE_GROUP
(`AnnouncementSocket`), and a change is sent there after commit (`publish`). When one expires,
the clock (`sweep`, from games.clock.ticks.tick) tells the boards once, so the banner goes too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from common import broadcaster
from common.db_threads import db
from games.social.models import Announcement

ANNOUNCE_GROUP = "announcements"
SHOWN_AT_ONCE = 3  # the newest few; an admin rarely has more running


def active(now: datetime | None = None) -> list[Announcement]:
    now = now or timezone.now()
    return list(
        Announcement.objects.filter(starts__lte=now, ends__gt=now).order_by("-starts")[:SHOWN_AT_ONCE]
    )


def as_json(announcements: list[Announcement]) -> list[dict[str, Any]]:
    return [{"id": a.pk, "zh": a.text_zh, "en": a.text_en, "ends": a.ends.isoformat()} for a in announcements]


def text_for(announcement: Announcement, language: str) -> str:
    """The text in the reader's language, else the other one (an admin may write only one)."""
    chinese = language.lower().startswith("zh")
    first, second = (
        (announcement.text_zh, announcement.text_en)
        if chinese
        else (
            announcement.text_en,
            announcement.text_zh,
        )
    )
    return first or second


def banner_html(announcements: list[Announcement], language: str, oob: bool = False) -> str:
    """The banner (templates/games/_announcements.html); `oob`: as an htmx out-of-band swap."""
    items = banner_items(announcements, language)
    with translation.override(language):
        return render_to_string("games/_announcements.html", {"announcements": items, "oob": oob})


def banner_items(announcements: list[Announcement], language: str) -> list[dict[str, Any]]:
    return [{"id": a.pk, "text": text_for(a, language)} for a in announcements]


def publish() -> None:
    """Tell every open board the announcements now in force (after the commit of a change)."""

    def send() -> None:
        broadcaster.send(ANNOUNCE_GROUP, {"type": "announcement.changed"})

    transaction.on_commit(send)


def sweep(now: datetime | None = None) -> int:
    """The clock: announcements whose time came (written ahead) or went since the last pass are
    put on or taken off the boards. Returns how many changed."""
    now = now or timezone.now()
    started = Announcement.objects.filter(starts__lte=now, start_announced=False)
    expired = Announcement.objects.filter(ends__lte=now, expiry_announced=False)
    if not (started.exists() or expired.exists()):  # the usual case: reads only
        return 0
    count = started.update(start_announced=True) + expired.update(expiry_announced=True)
    broadcaster.send(ANNOUNCE_GROUP, {"type": "announcement.changed", "at": now.isoformat()})
    return count


class AnnouncementSocket:
    """Mixed into the table socket: joins the announcement group, sends the banner on changes."""

    channel_layer: Any
    channel_name: str
    json_mode: bool
    language: str
    send: Callable[..., Awaitable[None]]  # the consumer's own
    send_json: Callable[[dict[str, Any]], Awaitable[None]]

    async def join_announcements(self) -> None:
        await self.channel_layer.group_add(ANNOUNCE_GROUP, self.channel_name)

    async def leave_announcements(self) -> None:
        await self.channel_layer.group_discard(ANNOUNCE_GROUP, self.channel_name)

    async def announcement_changed(self, event: dict[str, Any]) -> None:
        at = event.get("at")  # the clock's time of an expiry (else now)
        current = await db(active)(datetime.fromisoformat(at) if isinstance(at, str) else None)
        if self.json_mode:
            await self.send_json({"type": "announcement", "announcements": as_json(current)})
        else:
            await self.send(text_data=banner_html(current, self.language, oob=True))
