"""The admin's table page is a read-only view of the live state with buttons; logs can't be
added or edited; players are found by name."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Hand, HandAction, Match, ScoreEntry, Seat, Table
from games.moderation.models import AdminAuditLog, Ban
from games.table import commands
from tests.conftest import logged_in_client
from tests.games.conftest import bot_table, play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(db: None) -> Client:
    return logged_in_client(User.objects.create_superuser("root", "root@example.com", "green-dragon-42"))


def test_the_table_page_reads_as_the_live_state_with_no_editable_fields(
    staff_client: Client, alice: User
) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    html = staff_client.get(
        reverse("admin:games_table_change", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'class="live-state"' in html
    assert "东 East" in html and "Round wind: 27" not in html  # a wind, not an engine number
    for field in ("status", "version", "dealer", "round_wind", "counters", "notices", "base"):
        assert f'name="{field}"' not in html  # nothing to type into
    assert 'name="_save"' not in html and "deletelink" not in html
    assert 'name="seats-MAX_NUM_FORMS" value="0"' in html  # no "Add another Seat"
    assert reverse("admin:games_table_close", args=[table.pk]) in html
    assert reverse("admin:games_table_kick", args=[table.pk, 0]) in html
    assert staff_client.get(reverse("admin:games_table_add")).status_code == 403


def test_the_buttons_close_kick_and_make_private(staff_client: Client, alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.remove_bot(table.pk, alice, 1)
    commands.sit(table.pk, bob, 1)
    page = reverse("admin:games_table_change", args=[table.pk])
    kick = reverse("admin:games_table_kick", args=[table.pk, 1])
    assert staff_client.get(kick).status_code == 403  # a button is a POST
    assert staff_client.post(kick).status_code == 302
    assert Seat.objects.get(table=table, index=1).user_id is None
    assert AdminAuditLog.objects.filter(action="kick").exists()
    staff_client.post(reverse("admin:games_table_private", args=[table.pk]))
    assert not Table.objects.get(pk=table.pk).public
    response = staff_client.post(reverse("admin:games_table_close", args=[table.pk]))
    assert response.status_code == 302 and response["Location"] == page
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED
    assert AdminAuditLog.objects.filter(action="close_table").exists()
    assert reverse("admin:games_table_close", args=[table.pk]) not in staff_client.get(page).content.decode()


def test_non_staff_cannot_press_the_buttons(alice_client: Client, alice: User) -> None:
    table = bot_table(alice, "shanghai")
    response = alice_client.post(reverse("admin:games_table_close", args=[table.pk]))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Table.objects.get(pk=table.pk).status != Table.Status.CLOSED


def test_logs_have_no_add_or_edit(staff_client: Client, alice: User) -> None:
    table = bot_table(alice, "two_player")
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    hand = Hand.objects.get(table=table)
    for model, obj in (
        ("handaction", HandAction.objects.filter(hand=hand).first()),
        ("scoreentry", ScoreEntry.objects.filter(hand=hand).first()),
        ("match", Match.objects.get(table=table)),
    ):
        assert staff_client.get(reverse(f"admin:games_{model}_add")).status_code == 403, model
        html = staff_client.get(reverse(f"admin:games_{model}_change", args=[obj.pk])).content.decode()
        assert 'name="_save"' not in html, model  # a view, not a form


def test_penalty_ban_and_grant_forms_find_the_player_by_name(staff_client: Client, alice: User) -> None:
    for model in ("games_penalty", "games_ban", "accounts_ledgerentry"):
        html = staff_client.get(reverse(f"admin:{model}_add")).content.decode()
        assert "admin-autocomplete" in html and 'data-field-name="user"' in html, model
    found = staff_client.get(
        reverse("admin:autocomplete"),
        {"term": "ali", "app_label": "games", "model_name": "penalty", "field_name": "user"},
    ).json()
    assert [r["text"] for r in found["results"]] == ["alice"]


def test_plural_names_and_the_ban_message_in_local_time(staff_client: Client, alice: User) -> None:
    index = staff_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Matches" in index and "Score entries" in index and "Server processes" in index
    assert "Matchs" not in index and "Score entrys" not in index and "Server processs" not in index
    response = staff_client.post(
        reverse("admin:games_ban_add"), {"user": alice.pk, "reason": "test", "minutes": 60}, follow=True
    )
    ban = Ban.objects.get(user=alice)
    from django.utils import timezone

    local = timezone.localtime(ban.ends).strftime("%H:%M")
    assert f"until {timezone.localtime(ban.ends):%Y-%m-%d} {local}" in response.content.decode()
