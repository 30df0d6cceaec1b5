"""HTML views: the lobby (and its polled fragment), the create-table form, the table page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.table import commands, opening
from tests.conftest import logged_in_client
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db


def create_payload(**overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "variant": "shanghai",
        "base": 2,
        "turn_seconds": 15,
        "claim_seconds": 8,
        "pause_ms": 1000,
        "bots": 3,
        "public": "on",
    }
    data.update(overrides)
    return data


# --- lobby --------------------------------------------------------------------------------


def test_lobby_groups_public_tables_by_variant(anon_client: Client, alice: User, bob: User) -> None:
    shanghai = bot_table(alice, "shanghai")
    two = opening.create_table(bob, "two_player")
    private = opening.create_table(bob, "cantonese", public=False)
    response = anon_client.get(reverse("games:lobby"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="lobby-tables"' in html and 'hx-trigger="every 5s"' in html
    assert f'data-table="{shanghai.pk}"' in html and f'data-table="{two.pk}"' in html
    assert f'data-table="{private.pk}"' not in html
    assert html.index("上海麻将") < html.index("二人麻将")
    assert "4/4" in html  # seats taken / total


def test_lobby_filters_by_variant_and_free_seat(anon_client: Client, alice: User, bob: User) -> None:
    full = bot_table(alice, "shanghai")
    open_table = opening.create_table(bob, "shanghai")
    two = opening.create_table(bob, "two_player")
    html = anon_client.get(reverse("games:lobby_tables"), {"free": "1"}).content.decode()
    assert f'data-table="{full.pk}"' not in html and f'data-table="{open_table.pk}"' in html
    html = anon_client.get(reverse("games:lobby_tables"), {"variant": "two_player"}).content.decode()
    assert f'data-table="{two.pk}"' in html and f'data-table="{open_table.pk}"' not in html
    assert "<html" not in html  # a fragment


def test_private_table_listed_for_its_owner(alice_client: Client, alice: User) -> None:
    private = opening.create_table(alice, "yihua", public=False)
    html = alice_client.get(reverse("games:lobby")).content.decode()
    assert f'data-table="{private.pk}"' in html


# --- create a table -----------------------------------------------------------------------


def test_create_table_needs_login(anon_client: Client) -> None:
    response = anon_client.get(reverse("games:create"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_create_form_offers_variants_timers_and_house_rules(alice_client: Client) -> None:
    html = alice_client.get(reverse("games:create")).content.decode()
    for zh in ("上海麻将", "一花起胡", "广东鸡平和", "天津麻将", "二人麻将"):
        assert zh in html
    assert 'name="turn_seconds"' in html and 'value="15"' in html
    assert 'name="claim_seconds"' in html and 'value="8"' in html
    assert 'name="opt_two_player_cap"' in html  # the rule sets' default_options
    assert 'name="opt_two_player_self_draw_multiplier"' in html and 'max="3"' in html
    assert 'name="public"' in html


def test_create_table_seats_creator_sets_stake_and_adds_bots(alice_client: Client, alice: User) -> None:
    response = alice_client.post(reverse("games:create"), create_payload())
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[table.pk])
    seats = list(table.seats.order_by("index"))
    assert seats[0].user == alice and all(s.is_bot for s in seats[1:])
    assert table.base == 2 and table.stake_state == Table.Stake.FIXED
    assert table.turn_seconds == 15 and table.claim_seconds == 8 and table.public


def test_create_private_table_with_house_rule(alice_client: Client) -> None:
    payload = create_payload(variant="two_player", bots=1, opt_two_player_cap=10)
    payload.pop("public")
    alice_client.post(reverse("games:create"), payload)
    table = Table.objects.get()
    assert not table.public and table.options == {"cap": 10}


def test_create_table_with_the_self_draw_multiplier(alice_client: Client) -> None:
    payload = create_payload(variant="two_player", bots=1, opt_two_player_self_draw_multiplier=1)
    alice_client.post(reverse("games:create"), payload)
    assert Table.objects.get().options == {"self_draw_multiplier": 1}


@pytest.mark.parametrize(
    ("variant", "field", "value"),
    [("two_player", "cap", 0), ("two_player", "cuopai_p", 1.5), ("shanghai", "escape_penalty", 0)],
)
def test_a_house_rule_out_of_range_is_a_form_error(
    alice_client: Client, variant: str, field: str, value: object
) -> None:
    bots = 1 if variant == "two_player" else 3
    payload = create_payload(variant=variant, bots=bots, **{f"opt_{variant}_{field}": value})
    response = alice_client.post(reverse("games:create"), payload)
    assert response.status_code == 200 and not Table.objects.exists()
    assert response.context["form"].errors[f"opt_{variant}_{field}"]


def test_a_hidden_variants_house_rule_does_not_block_the_form(alice_client: Client) -> None:
    """Only the chosen rule set's options are checked (a stale value in another fieldset is ignored)."""
    response = alice_client.post(reverse("games:create"), create_payload(opt_two_player_cap=0))
    assert response.status_code == 302 and Table.objects.get().variant == "shanghai"


