"""Bot strength per seat: chosen when a bot is added (table page, create form, API),
stored on the seat, and used by the clock when the bot plays."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.services import create_api_token
from games.clock import ticks
from games.engine.actions import Action
from games.models import HandAction, Seat, Table
from games.rendering.fragments import render_table_html
from games.rendering.presenters import table_context
from games.table import commands, errors, opening, play
from tests.games.conftest import bot_table
from tests.games.test_rendering import table_info
from tests.games.test_views import create_payload

pytestmark = pytest.mark.django_db


def _levels(table: Table) -> list[str | None]:
    return [s.bot_level if s.is_bot else None for s in Seat.objects.filter(table=table).order_by("index")]


def test_add_bot_stores_the_level_and_defaults_to_normal(alice: User) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    commands.add_bot(table.pk, alice, 1, "strong")
    commands.add_bot(table.pk, alice, 2, "easy")
    commands.add_bot(table.pk, alice, 3)
    assert _levels(table) == [None, "strong", "easy", "normal"]


@pytest.mark.parametrize("level", ["godlike", "", None, 2, ["strong"]])
def test_an_unknown_level_is_refused_and_changes_nothing(alice: User, level: Any) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(errors.ServiceError) as e:
        commands.add_bot(table.pk, alice, 1, level)
    assert e.value.code == "unknown_level" and "easy, normal, strong" in e.value.message
    assert _levels(table) == [None, None, None, None]
    assert Table.objects.get(pk=table.pk).version == version


def test_the_socket_action_carries_the_level(alice: User) -> None:
    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, alice, 0)
    version = Table.objects.get(pk=table.pk).version
    commands.perform(table.pk, alice, version, {"type": "add_bot", "seat": 1, "level": "strong"})
    assert _levels(table) == [None, "strong"]
    version = Table.objects.get(pk=table.pk).version
    commands.perform(table.pk, alice, version, {"type": "remove_bot", "seat": 1})
    with pytest.raises(errors.ServiceError):
        commands.perform(table.pk, alice, version + 1, {"type": "add_bot", "seat": 1, "level": "wizard"})
    assert _levels(table) == [None, None]
    commands.perform(table.pk, alice, version + 1, {"type": "add_bot", "seat": 1, "level": "expert"})
    assert _levels(table) == [None, "expert"]


def test_the_clock_plays_each_bot_at_its_own_level(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    for index, level in ((1, "easy"), (2, "normal"), (3, "strong")):
        commands.add_bot(table.pk, alice, index, level)
    asked: list[tuple[str, int]] = []
    real = play.decide  # every bot decision: on its turn (the clock) and in a window (at once)

    def spy(level: str, state: Any, seat: int, rng: random.Random) -> Action:
        asked.append((level, seat))
        return real(level, state, seat, rng)

    monkeypatch.setattr(play, "decide", spy)
    commands.start_hand(table.pk, alice)
    ticks.drive_table_until_idle(
        table.pk,
        until=lambda t: HandAction.objects.filter(actor="bot").values("seat").distinct().count() >= 3,
    )
    assert {seat: level for level, seat in asked} == {1: "easy", 2: "normal", 3: "strong"}


def test_the_api_takes_a_count_or_a_list_of_levels(alice: User) -> None:
    token = create_api_token(alice)
    headers = {"Authorization": f"Bearer {token}"}

    def post(body: dict[str, Any]) -> Any:
        return Client().post(
            "/api/tables/", data=json.dumps(body), content_type="application/json", headers=headers
        )

    made = post({"variant": "shanghai", "base": 1, "bots": ["strong", "easy", "normal"]})
    assert made.status_code == 201
    assert _levels(Table.objects.get(pk=made.json()["id"])) == [None, "strong", "easy", "normal"]
    made = post({"variant": "two_player", "base": 1, "bots": 1})
    assert _levels(Table.objects.get(pk=made.json()["id"])) == [None, "normal"]
    tables = Table.objects.count()
    bad = post({"variant": "shanghai", "base": 1, "bots": ["strong", "wizard"]})
    assert bad.status_code == 400 and bad.json()["error"] == "unknown_level"
    assert "easy, normal, strong" in bad.json()["message"]
    too_many = post({"variant": "two_player", "base": 1, "bots": ["strong", "easy"]})
    assert too_many.status_code == 400 and too_many.json()["error"] == "bad_bots"
    assert Table.objects.count() == tables


def test_the_create_form_sets_the_bots_level(alice_client: Client) -> None:
    alice_client.post(reverse("games:create"), create_payload(bot_level="strong"))
    assert _levels(Table.objects.get()) == [None, "strong", "strong", "strong"]


def test_the_create_form_refuses_an_unknown_level(alice_client: Client) -> None:
    response = alice_client.post(reverse("games:create"), create_payload(bot_level="wizard"))
    assert response.status_code == 200 and not Table.objects.exists()
    assert "wizard" in response.content.decode()  # Django's "not one of the available choices"
    page = alice_client.get(reverse("games:create")).content.decode()
    assert 'name="bot_level"' in page and 'value="strong"' in page


def test_the_table_page_offers_one_add_bot_button_per_level(alice: User) -> None:
    table = table_info(4, None, phase="waiting", status="waiting", stake_state="proposed", deadline_ms=None)
    table["seats"][2].update(name=None, is_bot=False, balance=None, accepted=False)
    table["seats"][3].update(name="机器人 4", is_bot=True, bot_level="strong")
    legal = [{"type": "add_bot", "seat": 2}]
    html = render_table_html(
        {"table": table, "view": None, "legal": legal, "viewer": {"user": "eve", "seat": None}}
    )
    for level in ("easy", "normal", "strong"):
        assert (
            f"&quot;type&quot;:&quot;add_bot&quot;,&quot;seat&quot;:2,&quot;level&quot;:&quot;{level}&quot;"
            in html
        )
    assert 'class="badge bot-level"' in html


def test_everybody_sees_which_strength_each_bot_has(alice: User, bob: User) -> None:
    table = bot_table(alice, "two_player")
    seats = table_context(table.pk, bob)["table"]["seats"]
    assert [(s["is_bot"], s["bot_level"]) for s in seats] == [(False, None), (True, "normal")]


# -- expert, the searching level ----------------------------------------------------------------


def test_expert_is_chosen_like_every_other_level(alice: User, alice_client: Client) -> None:
    """The create form, the API and the table page's buttons all know expert, in both languages."""
    alice_client.post(reverse("games:create"), create_payload(bot_level="expert"))
    assert _levels(Table.objects.get()) == [None, "expert", "expert", "expert"]
    token = create_api_token(alice)
    made = Client().post(
        "/api/tables/",
        {"variant": "shanghai", "base": 1, "bots": ["expert", "strong"]},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert made.status_code == 201, made.content
    assert _levels(Table.objects.get(pk=made.json()["id"])) == [None, "expert", "strong", None]
    table = table_info(4, None, phase="waiting", status="waiting", stake_state="proposed", deadline_ms=None)
    table["seats"][2].update(name=None, is_bot=False, balance=None, accepted=False)
    table["seats"][3].update(name="机器人 4", is_bot=True, bot_level="expert")
    html = render_table_html(
        {
            "table": table,
            "view": None,
            "legal": [{"type": "add_bot", "seat": 2}],
            "viewer": {"user": "eve", "seat": None},
        }
    )
    assert "&quot;level&quot;:&quot;expert&quot;" in html
    assert ">专家</span>" in html  # the site speaks Chinese first
    from django.utils import translation

    with translation.override("en"):
        english = render_table_html(
            {"table": table, "view": None, "legal": [], "viewer": {"user": "eve", "seat": None}}
        )
    assert 'title="Bot strength">Expert</span>' in english
