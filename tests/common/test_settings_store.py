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


def test_on_the_event_loop_the_defaults_are_made_once_until_forgotten() -> None:
    """Before any read a socket process renders with the deploy's defaults: made once, not for
    every frame; forgetting (the caches cleared) makes them again from Django's settings."""
    from django.test import override_settings

    async def on_the_loop() -> settings_store.Current:
        return settings_store.current_for_render()

    settings_store.forget_for_render()
    first = asyncio.run(on_the_loop())
    assert asyncio.run(on_the_loop()) is first
    with override_settings(ESCAPE_MULTIPLIER=40):
        assert asyncio.run(on_the_loop()).escape_multiplier == first.escape_multiplier  # still kept
        settings_store.forget_for_render()
        assert asyncio.run(on_the_loop()).escape_multiplier == 40
    settings_store.forget_for_render()