def test_odd_yihua_stake_is_refused(alice_client: Client) -> None:
    response = alice_client.post(reverse("games:create"), create_payload(variant="yihua", base=3))
    assert response.status_code == 200
    assert "even" in response.content.decode() or "偶" in response.content.decode()
    assert not Table.objects.exists()
    response = alice_client.post(reverse("games:create"), create_payload(variant="yihua", base=4))
    assert response.status_code == 302


@pytest.mark.parametrize(
    "bad",
    [
        {"base": 0},
        {"base": "many"},
        {"turn_seconds": 1},
        {"claim_seconds": 500},
        {"variant": "poker"},
        {"variant": "two_player", "bots": 3},
        {"variant": "two_player", "bots": 1, "opt_two_player_self_draw_multiplier": 4},
        {"variant": "two_player", "bots": 1, "opt_two_player_self_draw_multiplier": 0},
    ],
)
def test_bad_create_input_is_refused(alice_client: Client, bad: dict[str, object]) -> None:
    response = alice_client.post(reverse("games:create"), create_payload(**bad))
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not Table.objects.exists()


# --- the table page -------------------------------------------------------------------------


def test_owner_sees_own_seat_and_start(alice_client: Client, alice: User) -> None:
    table = bot_table(alice, "shanghai")
    html = alice_client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f'ws-connect="/ws/tables/{table.pk}/"' in html
    assert 'hx-ext="ws"' in html and "board.css" in html and "board.js" in html
    assert 'class="badge you"' in html
    assert "&quot;type&quot;:&quot;start&quot;" in html
    assert "banner watching" not in html


def test_other_user_can_sit_in_a_free_seat(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai", bots=1)
    html = logged_in_client(bob).get(reverse("games:table", args=[table.pk])).content.decode()
    sits = re.findall(r"&quot;type&quot;:&quot;sit&quot;,&quot;seat&quot;:(\d)", html)
    assert sorted(sits) == ["2", "3"]
    assert "&quot;type&quot;:&quot;start&quot;" not in html


def test_anonymous_visitor_watches_without_actions(anon_client: Client, alice: User) -> None:
    table = bot_table(alice, "two_player")
    response = anon_client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "banner watching" in html
    assert "ws-send" not in html


def test_private_table_needs_the_invite_link(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "shanghai", public=False)
    bob_client = logged_in_client(bob)
    url = reverse("games:table", args=[table.pk])
    assert bob_client.get(url).status_code == 404
    assert bob_client.get(url, {"invite": "wrong"}).status_code == 404
    assert bob_client.get(url, {"invite": table.invite_token}).status_code == 200
    assert bob_client.get(url).status_code == 200  # remembered in the session
    assert logged_in_client(alice).get(url).status_code == 200


def test_seated_player_sees_invite_link_for_private_table(alice_client: Client, alice: User) -> None:
    alice_client.post(reverse("games:create"), create_payload(bots=0, public=""))
    table = Table.objects.get()
    html = alice_client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f"?invite={table.invite_token}" in html


def test_missing_table_is_404(anon_client: Client, db: None) -> None:
    assert anon_client.get(reverse("games:table", args=[9999])).status_code == 404


def test_the_escape_penalty_field_shows_the_multiplier_that_applies(alice_client: Client) -> None:
    from games.moderation.models import SiteSettings

    SiteSettings.objects.update_or_create(pk=1, defaults={"escape_multiplier": 40})
    form = alice_client.get(reverse("games:create")).context["form"]
    assert form.fields["opt_shanghai_escape_penalty"].initial == 40
    assert form.fields["opt_two_player_escape_penalty"].initial == 13


def test_the_lobby_shows_a_playing_tables_wind_round(anon_client: Client, alice: User) -> None:
    table = bot_table(alice, "cantonese", base=1)
    assert "东风圈" not in anon_client.get(reverse("games:lobby")).content.decode()  # not started
    commands.start_hand(table.pk, alice)
    assert "东风圈 第1局" in anon_client.get(reverse("games:lobby")).content.decode()
    anon_client.cookies["django_language"] = "en"
    assert "East round, hand 1" in anon_client.get(reverse("games:lobby")).content.decode()
