"""Small things of the pages around the board: favicon, greeting, rule-set links, lobby filter in
the URL, seat names, the API page, the spectator count, and the leaver's way back to the lobby."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Table
from games.table import commands
from tests.conftest import logged_in_client
from tests.games.conftest import bot_table

pytestmark = pytest.mark.django_db


def test_favicon_is_the_sites_icon(anon_client: Client) -> None:
    response = anon_client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    html = anon_client.get("/").content.decode()
    assert 'rel="icon"' in html and "favicon.svg" in html


def test_rule_set_cards_link_the_rules_pages(anon_client: Client) -> None:
    html = anon_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for variant in ("shanghai", "yihua", "cantonese", "tianjin", "two_player"):
        assert f'href="/rules/{variant}/"' in html


def test_the_lobby_filter_is_kept_in_the_url(anon_client: Client) -> None:
    html = anon_client.get("/lobby/?variant=tianjin&free=1").content.decode()
    assert 'hx-push-url="true"' in html and 'hx-get="/lobby/"' in html  # the page's own URL, with its query
    assert '<option value="tianjin" selected>' in html and 'name="free" value="1" checked' in html


def test_lobby_seats_carry_the_boards_winds_and_bot_names(alice: User, anon_client: Client) -> None:
    table = bot_table(alice, "shanghai")
    Table.objects.filter(pk=table.pk).update(dealer=2)  # seat 2 deals: it is East on the board
    from games.rendering.presenters import table_context
    from games.web.views import lobby_tables

    row = next(t for t in lobby_tables() if t["id"] == table.pk)
    board = table_context(table.pk, None)["table"]["seats"]
    assert [s["wind_zh"] for s in row["seats"]] == [s["wind_zh"] for s in board] == ["西", "北", "东", "南"]
    assert [s["name"] for s in row["seats"]] == [s["name"] for s in board]
    assert row["seats"][1]["name"] == "机器人 2"


def test_lobby_seat_tooltips_name_bots_in_the_viewers_language(alice: User, anon_client: Client) -> None:
    bot_table(alice, "shanghai")
    english = anon_client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = anon_client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'title="南 Bot 2"' in english and "机器人" not in english
    assert 'title="南 机器人 2"' in chinese


def test_the_create_form_does_not_promise_east(alice_client: Client) -> None:
    html = alice_client.get("/tables/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "East seat" not in html and "The winds follow the dealer" in html


def test_the_profile_links_the_api_page_in_the_users_language(alice_client: Client) -> None:
    html = alice_client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "docs/protocol.md" not in html and 'href="/developers/api/"' in html
    assert "创建 API 令牌" in html and "API 使用说明" in html
    page = alice_client.get("/developers/api/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "POST /api/tables/" in page.content.decode()
    assert (
        "面向机器人和程序的 API"
        in alice_client.get("/developers/api/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    )


def test_a_spectators_page_counts_its_viewer(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai")
    html = logged_in_client(bob).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Spectators 1" in html
    seated = logged_in_client(alice).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Spectators 0" in seated


def test_the_status_tells_the_page_when_its_viewer_has_left(alice: User, bob: User) -> None:
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import table_context

    table = bot_table(alice, "shanghai")
    commands.remove_bot(table.pk, alice, 1)
    commands.sit(table.pk, bob, 1)
    commands.accept_stake(table.pk, bob)
    assert 'data-seated="1"' in render_table_html(table_context(table.pk, bob))
    commands.start_hand(table.pk, alice)
    commands.leave(table.pk, bob)  # mid-hand: marked left, a bot finishes the hand
    assert 'data-seated="left"' in render_table_html(table_context(table.pk, bob))
    assert 'data-seated="0"' in render_table_html(table_context(table.pk, None))
    page = logged_in_client(bob).get(f"/tables/{table.pk}/").content.decode()
    assert 'data-lobby="/lobby/"' in page
