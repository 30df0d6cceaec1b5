"""Practice against bots in one click, timer presets and tables with no timer."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.clock.ticks import drive_table_until_idle
from games.engine.actions import seats_to_act
from games.models import Table
from games.rendering.presenters import table_context
from games.table import commands, opening, presence, store, timing
from games.table import errors as table_errors
from games.web.forms import TIMER_PRESETS, CreateTableForm
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", ["shanghai", "yihua", "cantonese", "tianjin", "two_player"])
def test_practice_starts_a_private_untimed_hand_with_bots(
    alice: User, alice_client: Client, variant: str
) -> None:
    response = alice_client.post(reverse("games:practice"), {"variant": variant})
    table = Table.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[table.pk])
    assert not table.public and table.turn_seconds == 0 and table.claim_seconds == 0
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("index"))
    assert seats[0].user == alice and all(s.is_bot for s in seats[1:])


def test_practice_needs_a_known_rule_set_and_a_login(alice_client: Client, anon_client: Client) -> None:
    response = alice_client.post(reverse("games:practice"), {"variant": "riichi"}, follow=True)
    assert not Table.objects.exists()
    assert "Choose a rule set" in response.content.decode() or "请选择" in response.content.decode()
    response = anon_client.post(reverse("games:practice"), {"variant": "shanghai"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert anon_client.get(reverse("games:practice")).status_code in (302, 405)


def test_an_untimed_table_waits_for_a_connected_player(alice: User) -> None:
    table = opening.create_table(alice, "shanghai", public=False, turn_seconds=0, claim_seconds=0)
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 1)
    for index in (1, 2, 3):
        commands.add_bot(table.pk, alice, index)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    drive_table_until_idle(table.pk)  # the bots play until the hand waits for her, then nothing is due
    table = Table.objects.get(pk=table.pk)
    ctx = store.load(table)
    assert 0 in seats_to_act(ctx.state) and ctx.state.phase != "over"
    assert table.deadline is None and timing.seat_due(ctx, ctx.seats[0]) is None
    assert table_context(table, alice)["table"]["deadline_ms"] is None


def test_a_public_table_must_have_a_timer(alice: User) -> None:
    with pytest.raises(table_errors.ServiceError) as error:
        opening.create_table(alice, "shanghai", public=True, turn_seconds=0, claim_seconds=0)
    assert error.value.code == "bad_timer"


def form(**fields: object) -> CreateTableForm:
    data = {"variant": "shanghai", "base": 2, "turn_seconds": 15, "claim_seconds": 8, "pause_ms": 1000}
    data.update({"bots": 0, "public": "on", "timer": "custom"})
    data.update(fields)
    return CreateTableForm(data={k: v for k, v in data.items() if v is not None})


@pytest.mark.parametrize("preset", ["fast", "normal", "slow"])
def test_a_timer_preset_sets_both_timers(preset: str) -> None:
    f = form(timer=preset, turn_seconds=999)  # the custom fields are ignored (and may be wrong)
    assert f.is_valid(), f.errors
    assert (f.cleaned_data["turn_seconds"], f.cleaned_data["claim_seconds"]) == TIMER_PRESETS[preset]


def test_no_timer_only_for_private_tables() -> None:
    assert not form(timer="none").is_valid()
    f = form(timer="none", public=None)
    assert f.is_valid(), f.errors
    assert (f.cleaned_data["turn_seconds"], f.cleaned_data["claim_seconds"]) == (0, 0)


def test_custom_timers_are_still_checked() -> None:
    assert not form(timer="custom", turn_seconds=999).is_valid()


def test_bots_and_auto_play_still_move_on_an_untimed_table(alice: User) -> None:
    table = opening.create_table(alice, "two_player", public=False, turn_seconds=0, claim_seconds=0)
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 1)
    commands.add_bot(table.pk, alice, 1)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)  # alice never connected: 托管 plays her seat, the bot its own
    assert Table.objects.get(pk=table.pk).hand.status == "over"
