"""Site settings read where a socket may render on its event loop (the leave confirmation)."""

from __future__ import annotations

import asyncio

import pytest

from common import settings_store
from games.models import Table
from games.moderation.models import SiteSettings

pytestmark = pytest.mark.django_db


def test_on_the_event_loop_no_query_is_made_and_the_last_read_is_used() -> None:
    SiteSettings.objects.create(escape_multiplier=30, two_player_escape_multiplier=7)
    table = Table(variant="shanghai", base=2)

    async def on_the_loop() -> int:
        return settings_store.escape_penalty_for_render(table)  # a query here would raise

    assert asyncio.run(on_the_loop()) == 100  # nothing read yet in this process: the defaults
    assert settings_store.escape_penalty_for_render(table) == 60  # a sync read: the admin's row
    assert asyncio.run(on_the_loop()) == 60  # the loop now uses what was read
    assert settings_store.escape_penalty_for_render(Table(variant="two_player", base=2)) == 14
    assert (
        settings_store.escape_penalty_for_render(Table(variant="shanghai", base=2, escape_multiplier=5)) == 10
    )


def test_the_escape_penalty_house_rule_is_charged_and_shown_alike(db: None) -> None:
    """The creator's `escape_penalty` option sets the penalty; the board (a render on
    the event loop) shows the same number the ledger charges."""
    table = Table(variant="shanghai", base=2, options={"escape_penalty": 20})
    assert table.escape_penalty == 40
    assert settings_store.escape_penalty_for_render(table) == 40
    plain = Table(variant="shanghai", base=2)
    assert plain.escape_penalty == settings_store.escape_penalty_for_render(plain) == 100
